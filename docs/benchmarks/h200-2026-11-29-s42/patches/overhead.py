import sys, collections
sys.path.insert(0,'/work/main/docs/benchmarks/h100-2026-11-24-s18/patches')
import tile_timers as T
path=sys.argv[1]
rows=[r for r in T.load(path) if r['rank']==0]
pairs=len({int(r['cluster']) for r in rows})
groups=collections.defaultdict(list); rowlen=collections.defaultdict(float)
for r in rows:
    g=int(r['group']); rowlen[(g,int(r['row']))]+=T.blocks(r)
    groups[g].append((int(r['row']),int(r['kb_begin']),int(T.blocks(r)),r['slot']>=0))
for g in groups: groups[g].sort(key=lambda t:(-rowlen[(g,t[0])],t[0],t[1]))
# evaluation coefficients (regression on this file's pairs)
B,W,S,K=[float(x) for x in sys.argv[2].split(',')]
for ws in [(1,3),(1,4),(1,5),(1,6),(2,5),(1,7)]:
    load=[0]*pairs; cnt=[[0,0,0] for _ in range(pairs)]
    for g in sorted(groups):
        for row,kb,b,sp in groups[g]:
            c=b+(ws[1] if sp else ws[0])
            i=min(range(pairs),key=lambda k:(load[k],k)); load[i]+=c
            cnt[i][0]+=b; cnt[i][1 if not sp else 2]+=1
    ends=sorted(B*b+W*w+S*s+K for b,w,s in cnt)
    print('overhead whole %d split %d: predicted last %.1f p50 %.1f min %.1f'%(ws[0],ws[1],ends[-1],ends[len(ends)//2],ends[0]))
