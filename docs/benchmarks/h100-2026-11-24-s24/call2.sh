#!/bin/bash
# Session 24 call 2 (H100) / 4 (H200): 64-row blocks at swath 512 for near-equal rows (the
# landed rule): [sm90] and [tuning] GPU tests, memcheck / racecheck / synccheck on [sm90small]
# (now with a swath-512 case), then the heuristic plan against the old configuration
# (--sm90-configs swath256_direct: swath 256, 64-deep chunks) in the same process, two rounds.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 240 $C/bsrflow_tests "[sm90]" > t_sm90.log 2>&1
echo "[sm90] rc=$? $(tail -3 t_sm90.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
timeout 120 $C/bsrflow_tests "[tuning][gpu]" > t_tuning.log 2>&1
echo "[tuning][gpu] rc=$? $(tail -3 t_tuning.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool $C/bsrflow_tests "[sm90small]" > san_$tool.log 2>&1
  echo "$tool sm90small rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1) (${SECONDS}s)" >> summary.txt
done
for i in 1 2; do
  for cs in "uniform 0.125 f16" "powerlaw 0.125 f16" "uniform 0.5 f16" "uniform 0.125 bf16"; do
    set -- $cs
    timeout 100 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 64 --density $2 --pattern $1 --dtype $3 \
      --systems bsrflow_sm90,bsrflow_sm90_copy_probe --sm90-configs swath256_direct --json r${i}_$1_$2_$3.json > /dev/null 2> r${i}_$1_$2_$3.err
    echo "rc=$? r$i $1 $2 $3 (${SECONDS}s)" >> runs.txt
  done
done
python3 - >> summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('r*_*.json')):
    recs = json.load(open(f))
    s = {r['system']: r for r in recs if r.get('status') in ('ok', 'probe')}
    k = s.get('bsrflow_sm90'); p = s.get('bsrflow_sm90_copy_probe')
    o = [r for n, r in s.items() if n.startswith('bsr_sm90_') or 'swath256' in n]
    o = o[0] if o else None
    print('%-28s new %s %.4f ms %.0f TF (probe %.0f) | old %s %.4f ms %.0f TF | new/old %.3f' % (
        f[:-5], k['config'], k['ms'], k['eff_tflops'], p['eff_tflops'] if p else 0,
        o['config'] if o else '-', o['ms'] if o else 0, o['eff_tflops'] if o else 0,
        k['eff_tflops'] / o['eff_tflops'] if o else 0))
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt; grep -v "rc=0" $W/runs.txt | head
