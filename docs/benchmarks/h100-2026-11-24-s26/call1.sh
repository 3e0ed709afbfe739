#!/bin/bash
# Session 26 call 1 (H100): row-group load streams for 16- and 32-row blocks (rowgroup_probe.cu,
# copy-only, two rounds) against main's kernel and probe in bsr_bench at 16 / 32 (calibration).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
B="--m 8192 --n 8192 --k 8192 --density 0.125 --pattern uniform --dtype f16 --systems bsrflow_sm90,bsrflow_sm90_copy_probe"
for i in 1 2; do
  timeout 150 $C/rowgroup_probe 7 > probe$i.txt 2>&1
  echo "rc=$? probe round $i (${SECONDS}s)" >> runs.txt
  for blk in 16 32; do
    timeout 100 $C/bsr_bench $B --block $blk --json b${i}_$blk.json > /dev/null 2> b${i}_$blk.err
    echo "rc=$? bench r$i $blk (${SECONDS}s)" >> runs.txt
  done
done
python3 - >> summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('b*_*.json')):
    s = {r['system']: r for r in json.load(open(f)) if r.get('status') in ('ok', 'probe')}
    k = s.get('bsrflow_sm90'); p = s.get('bsrflow_sm90_copy_probe')
    print('%-8s %s %.4f ms %.1f TF | probe %.4f ms %.1f TF' % (f[:-5], k['config'], k['ms'], k['eff_tflops'], p['ms'], p['eff_tflops']))
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/probe1.txt $W/probe2.txt $W/summary.txt; cat $W/runs.txt
