import sys, collections
sys.path.insert(0,'/work/main/docs/benchmarks/h100-2026-11-24-s18/patches')
import tile_timers as T
import numpy as np
for path in sys.argv[1:]:
    by = T.tiles(T.load(path))
    X=[]; y=[]
    for k,ts in by.items():
        if k[1]!=0: continue
        b=sum(T.blocks(r) for r in ts); nw=sum(1 for r in ts if r['slot']<0); ns=sum(1 for r in ts if r['slot']>=0)
        X.append([b,nw,ns,1.0]); y.append(ts[-1]['epi_end'])
    X=np.array(X); y=np.array(y)
    coef,res,_,_=np.linalg.lstsq(X,y,rcond=None)
    print(path.split('/')[-1],'end ~ %.3f*blocks + %.2f*whole + %.2f*split + %.1f'%tuple(coef),' resid sd %.2f'%np.std(y-X@coef))
    # modeled cost (blocks + 1*whole + 3*split) vs end
    m=X[:,0]+X[:,1]+3*X[:,2]
    print('  model cost range %.0f-%.0f blocks, end range %.1f-%.1f'%(m.min(),m.max(),y.min(),y.max()), 'corr(end, nsplit) %.2f'%np.corrcoef(y,X[:,2])[0,1])
