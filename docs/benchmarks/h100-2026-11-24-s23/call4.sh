#!/bin/bash
# Session 23 call 4 (H100): the first ring's A boxes before the first column window
# (BSRFLOW_EXP_EARLYA=0 issues them as before; patches/exp_early_a.patch), same binary
# [skinny] tests and the sanitizers.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 150 $C/bsrflow_tests "[skinny]" > skinny_tests.log 2>&1
echo "skinny tests rc=$? $(tail -3 skinny_tests.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool $C/bsrflow_tests "[skinnysmall]" > san_$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1) (${SECONDS}s)" >> summary.txt
done
for i in 1 2; do
  BSRFLOW_EXP_EARLYA=0 timeout 100 $C/bsr_bench --suite skinny --systems bsrflow_skinny --json before_$i.json > before_$i.md 2>&1
  timeout 100 $C/bsr_bench --suite skinny --systems bsrflow_skinny --json early_$i.json > early_$i.md 2>&1
done
echo "ab done (${SECONDS}s)" >> summary.txt
python3 - >> summary.txt <<'PY'
import json
def load(f): return {r['case']: r for r in json.load(open(f)) if r.get('status') == 'ok'}
g = [load(f'before_{i}.json') for i in (1, 2)]; c = [load(f'early_{i}.json') for i in (1, 2)]
print('%-40s %-36s %s' % ('case', 'config', 'us before r1/r2 -> early A r1/r2 (GB/s early r2, of copy)'))
for k in g[0]:
    cc = c[1][k]
    print('%-40s %-36s %6.2f %6.2f -> %6.2f %6.2f  (%4.0f, %.2f)  %+.1f%%' % (k, cc['config'], g[0][k]['ms']*1e3, g[1][k]['ms']*1e3, c[0][k]['ms']*1e3, cc['ms']*1e3, cc['gbps'], cc['gbps']/cc['copy_gbps'], 100*((c[0][k]['ms']+cc['ms'])/(g[0][k]['ms']+g[1][k]['ms'])-1)))
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
