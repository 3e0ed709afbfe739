#!/bin/bash
# Session 19 call 1: long-row pieces and tail pieces at 128 / 64 power-law, re-swept after the
# tile-cost change (entry 37), through a throw-away environment override in gemm_plan.cu
# (patches/exp_env.patch): BSRFLOW_EXP_LIMIT (longest ordinary piece), BSRFLOW_EXP_TAIL_LIMIT /
# _GROUPS (the tail pieces), BSRFLOW_EXP_OW / _OS (tile overheads). Two rounds, interleaved.
export LD_LIBRARY_PATH=$PWD/.carry/lib
B=$PWD/.carry/bsr_bench
W=/tmp/w1; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
run() {  # name block pattern env...
  local name=$1 block=$2 pattern=$3; shift 3
  env "$@" timeout 60 $B --m 8192 --n 8192 --k 8192 --block $block --density 0.125 --pattern $pattern --systems bsrflow_sm90 > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90' $W/ab/$name.md | awk -F'|' '{printf "%s %s;", $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do
  run u128_base_$i 128 uniform
  run p128_base_$i 128 powerlaw
  run p128_L16_$i 128 powerlaw BSRFLOW_EXP_LIMIT=16
  run p128_L16_t8_$i 128 powerlaw BSRFLOW_EXP_LIMIT=16 BSRFLOW_EXP_TAIL_LIMIT=8 BSRFLOW_EXP_TAIL_GROUPS=2
  run p128_L24_$i 128 powerlaw BSRFLOW_EXP_LIMIT=24
  run p128_L40_$i 128 powerlaw BSRFLOW_EXP_LIMIT=40
  run p128_L64_$i 128 powerlaw BSRFLOW_EXP_LIMIT=64
  run p128_t8_$i 128 powerlaw BSRFLOW_EXP_TAIL_LIMIT=8
  run p128_t0_$i 128 powerlaw BSRFLOW_EXP_TAIL_GROUPS=0
  run p128_t6_$i 128 powerlaw BSRFLOW_EXP_TAIL_GROUPS=6
  run p128_o14_$i 128 powerlaw BSRFLOW_EXP_OS=4
  run p128_o03_$i 128 powerlaw BSRFLOW_EXP_OW=0
  run p64_base_$i 64 powerlaw
  run p64_L32_$i 64 powerlaw BSRFLOW_EXP_LIMIT=32
  run p64_L64_$i 64 powerlaw BSRFLOW_EXP_LIMIT=64
  run p64_t0_$i 64 powerlaw BSRFLOW_EXP_TAIL_GROUPS=0
  run p64_t16_$i 64 powerlaw BSRFLOW_EXP_TAIL_LIMIT=16
done
cd /tmp && tar czf $OUT/results.tgz w1
cat $W/summary.txt
