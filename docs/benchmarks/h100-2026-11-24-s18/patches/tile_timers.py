#!/usr/bin/env python3
"""Reads the per-tile timer CSVs of tile_timer.patch (BSRFLOW_EXP_PROF / BSRFLOW_EXP_PROF_FILE):
one row per (cluster, rank, tile in the cluster's order) with the tile, its CTA's start, and the
globaltimer after its main loop and after its epilogue (us from the first CTA's start).

  tile_timers.py ends FILE...        CTA end spread; us per block in the main loop (fit); epilogues
  tile_timers.py groups FILE...      swath groups in flight every 10 us
  tile_timers.py simulate FILE...    replay the measured tile times: clusters take the list's next
                                     tile when free, or commit `lag` tiles early
  tile_timers.py costs FILE...       replay them through the plan-time assignment (least modelled
                                     work first) with other (whole, split) tile overheads
"""
import collections, csv, gzip, heapq, sys


def load(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        rows = [r for r in csv.DictReader(l for l in f if not l.startswith('#'))]
    for r in rows:
        for k in r:
            r[k] = float(r[k])
    return rows


def tiles(rows, rank=None):
    """Per (cluster, rank): the tiles in order, each with start (previous epilogue end), loop end, end."""
    by = collections.defaultdict(list)
    for r in rows:
        if rank is None or r['rank'] == rank:
            by[(int(r['cluster']), int(r['rank']))].append(r)
    out = {}
    for key, ts in by.items():
        ts.sort(key=lambda r: r['seq'])
        prev = ts[0]['cta_start']
        for r in ts:
            r['start'] = prev
            prev = r['epi_end']
        out[key] = ts
    return out


def blocks(r):
    return r['kb_end'] - r['kb_begin']


def ends(path):
    by = tiles(load(path))
    e = sorted(ts[-1]['epi_end'] for ts in by.values())
    n = len(e)
    print(f'{path}: CTA ends min {e[0]:.1f} p50 {e[n // 2]:.1f} max {e[-1]:.1f} us')
    xs = [(blocks(r), r['loop_end'] - r['start'], r['epi_end'] - r['loop_end'], r['slot'] >= 0)
          for ts in by.values() for r in ts]
    mx = sum(x[0] for x in xs) / len(xs)
    my = sum(x[1] for x in xs) / len(xs)
    var = sum((x[0] - mx) ** 2 for x in xs)
    slope = sum((x[0] - mx) * (x[1] - my) for x in xs) / var if var > 0 else my / mx
    whole = [x[2] for x in xs if not x[3]]
    split = [x[2] for x in xs if x[3]]
    print(f'  main loop ~ {slope:.3f} us x blocks + {my - slope * mx:.2f}; epilogue whole '
          f'{sum(whole) / max(len(whole), 1):.2f} us, split {sum(split) / max(len(split), 1):.2f} us')


def groups(path):
    spans = [(r['start'], r['epi_end'], int(r['group'])) for ts in tiles(load(path), rank=0).values() for r in ts]
    end = max(s[1] for s in spans)
    line = []
    for t in range(5, int(end), 10):
        g = {s[2] for s in spans if s[0] <= t < s[1]}
        if g:
            line.append(f'{t}:{min(g)}-{max(g)}({len(g)})')
    print(f'{path}: time:groups(in flight) ' + ' '.join(line))


def simulate(path):
    by = tiles(load(path), rank=0)
    items = sorted((r['group'], -blocks(r), r['row'], r['epi_end'] - r['start']) for ts in by.values() for r in ts)
    clusters = len(by)
    result = []
    for lag in (0, 1, 2):
        queue = [collections.deque() for _ in range(clusters)]
        nxt = 0
        for c in range(clusters):
            for _ in range(lag + 1):
                if nxt < len(items):
                    queue[c].append(items[nxt][3])
                    nxt += 1
        heap = [(0.0, c) for c in range(clusters)]
        finish = 0.0
        while heap:
            t, c = heapq.heappop(heap)
            if not queue[c]:
                finish = max(finish, t)
                continue
            d = queue[c].popleft()
            if nxt < len(items):
                queue[c].append(items[nxt][3])
                nxt += 1
            heapq.heappush(heap, (t + d, c))
        result.append(f'lag {lag}: last end {finish:.0f} us')
    actual = max(ts[-1]['epi_end'] for ts in by.values())
    print(f'{path}: measured last end {actual:.0f} us; ' + '; '.join(result))


def costs(path):
    by = tiles(load(path), rank=0)
    items = sorted((r for ts in by.values() for r in ts), key=lambda r: (r['group'], -blocks(r), r['row'], r['kb_begin']))
    clusters = len(by)
    result = []
    for whole, split in ((2, 2), (1, 1), (1.2, 2.6), (1, 3), (0.5, 2.5)):
        model = [0.0] * clusters
        busy = [0.0] * clusters
        for r in items:
            c = min(range(clusters), key=lambda i: (model[i], i))
            model[c] += blocks(r) + (split if r['slot'] >= 0 else whole)
            busy[c] += r['epi_end'] - r['start']
        result.append(f'({whole}, {split}): {max(busy):.0f} us')
    actual = max(ts[-1]['epi_end'] for ts in by.values())
    print(f'{path}: measured last end {actual:.0f} us; replayed with overheads ' + '; '.join(result))


if __name__ == '__main__':
    if len(sys.argv) < 3 or sys.argv[1] not in ('ends', 'groups', 'simulate', 'costs'):
        sys.exit(__doc__)
    for f in sys.argv[2:]:
        globals()[sys.argv[1]](f)
