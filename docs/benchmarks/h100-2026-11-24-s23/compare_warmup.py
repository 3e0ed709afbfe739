# Session 23: two bsr_bench JSONs of one GPU (--warmup-ms 0 and the 200 ms default): per system,
# the rate ratio new / old, and the same-configuration tuned-vs-heuristic gaps in each.
import json, sys, statistics
def load(f):
    d = json.load(open(f)); return d if isinstance(d, list) else d['records']
old, new = load(sys.argv[1]), load(sys.argv[2])
key = lambda r: (r['case'], r['system'])
o = {key(r): r for r in old if r.get('status') == 'ok'}
n = {key(r): r for r in new if r.get('status') == 'ok'}
by_sys = {}
for k in o:
    if k in n and o[k].get('eff_tflops') and n[k].get('eff_tflops'):
        by_sys.setdefault(k[1], []).append(n[k]['eff_tflops'] / o[k]['eff_tflops'])
print('rate new / old per system: median (min-max) over cases')
for s, v in sorted(by_sys.items()):
    print('  %-24s %.3f (%.3f-%.3f) n=%d' % (s, statistics.median(v), min(v), max(v), len(v)))
for name, recs in (('old', o), ('new', n)):
    gaps = []
    for (case, s), r in recs.items():
        if s != 'bsrflow_sm90_tuned': continue
        h = recs.get((case, 'bsrflow_sm90'))
        if h and r.get('config') == h.get('config'): gaps.append((abs(r['eff_tflops'] / h['eff_tflops'] - 1), case))
    gaps.sort(reverse=True)
    print('%s: same-config tuned vs heuristic, |rate gap|: max %.3f (%s), median %.3f, over 2%%: %d of %d' % (
        name, gaps[0][0], gaps[0][1], statistics.median([g for g, _ in gaps]), sum(g > 0.02 for g, _ in gaps), len(gaps)))
