#!/usr/bin/env python3
"""Reads a per-tile timer CSV of patches/exp_fixup_timer.patch (the GEMM's tiles, then '#item'
lines: fix-up item i's ready-seen and done times, and '#fcta' lines: each fix-up CTA's start,
loop end and exit after griddepcontrol.wait; us from the first GEMM CTA's start) and prints where
the run's end goes: the GEMM's last CTA end, when the fix-up saw its last tile ready, its last item
done, its CTAs' last loop end and exit, and both kernels' event time.

  fixup_tail.py prof_pl128_1.csv ...
"""
import csv, gzip, sys


def main(f):
    opener = gzip.open if f.endswith('.gz') else open
    head, items, ctas, rows = '', [], [], []
    with opener(f, 'rt') as fh:
        lines = fh.read().splitlines()
    for l in lines:
        if l.startswith('#item'):
            _, i, r, d = l.split()
            items.append((int(i), float(r), float(d)))
        elif l.startswith('#fcta'):
            _, c, s, e, x = l.split()
            ctas.append((int(c), float(s), float(e), float(x)))
        elif l.startswith('#'):
            head = l
    rows = list(csv.DictReader(l for l in lines if not l.startswith('#')))
    ends = {}
    for r in rows:
        k = (r['cluster'], r['rank'])
        ends[k] = max(ends.get(k, 0.0), float(r['epi_end']))
    e = sorted(ends.values())
    print('%s  %s' % (f.split('/')[-1], head))
    print('  GEMM CTA ends min %.1f p50 %.1f max %.1f us' % (e[0], e[len(e) // 2], e[-1]))
    if items:
        rd = sorted(x[1] for x in items)
        dn = sorted(x[2] for x in items)
        late = [x for x in items if x[1] > e[-1] - 5]
        print('  fix-up items %d: ready seen last %.1f, done last %.1f; items ready within 5 us of the GEMM end: %d '
              '(their reduce %.2f us median)' % (len(items), rd[-1], dn[-1], len(late),
                                                sorted(x[2] - x[1] for x in late)[len(late) // 2] if late else 0))
    live = [c for c in ctas if c[1] >= 0]
    if live:
        st = sorted(c[1] for c in live)
        print('  fix-up CTAs %d: start first %.1f p50 %.1f last %.1f; loop end last %.1f; exit first %.1f last %.1f' %
              (len(live), st[0], st[len(st) // 2], st[-1], max(c[2] for c in live), min(c[3] for c in live),
               max(c[3] for c in live)))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for f in sys.argv[1:]:
        main(f)
