#!/bin/bash
# Session 23 call 3 (H100) / 4 (H200): split rows of the skinny kernel summed in clusters
# (distributed shared memory) against the global ticket sum, same binary (BSRFLOW_EXP_NOCLUSTER
# plans the global sum; patches/exp_nocluster.patch); [skinny] tests and the sanitizers.
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
  BSRFLOW_EXP_NOCLUSTER=1 timeout 100 $C/bsr_bench --suite skinny --systems bsrflow_skinny --json global_$i.json > global_$i.md 2>&1
  timeout 100 $C/bsr_bench --suite skinny --systems bsrflow_skinny --json cluster_$i.json > cluster_$i.md 2>&1
done
echo "ab done (${SECONDS}s)" >> summary.txt
python3 - >> summary.txt <<'PY'
import json
def load(f): return {r['case']: r for r in json.load(open(f)) if r.get('status') == 'ok'}
g = [load(f'global_{i}.json') for i in (1, 2)]; c = [load(f'cluster_{i}.json') for i in (1, 2)]
print('%-40s %-36s %s' % ('case', 'cluster config', 'us global r1/r2 -> cluster r1/r2 (GB/s cluster r2, of copy)'))
for k in g[0]:
    cc = c[1][k]
    print('%-40s %-36s %6.2f %6.2f -> %6.2f %6.2f  (%4.0f, %.2f)  %+.1f%%' % (k, cc['config'], g[0][k]['ms']*1e3, g[1][k]['ms']*1e3, c[0][k]['ms']*1e3, cc['ms']*1e3, cc['gbps'], cc['gbps']/cc['copy_gbps'], 100*((c[0][k]['ms']+cc['ms'])/(g[0][k]['ms']+g[1][k]['ms'])-1)))
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
