#!/bin/bash
# Session 25 call 4 (H200) / 5 (H100): 128 x 128 power-law rows with the split fraction (tuning_sm90.hpp
# split_per_cta_fraction, 8 at R = 128) set to 4 / 8 / 16 / 32 by BSRFLOW_EXP_SPLITF
# (patches/exp_splitf128.patch), three rounds alternated; uniform rows (never split) as the reference.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
B="--m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --systems bsrflow_sm90,bsrflow_sm90_copy_probe"
for i in 1 2 3; do
  for f in 4 8 16 32; do
    for dt in f16 bf16; do
      [ $dt = bf16 ] && [ $f = 4 -o $f = 32 ] && continue
      BSRFLOW_EXP_SPLITF=$f timeout 100 $C/bsr_bench $B --pattern powerlaw --dtype $dt --json r${i}_pl_${dt}_f$f.json > /dev/null 2> r${i}_pl_${dt}_f$f.err
      echo "rc=$? r$i pl $dt f$f (${SECONDS}s)" >> runs.txt
    done
  done
  timeout 100 $C/bsr_bench $B --pattern uniform --dtype f16 --json r${i}_u_f16_f8.json > /dev/null 2> r${i}_u_f16_f8.err
  echo "rc=$? r$i u f16 (${SECONDS}s)" >> runs.txt
done
python3 - >> summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('r*_*.json'), key=lambda f: (f.split('_', 1)[1], f)):
    s = {r['system']: r for r in json.load(open(f)) if r.get('status') in ('ok', 'probe')}
    k = s['bsrflow_sm90']; p = s.get('bsrflow_sm90_copy_probe')
    print('%-22s %.4f ms %5.1f TF probe %5.1f k/p %.3f %s' % (f[:-5], k['ms'], k['eff_tflops'], p['eff_tflops'], k['eff_tflops'] / p['eff_tflops'], k['config']))
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt; grep -v "rc=0" $W/runs.txt | head
