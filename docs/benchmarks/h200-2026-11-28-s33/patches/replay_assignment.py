#!/usr/bin/env python3
"""Replays the plan's tile assignment on the tiles of a per-tile timer CSV (exp_tile_timer.patch;
rank 0's rows: each tile's group, row, blocks and whether it is a split piece) with the model costs
blocks + 1 (whole) / 3 (split) at R = 128, 2 / 2 below, and prints each order's per-cluster model
loads (min, max, mean):
  actual            the loads of the plan's own lists (which cluster ran each tile)
  greedy sim        the plan's rule re-run: swath-major, each tile to the least-loaded cluster
  tail piece-major  the same, but the tail groups' items piece by piece across the tail groups
  tail LPT by cost  the tail's items by cost, longest first
  global LPT        every item by cost (swath order lost: for reference only)
Session 33 call 2 measured a cluster's busy time at ~1.5 us per model unit (128 x 128, H200).

  replay_assignment.py prof_pl128_1.csv ...
"""
import collections, csv, gzip, sys


def load(f):
    opener = gzip.open if f.endswith('.gz') else open
    with opener(f, 'rt') as fh:
        rows = [r for r in csv.DictReader(l for l in fh if not l.startswith('#'))]
    for r in rows:
        for k in r:
            r[k] = float(r[k])
    return [r for r in rows if r['rank'] == 0]


def run(f, ov, tail_groups=3):
    r0 = load(f)
    clusters = len({int(r['cluster']) for r in r0})
    rowlen = collections.Counter()
    for r in r0:
        rowlen[(int(r['group']), int(r['row']))] += r['kb_end'] - r['kb_begin']
    items = []
    for r in r0:
        g = int(r['group'])
        cost = r['kb_end'] - r['kb_begin'] + (ov[1] if r['slot'] >= 0 else ov[0])
        items.append(dict(g=g, key=(-rowlen[(g, int(r['row']))], r['row'], r['kb_begin']), cost=cost,
                          cl=int(r['cluster'])))
    groups = max(i['g'] for i in items) + 1

    def greedy(order):
        loads = [0] * clusters
        for it in order:
            c = min(range(clusters), key=lambda i: (loads[i], i))
            loads[c] += it['cost']
        return loads

    nat = sorted(items, key=lambda i: (i['g'], i['key']))
    actual = [0] * clusters
    for it in items:
        actual[it['cl']] += it['cost']
    tf = groups - tail_groups
    main = [i for i in nat if i['g'] < tf]
    orders = (('actual', actual), ('greedy sim', greedy(nat)),
              ('tail piece-major', greedy(main + sorted([i for i in nat if i['g'] >= tf], key=lambda i: (i['key'], i['g'])))),
              ('tail LPT by cost', greedy(main + sorted([i for i in nat if i['g'] >= tf],
                                                        key=lambda i: (-i['cost'], i['g'], i['key'])))),
              ('global LPT', greedy(sorted(nat, key=lambda i: (-i['cost'], i['g'], i['key'])))))
    for name, l in orders:
        print('%s %-18s min %.0f max %.0f mean %.1f' % (f.split('/')[-1], name, min(l), max(l), sum(l) / len(l)))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for f in sys.argv[1:]:
        run(f, (1, 3) if '128' in f else (2, 2))
