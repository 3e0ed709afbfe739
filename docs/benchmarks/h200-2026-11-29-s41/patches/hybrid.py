import sys, heapq, collections
sys.path.insert(0,'/work/main/docs/benchmarks/h100-2026-11-24-s18/patches')
import tile_timers as T
for path in sys.argv[1:]:
    by = T.tiles(T.load(path), rank=0)
    actual = max(ts[-1]['epi_end'] for ts in by.values())
    out=[]
    for t0 in (120,150,170,180,190,200):
        # per cluster: static prefix end time, pooled tiles
        pool=[]; free=[]
        for c,ts in by.items():
            pre=[r for r in ts if r['start']<t0]
            end = pre[-1]['epi_end'] if pre else ts[0]['cta_start']
            free.append((end,c[0]))
            pool += [r for r in ts if r['start']>=t0]
        for order in ('list','lpt'):
            if order=='lpt': p=sorted(pool,key=lambda r:-(r['epi_end']-r['start']))
            else: p=sorted(pool,key=lambda r:(r['group'],-T.blocks(r),r['row']))
            h=list(free); heapq.heapify(h)
            for r in p:
                t,c=heapq.heappop(h); heapq.heappush(h,(t+r['epi_end']-r['start'],c))
            out.append(f"t0={t0} {order} n={len(pool)}: {max(x[0] for x in h):.0f}")
    print(path.split('/')[-1], 'measured', round(actual), '|', '; '.join(out))
