#!/bin/bash
# Session 21 call 4 (H100): what the skinny kernel's time at N = 16 is made of. patches/
# exp_skinny3.patch as .carry/bsr_bench_exp3. BSRFLOW_EXP_SKINNY: 0 as landed; 5 no loads; 6 split
# pieces write their partial tiles and stop (no ticket, no row sum; call 3's version of it left the
# A boxes out while still expecting their bytes, and hung); 7 = 5 + 6; 8 = 7 with no math (the
# consumers only wait and release). BSRFLOW_EXP_WARM: L2 not flushed before timed runs.
# BSRFLOW_EXP_PER_SM: pieces planned for that many CTAs per SM (landed 3), alternated with 0.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; W=$OUT/w4; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
cases=("--m 4096 --n 16 --k 11008 --block 32 --density 0.25" "--m 4096 --n 16 --k 11008 --block 64 --density 0.25"
       "--m 11008 --n 16 --k 4096 --block 32 --density 0.5" "--m 4096 --n 64 --k 11008 --block 32 --density 0.25"
       "--m 11008 --n 16 --k 4096 --block 64 --density 0.25" "--m 11008 --n 64 --k 4096 --block 32 --density 0.25")
row() { grep 'bsrflow_skinny ' $1 | awk -F'|' '{print $2, $4, $5, $12}'; }
run() {  # label, env..., case index
  local label=$1 i=${@: -1}; shift
  env "${@:1:$#-1}" timeout 20 $C/bsr_bench_exp3 ${cases[$i]} --systems bsrflow_skinny > $W/${label}_c$i.md 2>&1
  echo "$label case $i rc=$?: $(row $W/${label}_c$i.md) (${SECONDS}s)" >> $W/summary.txt
}
for i in 0 1 2 3; do
  run exp0 BSRFLOW_EXP_SKINNY=0 $i
  for e in 6 5 7 8; do run exp$e BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKINNY=$e $i; done
  run warm_exp0 BSRFLOW_EXP_WARM=1 BSRFLOW_EXP_SKINNY=0 $i
  for e in 5 8; do run warm_exp$e BSRFLOW_EXP_WARM=1 BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKINNY=$e $i; done
done
for rep in 1 2 3; do for i in 0 1 2 3 4 5; do
  run per_sm3_r$rep BSRFLOW_EXP_SKINNY=0 $i
  run per_sm2_r$rep BSRFLOW_EXP_PER_SM=2 $i
done; done
echo "(${SECONDS}s)" >> $W/summary.txt
cat $W/summary.txt
