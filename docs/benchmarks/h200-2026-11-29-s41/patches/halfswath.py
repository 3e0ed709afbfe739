import sys, heapq, collections
sys.path.insert(0,'/work/main/docs/benchmarks/h100-2026-11-24-s18/patches')
import tile_timers as T
def lpt(costs, n):
    h=[(0.0,i) for i in range(n)]; heapq.heapify(h)
    for c in sorted(costs, reverse=True):
        t,i=heapq.heappop(h); heapq.heappush(h,(t+c,i))
    return max(t for t,_ in h), sum(costs)/n
for path in sys.argv[1:]:
    rows = T.load(path)
    rows = [r for r in rows if r['rank']==0]   # one CTA of each pair: the pair's timeline
    n = len({r['cluster'] for r in rows})
    per_block, whole_epi, split_epi = 1.43, 0.70, 3.5
    cur = [T.blocks(r)*per_block + (split_epi if r['slot']>=0 else whole_epi) for r in rows]
    split = collections.defaultdict(float)
    whole = []
    for r in rows:
        if r['slot']>=0: split[(r['row'], r['group'])] += T.blocks(r)
        else: whole.append(T.blocks(r)*per_block + whole_epi)
    print(path.split('/')[-1], 'pairs', n, 'split tiles', len(split), 'largest split tile blocks', max(split.values()))
    print('  current tiles (pieces), LPT: makespan %.0f mean %.0f' % lpt(cur, n))
    for parts in (1, 2, 4):
        for pen in (1.0, 1.1, 1.2):
            hs = whole + [b*per_block/parts*pen + whole_epi for b in split.values() for _ in range(parts)]
            print('  split tiles as %d swath parts (x%.1f per block), LPT: makespan %.0f mean %.0f' % ((parts, pen) + lpt(hs, n)))
