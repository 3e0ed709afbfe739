#!/bin/bash
# Session 27 call 21 (H200): call 20 again. Where row groups pay by density (the tuner picked them at 32 x 32 50%,
# +45%). bsr_bench 8192^3 f16 uniform: 16 x 16 at 3%, 6% and 25% (default _g4 against the one-row
# swath1024_swap), 32 x 32 at 6%, 25% and 50% (default one-row against swath256_swap_g4).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w21; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
for d in 0.03 0.0625 0.25; do
  timeout 60 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 16 --density $d --systems bsrflow_sm90,cublas_dense \
    --sm90-configs swath1024_swap --json b16_$d.json > /dev/null 2> b16_$d.err
  echo "rc=$? b16 $d (${SECONDS}s)" >> runs.txt
done
for d in 0.0625 0.25 0.5; do
  timeout 60 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 32 --density $d --systems bsrflow_sm90,cublas_dense \
    --sm90-configs swath256_swap_g4 --json b32_$d.json > /dev/null 2> b32_$d.err
  echo "rc=$? b32 $d (${SECONDS}s)" >> runs.txt
done
python3 - > summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('b*.json')):
    for r in json.load(open(f)):
        if r.get('ms') is not None and r['system'] != 'cublas_dense':
            print('%-12s %-46s %8.4f ms %7.1f TF' % (f[:-5], r.get('config', ''), r['ms'], r['eff_tflops']))
PY
cd /tmp && tar czf $OUT/results.tgz w21
cat $W/summary.txt $W/runs.txt
