#!/bin/bash
# Session 22 call 1: why bf16 runs 3.5-3.8% faster than f16 at 128 x 128 (perf_log entry 44).
# The binary is main (8f79fdc) + patches/exp_bf16_values.patch: BSRFLOW_EXP_BF16_VALUES=1 rounds
# the f16 random values to bf16's 8 significant bits (same distribution, fewer mantissa bits).
# 1) bsr_bench at 128 x 128, 12.5% and 100% (cuBLAS on random dense data), f16 / bf16 / f16 with
#    bf16 values, alternated twice; 2) sustained back-to-back runs (warm L2) with nvidia-smi sampling
#    SM clock and power every 25 ms.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; B=$C/bsr_bench
W=/tmp/w1; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi -q -d POWER,CLOCK > smi_q.txt 2>&1
SECONDS=0
note() { echo "$1 (${SECONDS}s)" >> summary.txt; }
CASE="--m 8192 --n 8192 --k 8192 --block 128"
run_variant() {  # name dtype env density systems extra
  local name=$1 dt=$2 envv=$3 d=$4 sys=$5; shift 5
  env $envv timeout 120 $B $CASE --density $d --dtype $dt --systems $sys "$@" --json $name.json > $name.md 2> $name.err
  note "$name rc=$?"
}
for r in 1 2; do
  for v in f16 bf16 f16b; do
    dt=$v; e=X=0; [ $v = f16b ] && { dt=f16; e=BSRFLOW_EXP_BF16_VALUES=1; }
    run_variant ${v}_d125_$r $dt $e 0.125 bsrflow_sm90,cublas_dense
    run_variant ${v}_d100_$r $dt $e 1.0 bsrflow_sm90,cublas_dense
  done
done
Q=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$Q --format=csv,noheader -lms 25 >/dev/null 2>&1 < /dev/null & P=$!; sleep 1; kill $P 2>/dev/null
nvidia-smi --query-gpu=$Q --format=csv,noheader 2>/dev/null | grep -q MHz || Q=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active
for v in f16 bf16 f16b; do
  dt=$v; e=X=0; [ $v = f16b ] && { dt=f16; e=BSRFLOW_EXP_BF16_VALUES=1; }
  for what in sm90_d125 cublas_d100; do
    sys=bsrflow_sm90; d=0.125; [ $what = cublas_d100 ] && { sys=cublas_dense; d=1.0; }
    nvidia-smi --query-gpu=$Q --format=csv,noheader -lms 25 > smi_${v}_$what.csv 2>&1 & P=$!
    run_variant sus_${v}_$what $dt $e $d $sys --iters 15000 --warmup 200 --no-cold-l2
    kill $P; wait $P 2>/dev/null
  done
done
cd /tmp && tar czf $OUT/results.tgz w1
cd $W; cat summary.txt
echo "== TFLOPS (system: per run)"
for f in *_d125_*.md *_d100_*.md sus_*.md; do
  echo "$f: $(grep -E '\| (bsrflow_sm90|cublas_dense) ' $f | awk -F'|' '{gsub(/ /,"",$3); gsub(/ /,"",$6); printf "%s %s  ", $3, $6}')"
done
echo "== sustained: median SM MHz, median W, samples with power > 300 W"
for f in smi_*.csv; do
  python3 - "$f" <<'PY'
import sys, statistics
rows=[l.split(',') for l in open(sys.argv[1]) if 'MHz' in l]
hot=[(float(r[1].split()[0]), float(r[3].split()[0]), r[5].strip()) for r in rows if float(r[3].split()[0]) > 300]
if hot:
    reasons={}
    for h in hot: reasons[h[2]]=reasons.get(h[2],0)+1
    print(sys.argv[1], 'n=%d sm=%.0f MHz power=%.0f W reasons=%s' % (len(hot), statistics.median(h[0] for h in hot), statistics.median(h[1] for h in hot), reasons))
else: print(sys.argv[1], 'no samples above 300 W of', len(rows))
PY
done
