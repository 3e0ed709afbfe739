#!/bin/bash
# Session 21 call 7 (H100): do the skinny kernel's mbarrier waits cost it time? patches/
# exp_skinny4.patch (call 4's switches on 91cff11, plus BSRFLOW_EXP_WAIT: 0 try_wait as landed,
# 1 test_wait spinning, 2 try_wait with a 100 ns suspend-time hint) as .carry/bsr_bench_exp4.
# As landed (checked) and with nothing but the hand-offs (BSRFLOW_EXP_SKINNY=8), two rounds.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; W=$OUT/w7; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
cases=("--m 4096 --n 16 --k 11008 --block 32 --density 0.25" "--m 4096 --n 16 --k 11008 --block 64 --density 0.25"
       "--m 11008 --n 16 --k 4096 --block 32 --density 0.5" "--m 4096 --n 64 --k 11008 --block 32 --density 0.25"
       "--m 11008 --n 16 --k 4096 --block 64 --density 0.25")
row() { grep 'bsrflow_skinny ' $1 | awk -F'|' '{print $2, $4, $5}'; }
for r in 1 2; do for i in 0 1 2 3 4; do for w in 0 1 2; do
  BSRFLOW_EXP_WAIT=$w timeout 20 $C/bsr_bench_exp4 ${cases[$i]} --systems bsrflow_skinny > $W/t.md 2>&1
  echo "r$r wait$w landed case $i rc=$?: $(row $W/t.md)" >> $W/summary.txt
  BSRFLOW_EXP_WAIT=$w BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKINNY=8 timeout 20 $C/bsr_bench_exp4 ${cases[$i]} --systems bsrflow_skinny > $W/t.md 2>&1
  echo "r$r wait$w handoffs-only case $i rc=$?: $(row $W/t.md)" >> $W/summary.txt
done; done; done
echo "(${SECONDS}s)" >> $W/summary.txt
rm -f $W/t.md
cat $W/summary.txt
