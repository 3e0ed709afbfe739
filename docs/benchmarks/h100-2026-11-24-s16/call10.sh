#!/bin/bash
# Session 16 calls 10-11: split and tail limits with TMA-stored partial tiles (temporary env overrides in bsr_bench_exp; HEAD otherwise)
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
run() {  # name block pattern [env...]
  local name=$1 b=$2 pat=$3; shift 3
  timeout 60 env "$@" $C/bsr_bench_exp --m 8192 --n 8192 --k 8192 --block $b --density 0.125 --pattern $pat --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90 ' $W/ab/$name.md | awk -F'|' '{print $5, $6}') probe $(grep -E 'copy_probe' $W/ab/$name.md | awk -F'|' '{print $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do
  run default_128_$i 128 powerlaw X=1
  run split16_128_$i 128 powerlaw BSRFLOW_EXP_SPLIT_LIMIT=16
  run split16_tail8_128_$i 128 powerlaw BSRFLOW_EXP_SPLIT_LIMIT=16 BSRFLOW_EXP_TAIL_LIMIT=8
  run tail8_128_$i 128 powerlaw BSRFLOW_EXP_TAIL_LIMIT=8
  run tailgroups6_128_$i 128 powerlaw BSRFLOW_EXP_TAIL_GROUPS=6
  run tailgroups0_128_$i 128 powerlaw BSRFLOW_EXP_TAIL_GROUPS=0
  run split64_128_$i 128 powerlaw BSRFLOW_EXP_SPLIT_LIMIT=64
  run uniform_128_$i 128 uniform X=1
  run default_64_$i 64 powerlaw X=1
  run split16_64_$i 64 powerlaw BSRFLOW_EXP_SPLIT_LIMIT=16
  run tailgroups0_64_$i 64 powerlaw BSRFLOW_EXP_TAIL_GROUPS=0
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
