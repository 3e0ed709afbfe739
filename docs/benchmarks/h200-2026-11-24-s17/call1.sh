#!/usr/bin/env bash
# Session 17 call 1: the 128 kernel on this GPU: base vs no epilogue vs consumer warpgroup 1 staggered.
export LD_LIBRARY_PATH=$PWD/.carry/lib
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $W/clocks.txt
T=.carry/bsrflow_tests
run() {  # tag experiment density
  BSRFLOW_EXPERIMENT=$2 BSRFLOW_SM90BENCH_BLOCKS=128 BSRFLOW_SM90BENCH_DENSITY=$3 $T "[.sm90bench]" > $W/$1.log 2>&1
  echo "== $1 (exp $2, density $3)"; grep -E "\[tuned|probe =|cublas dense|copy_only.*pair|kc64.*pair" $W/$1.log | sed -e 's/plan *[0-9.]* ms//'
}
for r in 1 2; do
  for e in 0 1 32 64 96; do run e${e}_r$r $e 0.125; done
done
run e0_d50 0 0.5
run e1_d50 1 0.5
run e64_d50 64 0.5
cd $W && tar czf $OUT/results.tgz .
