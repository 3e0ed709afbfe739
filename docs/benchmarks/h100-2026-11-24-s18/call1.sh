#!/usr/bin/env bash
# Session 18 call 1: per-tile timing (globaltimer after each tile's main loop and epilogue, rank 0's
# and 1's first consumer warpgroup) of 128 / 64 uniform and power-law runs, kernel and probe.
export LD_LIBRARY_PATH=$PWD/.carry/lib
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
for b in 128 64; do for pat in uniform powerlaw; do for sys in bsrflow_sm90 bsrflow_sm90_copy_probe; do
  [ $b = 64 ] && [ $sys = bsrflow_sm90_copy_probe ] && continue
  BSRFLOW_EXP_PROF=6 BSRFLOW_EXP_PROF_FILE=$W/t_${b}_${pat}_${sys}.csv .carry/bsr_bench --m 8192 --n 8192 --k 8192 --block $b --density 0.125 --pattern $pat --systems $sys > $W/b_${b}_${pat}_${sys}.txt 2>&1
  echo "$b $pat $sys: $(head -1 $W/t_${b}_${pat}_${sys}.csv)"
  grep -E '^\| 8192' $W/b_${b}_${pat}_${sys}.txt | awk -F'|' '{printf "    %s %s\n", $5, $6}'
done; done; done
cd $W && tar czf $OUT/results.tgz .
