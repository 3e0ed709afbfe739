#!/bin/bash
# Session 27 call 15 (H200): call 14's bsr_bench cases (16 x 16, 8192^3 12.5%, uniform and power-law,
# f16 and bf16: the tuned _g4 plan, its probe, cuBLAS and the former default swath1024_swap).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w15; mkdir -p $W; cd $W
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
cd /tmp && tar czf $OUT/results.tgz w15
cat $W/summary.txt; cat $W/runs.txt
