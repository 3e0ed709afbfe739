#!/bin/bash
# Session 21 call 2 (H100): what bounds the skinny kernel at N = 16 (diagnosis). A throw-away
# build (patches/exp_skinny.patch, plus bsr_bench's check skipped under BSRFLOW_EXP_NOCHECK) as
# .carry/bsr_bench_exp: BSRFLOW_EXP_SKINNY = 0 as landed; 1 no B loads; 2 no A loads; 3 A as one
# 1-D bulk copy per stage (no swizzle: wrong results) + B boxes; 4 A bulk only. Times only.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; W=/tmp/w2; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
cases=("--m 4096 --n 16 --k 11008 --block 32 --density 0.25" "--m 4096 --n 16 --k 11008 --block 64 --density 0.25"
       "--m 11008 --n 16 --k 4096 --block 32 --density 0.5" "--m 4096 --n 64 --k 11008 --block 32 --density 0.25")
timeout 60 $C/bsr_bench_exp ${cases[0]} --systems bsrflow_skinny > $W/check_exp0.md 2>&1
echo "exp0 checked: $(grep 'bsrflow_skinny ' $W/check_exp0.md | awk -F'|' '{print $4, $5}')" >> $W/summary.txt
for rep in 1 2; do for e in 0 1 2 3 4; do for i in 0 1 2 3; do
  BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKINNY=$e timeout 60 $C/bsr_bench_exp ${cases[$i]} --systems bsrflow_skinny > $W/r${rep}_e${e}_c$i.md 2>&1
  echo "rep $rep exp $e case $i: $(grep 'bsrflow_skinny ' $W/r${rep}_e${e}_c$i.md | awk -F'|' '{print $2, $5, $12}')" >> $W/summary.txt
done; done; done
echo "(${SECONDS}s)" >> $W/summary.txt
cd /tmp && tar czf $OUT/results.tgz w2
cat $W/summary.txt
