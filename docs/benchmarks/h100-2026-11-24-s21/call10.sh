#!/bin/bash
# Session 21 call 10 (H100): call 9 showed the producer taking ~0.8 us per stage with nothing to
# load (e8) and free slots: the consumers' waits may be taking its issue slots. patches/
# exp_skinny7.patch as .carry/bsr_bench_exp7: BSRFLOW_EXP_WAIT 0 as landed; 3 try_wait with a
# 1 ms suspend-time hint; 5 only consumer warp 0 waits on the full barrier, the other seven on a
# named barrier. Landed (checked) and hand-offs only (e8), two rounds; timers for modes 0 / 5.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; W=/tmp/w10; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
cases=("--m 4096 --n 16 --k 11008 --block 32 --density 0.25" "--m 4096 --n 16 --k 11008 --block 64 --density 0.25"
       "--m 11008 --n 16 --k 4096 --block 32 --density 0.5" "--m 4096 --n 64 --k 11008 --block 32 --density 0.25"
       "--m 11008 --n 16 --k 4096 --block 64 --density 0.25")
row() { grep 'bsrflow_skinny ' $1 | awk -F'|' '{print $2, $4, $5}'; }
for r in 1 2; do for i in 0 1 2 3 4; do for w in 0 3 5; do
  BSRFLOW_EXP_WAIT=$w timeout 20 $C/bsr_bench_exp7 ${cases[$i]} --systems bsrflow_skinny > $W/t.md 2>&1
  echo "r$r wait$w landed case $i rc=$?: $(row $W/t.md)" >> $W/summary.txt
  BSRFLOW_EXP_WAIT=$w BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKINNY=8 timeout 20 $C/bsr_bench_exp7 ${cases[$i]} --systems bsrflow_skinny > $W/t.md 2>&1
  echo "r$r wait$w handoffs-only case $i rc=$?: $(row $W/t.md)" >> $W/summary.txt
done; done; done
for w in 0 5; do for i in 0 2; do
  BSRFLOW_EXP_WAIT=$w BSRFLOW_EXP_TIMERS=$W/timers_w${w}_c$i.txt timeout 30 $C/bsr_bench_exp7 ${cases[$i]} --systems bsrflow_skinny > $W/t.md 2>&1
  BSRFLOW_EXP_WAIT=$w BSRFLOW_EXP_TIMERS=$W/timers_w${w}_c${i}_e8.txt BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKINNY=8 timeout 30 $C/bsr_bench_exp7 ${cases[$i]} --systems bsrflow_skinny > $W/t.md 2>&1
done; done
echo "(${SECONDS}s)" >> $W/summary.txt
rm -f $W/t.md
cd /tmp && tar czf $OUT/results.tgz w10
cat $W/summary.txt
