#!/usr/bin/env python3
"""Replays session 33's 128 power-law tiles (one CSV of per-tile timers, rank 0 = the pair's
timeline) through the plan's rule - swath groups in order, each group's tiles longest first, each
to the least-loaded pair - with costs fitted from the timers, for today's split pieces and for
long rows cut along N into half-swath tiles (no partials, no fix-up). Usage: ncut_replay.py CSV."""
import sys, collections, heapq
sys.path.insert(0, 'docs/benchmarks/h100-2026-11-24-s18/patches')
import tile_timers as T

PER_BLOCK, PER_TILE, EPI_WHOLE, EPI_SPLIT = 1.434, 0.88, 0.70, 3.50

def replay(groups, pairs):
    load = [0.0] * pairs
    h = [(0.0, i) for i in range(pairs)]
    for g in sorted(groups):
        for cost in sorted(groups[g], reverse=True):
            t, i = heapq.heappop(h)
            heapq.heappush(h, (t + cost, i))
    ends = sorted(t for t, _ in h)
    return ends[-1], ends[len(ends) // 2]

rows = [r for r in T.load(sys.argv[1]) if r['rank'] == 0]
pairs = len({r['cluster'] for r in rows})
cur = collections.defaultdict(list)
length = collections.defaultdict(float)   # (group, row) -> blocks
split_rows = set()
for r in rows:
    g, b = int(r['group']), T.blocks(r)
    split = r['slot'] >= 0
    cur[g].append(b * PER_BLOCK + PER_TILE + (EPI_SPLIT if split else EPI_WHOLE))
    length[(g, int(r['row']))] += b
    if split: split_rows.add((g, int(r['row'])))
mx, med = replay(cur, pairs)
print(f'{pairs} pairs; today\'s pieces: last pair {mx:.0f} us, median {med:.0f} (no fix-up modelled)')
for parts in (2, 4):
    for pen in (1.0, 1.1, 1.2):
        ncut = collections.defaultdict(list)
        for (g, row), b in length.items():
            if (g, row) in split_rows:
                ncut[g] += [b * PER_BLOCK * pen / parts + PER_TILE + EPI_WHOLE / parts] * parts
            else:
                ncut[g].append(b * PER_BLOCK + PER_TILE + EPI_WHOLE)
        mx, med = replay(ncut, pairs)
        print(f'split rows as {parts} N-parts, blocks x{pen}: last pair {mx:.0f} us, median {med:.0f}')
