#!/bin/bash
# Session 25 call 1 (H100): 128 x 128 blocks at swath 384 (two consumer warpgroups of 64 x 384,
# 192 accumulators each; 32-deep chunks, 6 stages). BSRFLOW_EXP_SW384=1 makes it the tuned plan
# (kernel and probe); --sm90-configs swath256_direct runs today's configuration in the same
# process. Also: every instantiated configuration exact ([sm90]); main's bsr_bench (5b52bb6)
# against this build at 16 / 64 (the producer no longer holds the next tile's record).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 240 $C/bsrflow_tests "[sm90]" > t_sm90.log 2>&1
echo "[sm90] rc=$? $(tail -3 t_sm90.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
timeout 150 compute-sanitizer --tool memcheck $C/bsrflow_tests "[sm90small]" > san_memcheck.log 2>&1
echo "memcheck sm90small rc=$? $(grep -E 'ERROR SUMMARY' san_memcheck.log | tail -1) (${SECONDS}s)" >> summary.txt
B="--m 8192 --n 8192 --k 8192 --systems bsrflow_sm90,bsrflow_sm90_copy_probe"
for i in 1 2; do
  for cs in "uniform 0.125 f16" "powerlaw 0.125 f16" "uniform 0.5 f16" "uniform 0.125 bf16"; do
    set -- $cs
    for e in 0 1; do
      if [ $e = 1 ]; then export BSRFLOW_EXP_SW384=1; else unset BSRFLOW_EXP_SW384; fi
      timeout 100 $C/bsr_bench $B --block 128 --density $2 --pattern $1 --dtype $3 \
        --sm90-configs swath256_direct --json r${i}_e${e}_$1_$2_$3.json > /dev/null 2> r${i}_e${e}_$1_$2_$3.err
      echo "rc=$? r$i e$e $1 $2 $3 (${SECONDS}s)" >> runs.txt
    done
  done
  unset BSRFLOW_EXP_SW384
  for blk in 16 64; do
    for bin in main new; do
      exe=$C/bsr_bench; [ $bin = main ] && exe=$C/main_bsr_bench
      timeout 100 $exe $B --block $blk --density 0.125 --pattern uniform --dtype f16 --json p${i}_${bin}_$blk.json > /dev/null 2> p${i}_${bin}_$blk.err
      echo "rc=$? p$i $bin $blk (${SECONDS}s)" >> runs.txt
    done
  done
done
python3 - >> summary.txt <<'PY'
import json, glob
def recs(f):
    return {r['system']: r for r in json.load(open(f)) if r.get('status') in ('ok', 'probe')}
for f in sorted(glob.glob('r*_*.json')):
    s = recs(f)
    k = s.get('bsrflow_sm90'); p = s.get('bsrflow_sm90_copy_probe')
    o = [r for n, r in s.items() if 'swath256' in n]
    o = o[0] if o else None
    print('%-34s tuned %s %.4f ms %.0f TF (probe %.0f, k/p %.3f) | swath256 %.4f ms %.0f TF | tuned/256 %.3f' % (
        f[:-5], k['config'], k['ms'], k['eff_tflops'], p['eff_tflops'] if p else 0, k['eff_tflops'] / p['eff_tflops'] if p else 0,
        o['ms'] if o else 0, o['eff_tflops'] if o else 0, k['eff_tflops'] / o['eff_tflops'] if o else 0))
for f in sorted(glob.glob('p*_*.json')):
    s = recs(f)
    k = s.get('bsrflow_sm90'); p = s.get('bsrflow_sm90_copy_probe')
    print('%-20s %s %.4f ms %.1f TF probe %.1f' % (f[:-5], k['config'], k['ms'], k['eff_tflops'], p['eff_tflops'] if p else 0))
PY
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt; grep -v "rc=0" $W/runs.txt | head
