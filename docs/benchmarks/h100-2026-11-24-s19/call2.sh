#!/bin/bash
# Session 19 call 2: the split-piece overhead (BSRFLOW_EXP_OS) and tail groups around call 1's
# best, 128 power-law; two rounds, interleaved (patches/exp_env.patch).
export LD_LIBRARY_PATH=$PWD/.carry/lib
B=$PWD/.carry/bsr_bench
W=/tmp/w2; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
run() {  # name block pattern env...
  local name=$1 block=$2 pattern=$3; shift 3
  env "$@" timeout 60 $B --m 8192 --n 8192 --k 8192 --block $block --density 0.125 --pattern $pattern --systems bsrflow_sm90 > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90' $W/ab/$name.md | awk -F'|' '{printf "%s %s;", $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2 3; do
  run u128_base_$i 128 uniform
  run p128_base_$i 128 powerlaw
  run p128_os4_$i 128 powerlaw BSRFLOW_EXP_OS=4
  run p128_os5_$i 128 powerlaw BSRFLOW_EXP_OS=5
  run p128_os6_$i 128 powerlaw BSRFLOW_EXP_OS=6
  run p128_ow2os5_$i 128 powerlaw BSRFLOW_EXP_OW=2 BSRFLOW_EXP_OS=5
  run p128_os4t4_$i 128 powerlaw BSRFLOW_EXP_OS=4 BSRFLOW_EXP_TAIL_GROUPS=4
  run p128_os4t2_$i 128 powerlaw BSRFLOW_EXP_OS=4 BSRFLOW_EXP_TAIL_GROUPS=2
  run p128_os4L24_$i 128 powerlaw BSRFLOW_EXP_OS=4 BSRFLOW_EXP_LIMIT=24
  run p64_base_$i 64 powerlaw
  run p64_os3_$i 64 powerlaw BSRFLOW_EXP_OS=3
  run p64_os4_$i 64 powerlaw BSRFLOW_EXP_OS=4
done
cd /tmp && tar czf $OUT/results.tgz w2
cat $W/summary.txt
