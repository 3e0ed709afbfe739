import sys, collections, heapq
sys.path.insert(0, 'docs/benchmarks/h100-2026-11-24-s18/patches')
import tile_timers as T
PER_BLOCK, PER_TILE, EPI_WHOLE, EPI_SPLIT = 1.434, 0.88, 0.70, 3.50
def replay(groups, pairs):
    h = [(0.0, i) for i in range(pairs)]
    for g in sorted(groups):
        for cost in sorted(groups[g], reverse=True):
            t, i = heapq.heappop(h); heapq.heappush(h, (t + cost, i))
    ends = sorted(t for t, _ in h)
    return ends[-1], ends[len(ends)//2]
rows = [r for r in T.load(sys.argv[1]) if r['rank'] == 0]
pairs = len({r['cluster'] for r in rows})
G = sorted({int(r['group']) for r in rows})
print('groups', G)
length = collections.defaultdict(float); pieces = collections.defaultdict(list)
for r in rows:
    g, row = int(r['group']), int(r['row'])
    length[(g,row)] += T.blocks(r); pieces[(g,row)].append((T.blocks(r), r['slot']>=0))
splitg = collections.Counter(g for (g,row),p in pieces.items() if len(p)>1)
print('split tiles per group', dict(splitg))
print('longest rows', sorted(set(length.values()), reverse=True)[:8])
for ntail in (0, 1, 2, 3, 4, 16):
    tailset = set(G[-ntail:]) if ntail else set()
    tiles = collections.defaultdict(list); nsplit = 0
    for (g,row), ps in pieces.items():
        if g in tailset or len(ps) == 1:
            for b, s in ps:
                tiles[g].append(b*PER_BLOCK + PER_TILE + (EPI_SPLIT if s else EPI_WHOLE)); nsplit += s
        else:
            tiles[g].append(length[(g,row)]*PER_BLOCK + PER_TILE + EPI_WHOLE)
    mx, med = replay(tiles, pairs)
    print(f'split kept in last {ntail} groups: last pair {mx:.0f} us, median {med:.0f}, split pieces {nsplit}')
# main list unsplit, the tail list (group 15's pieces) on the last k groups
tailp = collections.defaultdict(list)
for (g,row), ps in pieces.items():
    if g == G[-1]: tailp[row] = ps
mainlen = {row: length[(G[0],row)] for (g,row) in pieces if g == G[0]}
for k in (3,4,5,6,8):
    tiles = collections.defaultdict(list); nsplit=0
    for g in G:
        for row in mainlen:
            if g >= len(G)-k:
                for b,s in tailp[row]:
                    tiles[g].append(b*PER_BLOCK+PER_TILE+(EPI_SPLIT if s else EPI_WHOLE)); nsplit+=s
            else:
                tiles[g].append(mainlen[row]*PER_BLOCK+PER_TILE+EPI_WHOLE)
    mx, med = replay(tiles, pairs)
    print(f'main unsplit, tail list on last {k}: last pair {mx:.0f} us, median {med:.0f}, split pieces {nsplit}')
