#!/bin/bash
# Session 27 calls 14 (H100) and 15 (H200): row groups the planner's choice for 16 x 16 blocks with
# row-major B. bsr_bench at 8192^3 12.5%, 16 x 16, uniform and power-law rows, f16 and bf16: the
# tuned plan (now _g4), its copy-only probe, cuBLAS dense and the former default (swath1024_swap,
# one row per tile) in the same process. Then the sm90, row-group and tuning GPU tests.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w14; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
for pat in uniform powerlaw; do
  for dt in f16 bf16; do
    timeout 120 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 16 --density 0.125 --pattern $pat --dtype $dt \
      --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense --sm90-configs swath1024_swap \
      --json b16_${pat}_${dt}.json > b16_${pat}_${dt}.log 2>&1
    echo "rc=$? bench $pat $dt (${SECONDS}s)" >> runs.txt
  done
done
timeout 300 $C/bsrflow_tests "[sm90][gpu],[rowgroup],[tuning][gpu]" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
python3 - > summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('b16_*.json')):
    rs = json.load(open(f))
    cub = [r for r in rs if r.get('system') == 'cublas_dense' and r.get('eff_tflops')]
    cu = cub[0]['eff_tflops'] if cub else float('nan')
    for r in rs:
        if r.get('ms') is None: continue
        print('%-22s %-26s %-46s %8.4f ms %7.1f TF %.3f of cuBLAS' % (f[4:-5], r['system'][:26], r.get('config', '')[:46], r['ms'], r['eff_tflops'], r['eff_tflops'] / cu))
PY
cd /tmp && tar czf $OUT/results.tgz w14
cat $W/summary.txt; grep -E "FAILED" -A3 $W/tests.log | head -30; cat $W/runs.txt
