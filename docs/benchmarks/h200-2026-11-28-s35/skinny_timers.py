#!/usr/bin/env python3
"""Reads the per-CTA %globaltimer stamps of patches/exp_skinny_timers.patch (64 u64 per CTA) and
prints, in us from the first CTA's entry: medians / maxima of each phase, and the stage periods.
Slots: 0 entry, 1 after the CTA barrier (piece loaded, barriers set), 2+s the producer past its
empty wait for stage s (s < 24), 26+s consumer warp 0 past its full wait for stage s, 50 main loop
done (warp 0), 51 cross-warp sum done, 52 CTA's output done (C, or the ticket, or the row sum),
53 SM, 54 stages, 55 1 split piece / 3 the row's last, 56 producer done, 57 ticket taken."""
import struct, sys, statistics as st

def load(path):
    raw = open(path, 'rb').read()
    n = len(raw) // 8
    v = struct.unpack('<%dQ' % n, raw)
    return [v[i * 64:(i + 1) * 64] for i in range(n // 64)]

def q(xs, f):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(f * (len(xs) - 1) + 0.5))] if xs else float('nan')

for path in sys.argv[1:]:
    ctas = load(path)
    t0 = min(c[0] for c in ctas)
    us = lambda t: (t - t0) / 1000.0
    def col(slot, sel=lambda c: True):
        return [us(c[slot]) for c in ctas if c[slot] and sel(c)]
    print('%s: %d CTAs, %d on %d SMs, stages median %d' % (path, len(ctas), len(ctas), len({c[53] for c in ctas}),
          st.median(c[54] for c in ctas)))
    rows = [('entry', 0), ('barrier done', 1), ('first issue (stage 0)', 2), ('first full (stage 0)', 26),
            ('second full', 27), ('producer done', 56), ('main loop done', 50), ('cross-warp sum', 51),
            ('ticket (split)', 57), ('CTA done', 52)]
    for name, slot in rows:
        xs = col(slot)
        if xs:
            print('  %-24s p10 %6.2f  median %6.2f  p90 %6.2f  max %6.2f' % (name, q(xs, .1), q(xs, .5), q(xs, .9), max(xs)))
    last = [us(c[52]) for c in ctas if c[55] == 3]
    if last:
        print('  %-24s p10 %6.2f  median %6.2f  max %6.2f' % ('row sums done', q(last, .1), q(last, .5), max(last)))
    per = []
    gap_issue_full = []
    for c in ctas:
        n = min(c[54], 24)
        f = [c[26 + s] for s in range(n) if c[26 + s]]
        per += [(b - a) / 1000.0 for a, b in zip(f, f[1:])]
        gap_issue_full += [(c[26 + s] - c[2 + s]) / 1000.0 for s in range(n) if c[26 + s] and c[2 + s]]
    if per:
        print('  stage period (full to full, warp 0): p10 %.3f median %.3f p90 %.3f us' % (q(per, .1), q(per, .5), q(per, .9)))
    if gap_issue_full:
        print('  issue -> full of a stage:            p10 %.3f median %.3f p90 %.3f us' % (
            q(gap_issue_full, .1), q(gap_issue_full, .5), q(gap_issue_full, .9)))
    print('  span: %.2f us (first entry to last CTA done)' % max(col(52)))
