#!/bin/bash
# Session 21 call 9 (H100): call 8 with per-stage marks (patches/exp_skinny6.patch: 40 timers per CTA;
# 8 + s: the first consumer thread has stage s's data, 24 + s: the producer has stage s's slot; call
# 7's switches plus BSRFLOW_EXP_TIMERS=FILE: %globaltimer per CTA at entry (0), after the
# prologue barrier (1), the producer after its first stage's loads (2), the first stage's data
# in (3), the main loop done (4), the C write or the ticket done (5), the row sum done (6); the
# file holds the last run, one after an L2 flush) as .carry/bsr_bench_exp6.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; W=/tmp/w9; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
cases=("--m 4096 --n 16 --k 11008 --block 32 --density 0.25" "--m 4096 --n 16 --k 11008 --block 64 --density 0.25"
       "--m 11008 --n 16 --k 4096 --block 32 --density 0.5" "--m 4096 --n 64 --k 11008 --block 32 --density 0.25"
       "--m 11008 --n 16 --k 4096 --block 64 --density 0.25")
row() { grep 'bsrflow_skinny ' $1 | awk -F'|' '{print $2, $4, $5}'; }
for i in 0 2; do
  BSRFLOW_EXP_TIMERS=$W/timers_c$i.txt timeout 30 $C/bsr_bench_exp6 ${cases[$i]} --systems bsrflow_skinny > $W/c$i.md 2>&1
  echo "landed case $i rc=$?: $(row $W/c$i.md)" >> $W/summary.txt
done
for i in 0 2; do
  BSRFLOW_EXP_TIMERS=$W/timers_c${i}_e8.txt BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKINNY=8 timeout 30 $C/bsr_bench_exp6 ${cases[$i]} --systems bsrflow_skinny > $W/c${i}_e8.md 2>&1
  echo "handoffs-only case $i rc=$?: $(row $W/c${i}_e8.md)" >> $W/summary.txt
done
echo "(${SECONDS}s)" >> $W/summary.txt
cat $W/summary.txt
cd /tmp && tar czf $OUT/results.tgz w9
