#!/usr/bin/env bash
# Session 17 call 7: split limits with the overlapped fix-up (BSRFLOW_EXP_SPLIT_LIMIT, throw-away).
export LD_LIBRARY_PATH=$PWD/.carry/lib
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
for r in 1 2; do
  for c in "128 def" "128 48" "128 24" "128 16" "128 12" "64 def" "64 128" "64 64" "64 32"; do set -- $c
    if [ $2 = def ]; then unset BSRFLOW_EXP_SPLIT_LIMIT; else export BSRFLOW_EXP_SPLIT_LIMIT=$2; fi
    .carry/bsr_bench --m 8192 --n 8192 --k 8192 --block $1 --density 0.125 --pattern powerlaw --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/lim_$1_$2_r$r.txt 2>&1
    echo "$1 limit $2 r$r: $(grep -E '^\| 8192' $W/lim_$1_$2_r$r.txt | awk -F'|' '{printf "%s %s %s |", $3, $5, $6}')"
  done
  unset BSRFLOW_EXP_SPLIT_LIMIT
  .carry/bsr_bench --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern uniform --systems bsrflow_sm90 > $W/uni_r$r.txt 2>&1
  echo "128 uniform r$r: $(grep -E '^\| 8192' $W/uni_r$r.txt | awk -F'|' '{printf "%s %s |", $5, $6}')"
done
cd $W && tar czf $OUT/results.tgz .
