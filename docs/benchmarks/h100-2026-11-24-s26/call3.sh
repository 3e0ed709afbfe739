#!/bin/bash
# Session 26 call 3 (H100): rowgroup_probe with math - 16 x 16 row groups (G = 4, swath 512,
# gathered A) with three consumers (a conditional wgmma set per present row; one straight-line
# block per row mask; every row with absent rows against a zero block) against today's design
# with the same consumer (G = 1, swath 1024), all without an epilogue; three rounds. Then
# main's kernel and probe in bsr_bench at 16 (calibration).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
for i in 1 2 3; do
  timeout 150 $C/rowgroup_probe 7 > probe$i.txt 2>&1
  echo "rc=$? probe round $i (${SECONDS}s)" >> runs.txt
done
timeout 100 $C/bsr_bench --m 8192 --n 8192 --k 8192 --density 0.125 --block 16 --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense --json b16.json > /dev/null 2> b16.err
echo "rc=$? bench 16 (${SECONDS}s)" >> runs.txt
python3 - >> summary.txt <<'PY'
import json
for r in json.load(open('b16.json')):
    if r.get('status') in ('ok', 'probe'): print('%-24s %-44s %.4f ms %.1f TF' % (r['system'], r.get('config', ''), r['ms'], r['eff_tflops']))
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/probe*.txt $W/summary.txt; cat $W/runs.txt
