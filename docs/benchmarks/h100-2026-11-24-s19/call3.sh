#!/bin/bash
# Session 19 call 3: tile-count quantization. The bench's uniform cases have 2^k equal tiles
# (1024 at 128, 2048 at 64, 4096 at 32 / 16), which 66 pairs / 132 CTAs cannot share evenly
# (15 or 16 tiles per pair at 128; session 18 call 1's timers: the 16-tile pairs end ~10 us
# later). BSRFLOW_EXP_MAXCTAS (patches/exp_env.patch) plans for that many CTAs instead of the
# SM count: 128 divides the tiles evenly. Three rounds, interleaved; kernel and probe.
export LD_LIBRARY_PATH=$PWD/.carry/lib
B=$PWD/.carry/bsr_bench
W=/tmp/w3; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
run() {  # name block pattern density env...
  local name=$1 block=$2 pattern=$3 density=$4; shift 4
  env "$@" timeout 60 $B --m 8192 --n 8192 --k 8192 --block $block --density $density --pattern $pattern --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90' $W/ab/$name.md | awk -F'|' '{printf "%s %s;", $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2 3; do
  for c in "128 uniform 0.125" "64 uniform 0.125" "32 uniform 0.125" "16 uniform 0.125" "128 uniform 0.5" "128 powerlaw 0.125"; do
    set -- $c
    run u$1_$2_$3_sm_$i $1 $2 $3
    run u$1_$2_$3_c128_$i $1 $2 $3 BSRFLOW_EXP_MAXCTAS=128
  done
  run u128_uniform_0.125_c120_$i 128 uniform 0.125 BSRFLOW_EXP_MAXCTAS=120
done
cd /tmp && tar czf $OUT/results.tgz w3
cat $W/summary.txt
