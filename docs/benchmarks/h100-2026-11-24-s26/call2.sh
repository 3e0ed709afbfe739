#!/bin/bash
# Session 26 call 2 (H100): row groups without a new kernel - the 16 x 16 (32 x 32) product run as
# a zero-padded product of taller blocks (G block rows stacked: 64 x 16, 128 x 16; 64 x 32,
# 128 x 32) on today's kernels. A uniform pattern of taller blocks at density 1 - (7/8)^G has the
# statistics of the union of G rows at 12.5%; bsr_bench times it with every --sm90-configs
# variant and the autotuner. Useful work is the 12.5% product: compare milliseconds.
# Also rowgroup_probe once more (its 32 x 32 G = 4 rows now with 8 stages).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 150 $C/rowgroup_probe 7 > probe.txt 2>&1
echo "rc=$? probe (${SECONDS}s)" >> runs.txt
B="--m 8192 --n 8192 --k 8192 --pattern uniform --dtype f16 --systems bsrflow_sm90,bsrflow_sm90_copy_probe,bsrflow_sm90_tuned,cublas_dense"
for cs in "16x16 0.125" "64x16 0.41381836" "128x16 0.65639496" "32x32 0.125" "64x32 0.234375" "128x32 0.41381836"; do
  set -- $cs
  timeout 200 $C/bsr_bench $B --block $1 --density $2 --sm90-configs all --json b_$1.json > /dev/null 2> b_$1.err
  echo "rc=$? bench $1 $2 (${SECONDS}s)" >> runs.txt
done
python3 - >> summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('b_*.json')):
    recs = [r for r in json.load(open(f)) if r.get('status') in ('ok', 'probe')]
    for r in sorted(recs, key=lambda r: r['ms']):
        print('%-12s %-34s %-48s %.4f ms  %.1f TF' % (f[2:-5], r['system'], r.get('config', ''), r['ms'], r['eff_tflops']))
    print()
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/probe.txt $W/summary.txt; cat $W/runs.txt
