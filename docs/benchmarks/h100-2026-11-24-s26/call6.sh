#!/bin/bash
# Session 26 call 6 (H100; an H200 could not be started): as calls 4-5, plus consumers that leave 2 or 3 wgmma groups
# in flight (stages released that late), for row groups and for today's design; no epilogue; two
# rounds. Then main's kernel and probe in
# bsr_bench at 16 and 32 with cuBLAS (calibration).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
for i in 1 2; do
  timeout 150 $C/rowgroup_probe 7 > probe$i.txt 2>&1
  echo "rc=$? probe round $i (${SECONDS}s)" >> runs.txt
done
for blk in 16 32; do
  timeout 100 $C/bsr_bench --m 8192 --n 8192 --k 8192 --density 0.125 --block $blk --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense --json b$blk.json > /dev/null 2> b$blk.err
  echo "rc=$? bench $blk (${SECONDS}s)" >> runs.txt
done
python3 - >> summary.txt <<'PY'
import json
for f in ('b16.json', 'b32.json'):
    for r in json.load(open(f)):
        if r.get('status') in ('ok', 'probe'): print('%-5s %-24s %-44s %.4f ms %.1f TF' % (f[:-5], r['system'], r.get('config', ''), r['ms'], r['eff_tflops']))
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/probe*.txt $W/summary.txt; cat $W/runs.txt
