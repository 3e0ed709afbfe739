#!/usr/bin/env python3
"""Session 34's model of the 128 x 128 plan on bsr_bench's power-law rows (perf_log entry 56 part 1):
row lengths as bsr_bench makes them (Zipf, capped), the plan's split / tail limits, the
longest-processing-time lists over 66 pairs, then a replay with entry 55's measured costs (1.43 us
per block, 0.85 per tile, epilogue 0.70 whole / 3.5 split; a piece signals after its next tile's
main loop; the fix-up serialised in list order after its tiles' last signals). Prints the modelled
end for the current plan and for a last group cut at 3/4, 1/2 and 2/3 of the tail limit. Measured:
the balance part of the gain is about a third of this model's (the SMs' own spread is not in it).

  python3 tail_model.py
"""
US_BLK=1.43; US_TILE=0.85; EPI_W=0.70; EPI_S=3.5; PIECE_US=0.256/1.8; LAT=4.0
import math, collections, itertools, random
US_BLK=1.43; US_TILE=0.85; EPI_W=0.70; EPI_S=3.5; PIECE_US=0.256/1.8; LAT=4.0
def pl_lengths(rows, cap, total, exp=1.0):
    w=[(r+1)**-exp for r in range(rows)]
    order=list(range(rows)); L=[0]*rows; left=total; pool=sum(w); i=0
    while i<rows and left*w[order[i]]/pool>=cap:
        L[order[i]]=cap; left-=cap; pool-=w[order[i]]; i+=1
    fr=[]; given=0
    for r in order[i:]:
        s=left*w[r]/pool if pool>0 else 0; L[r]=min(cap,int(math.floor(s))); given+=L[r]; fr.append((s-math.floor(s),r))
    fr.sort(key=lambda x:-x[0]); j=0
    while given<left and fr:
        r=fr[j%len(fr)][1]
        if L[r]<cap: L[r]+=1; given+=1
        j+=1
    return sorted(L,reverse=True)
def pieces(lengths, limit):
    out=[]
    for i,l in enumerate(lengths):
        if l==0: continue
        n=(l+limit-1)//limit if (limit>0 and l>limit) else 1
        for q in range(n):
            out.append((i, l*(q+1)//n - l*q//n, n>1))
    return out
def plan(lengths, n_cols, clusters=66, swath=256, cluster=2, final=None):
    rows=len(lengths); nnzb=sum(lengths); avg=-(-nnzb//rows); num_swaths=-(-n_cols//swath)
    groups=-(-num_swaths//cluster); ctas=132
    limit=max(16,4*avg,nnzb*num_swaths//(8*ctas))
    main=pieces(lengths,limit); longest=max(p[1] for p in main)
    tl=max(4,2*avg,nnzb//clusters)
    lists=[main]*groups
    if longest>tl:
        tg=min(groups,-(-(clusters*longest)//(2*nnzb)))
        tail=pieces(lengths,tl)
        lists=[main]*(groups-tg)+[tail]*tg
        if final: lists[-1]=pieces(lengths,final(tl))
    return lists, clusters
def cost(it): return it[1]+(3 if it[2] else 1)
def schedule(gl, clusters):
    loads=[0]*clusters; lists=[[] for _ in range(clusters)]
    for g,pl in enumerate(gl):
        for it in pl:
            c=min(range(clusters),key=lambda i:(loads[i],i))
            loads[c]+=cost(it); lists[c].append((g,)+it)
    return lists
def simulate(lists):
    ready={}; pieces_n=collections.Counter(); ends=[]
    for lst in lists:
        t=0; pend=None
        for it in lst:
            loop=t+US_BLK*it[2]+US_TILE
            if pend is not None: ready[pend]=max(ready.get(pend,0),loop); pend=None
            t=loop+(EPI_S if it[3] else EPI_W)
            if it[3]: pend=(it[0],it[1]); pieces_n[pend]+=1
        if pend is not None: ready[pend]=max(ready.get(pend,0),t)
        ends.append(t)
    done=0
    for k in sorted(ready): done=max(done,ready[k]+LAT)+pieces_n[k]*PIECE_US
    return max(max(ends),done)
finals={'cur':None,'3/4':lambda t:max(4,t*3//4),'1/2':lambda t:max(4,t//2),'2/3':lambda t:max(4,t*2//3)}
print('shape density exp | ' + ' '.join(finals))
for s,d,e in itertools.product((4096,8192,16384),(0.0625,0.125,0.25,0.5),(0.8,1.0,1.2)):
    br=s//128; total=br*round(d*br)
    L=pl_lengths(br,br,total,e)
    res={}
    for k,f in finals.items():
        gl,c=plan(L,s,final=f); res[k]=simulate(schedule(gl,c))
    print('%5d %.4f %.1f | '%(s,d,e)+' '.join('%s %.1f%s'%(k,v,'' if k=='cur' else '(%+.1f%%)'%(100*(v/res['cur']-1))) for k,v in res.items()))
