#!/bin/bash
# Session 37 call 9 (H200, diagnosis): calls 7-8 timed every variant of patches/exp_skip_n64*.patch
# 10-40% slower than the suite's figures for the same cases. The patch adds a few instructions per
# stage to the lane producer (the expect-tx count, per-lane conditions). Is the experiment's base
# slower than HEAD (f8cc903's code), i.e. does the producer's instruction path pace N = 64, 32 x 32?
# Two rounds, f16, skinny kernel only; HEAD's result is checked, the experiment's base is correct
# too (no skip).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w9; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=200 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
for mk in "4096 11008" "11008 4096"; do for d in 25 50; do
  ab_case "m${mk% *}n64b32d${d}" --m "${mk% *}" --n 64 --k "${mk#* }" --block 32 --density 0.$d
done; done
ab_case m4096n16b32d50 --m 4096 --n 16 --k 11008 --block 32 --density 0.50
ab_run 2 bsr_bench_head bsr_bench_exp
ab_summary > summary.txt
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w9
grep -v "^rc=0 " $W/runs.txt | head
cat $W/summary.txt
