#!/bin/bash
# Session 21 call 3 (H100): the skinny kernel at N = 16, continued. patches/exp_skinny2.patch as
# .carry/bsr_bench_exp2 (call 2's switches plus: BSRFLOW_EXP_SKINNY = 5 no loads at all; 6 split
# pieces write their partial tiles and stop (no ticket, no row sum); BSRFLOW_EXP_PER_SM = CTAs
# per SM the pieces are planned for, landed 3 - a real plan, checked). The first try of this
# call hung past 400 s with nothing written (its logs were under /tmp): the logs now go straight
# to $OUT, every run has 20 s, one repetition, the no-load variant last.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; W=$OUT/w3; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
cases=("--m 4096 --n 16 --k 11008 --block 32 --density 0.25" "--m 4096 --n 16 --k 11008 --block 64 --density 0.25"
       "--m 11008 --n 16 --k 4096 --block 32 --density 0.5" "--m 4096 --n 64 --k 11008 --block 32 --density 0.25")
row() { grep 'bsrflow_skinny ' $1 | awk -F'|' '{print $2, $4, $5, $12}'; }
rep=1
run() {  # label, env..., case index
  local label=$1 i=${@: -1}; shift
  env "${@:1:$#-1}" timeout 20 $C/bsr_bench_exp2 ${cases[$i]} --systems bsrflow_skinny > $W/${label}_c$i.md 2>&1
  echo "$label case $i rc=$?: $(row $W/${label}_c$i.md) (${SECONDS}s)" >> $W/summary.txt
}
for i in 0 1 2 3; do run exp0 BSRFLOW_EXP_SKINNY=0 $i; done
for k in 1 2 4 6; do for i in 0 1 2 3; do run per_sm$k BSRFLOW_EXP_PER_SM=$k $i; done; done
for i in 0 1 2 3; do run exp6 BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKINNY=6 $i; done
for i in 0 1 2 3; do run exp5 BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKINNY=5 $i; done
echo "(${SECONDS}s)" >> $W/summary.txt
cat $W/summary.txt
