#!/usr/bin/env bash
# Session 17 call 5: CTA end-time spread (globaltimer per CTA, BSRFLOW_EXP_PROF=k prints the k-th run
# of the process) and fix-up time, 128 and 64, uniform vs power-law, kernel and probe.
export LD_LIBRARY_PATH=$PWD/.carry/lib
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
for b in 128 64; do for pat in uniform powerlaw; do for sys in bsrflow_sm90 bsrflow_sm90_copy_probe; do for r in 1 2; do
  BSRFLOW_EXP_PROF=6 .carry/bsr_bench --m 8192 --n 8192 --k 8192 --block $b --density 0.125 --pattern $pat --systems $sys > $W/p_${b}_${pat}_${sys}_$r.txt 2>&1
  echo "$b $pat $sys r$r: $(grep '^prof' $W/p_${b}_${pat}_${sys}_$r.txt)"
  grep -E '^\| 8192' $W/p_${b}_${pat}_${sys}_$r.txt | awk -F'|' '{printf "    %s %s\n", $5, $6}'
done; done; done; done
cd $W && tar czf $OUT/results.tgz .
