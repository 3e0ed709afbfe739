#!/bin/bash
# Session 24 call 1 (H100): 64 x 64 blocks with swath 512 (each consumer warpgroup 64 x 256, as at
# R = 128; CTA pairs: 1024-column swath groups), 32- or 16-deep chunks, against the tuned swath
# 256 / 64-deep chunks. Throw-away switch BSRFLOW_EXP_R64=<kc> (patches/exp_r64_sw512.patch).
# Correctness first: every instantiated configuration, then the tuned-plan tests with the switch.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 200 $C/bsrflow_tests "sm90 GEMM: every instantiated configuration is exact against the reference" > t_all.log 2>&1
echo "every configuration rc=$? $(tail -3 t_all.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
for kc in 32 16; do
  BSRFLOW_EXP_R64=$kc timeout 120 $C/bsrflow_tests "sm90 GEMM: the tuned plan is exact on hostile patterns" > t_hostile_$kc.log 2>&1
  echo "hostile with R64 sw512 kc$kc rc=$? $(tail -3 t_hostile_$kc.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
  BSRFLOW_EXP_R64=$kc timeout 120 $C/bsrflow_tests "sm90 GEMM: random data against fp64, bitwise repeatable" > t_rand_$kc.log 2>&1
  echo "fp64 with R64 sw512 kc$kc rc=$? $(tail -3 t_rand_$kc.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
done
for i in 1 2; do
  for cs in "uniform 0.125" "powerlaw 0.125" "uniform 0.5"; do
    set -- $cs
    for v in off 32 16; do
      sys=bsrflow_sm90,bsrflow_sm90_copy_probe; [ $v = off ] && sys=$sys,cublas_dense
      env=""; [ $v != off ] && env="BSRFLOW_EXP_R64=$v"
      env $env timeout 100 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 64 --density $2 --pattern $1 --systems $sys --json r${i}_$1_$2_$v.json > /dev/null 2> r${i}_$1_$2_$v.err
      echo "rc=$? r$i $1 $2 $v (${SECONDS}s)" >> runs.txt
    done
  done
done
python3 - >> summary.txt <<'PY'
import json, glob
rows = []
for f in sorted(glob.glob('r*_*.json')):
    recs = json.load(open(f))
    s = {r['system']: r for r in recs if r.get('status') in ('ok', 'probe')}
    k = s.get('bsrflow_sm90'); p = s.get('bsrflow_sm90_copy_probe'); c = s.get('cublas_dense')
    print('%-32s kernel %s %.4f ms %.0f TFLOPS | probe %.0f | of probe %.3f %s' % (
        f[:-5], k['config'] if k else '-', k['ms'] if k else 0, k['eff_tflops'] if k else 0,
        p['eff_tflops'] if p else 0, k['eff_tflops'] / p['eff_tflops'] if k and p else 0,
        '| cuBLAS %.0f' % c['eff_tflops'] if c else ''))
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt; cat $W/runs.txt | grep -v "rc=0" | head
