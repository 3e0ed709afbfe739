#!/bin/bash
# Session 37 call 7 (H200, diagnosis): what B's slices cost at N = 64 with 32 x 32 blocks, where
# cuBLAS dense is level (part 4). patches/exp_skip_n64.patch on f8cc903 (lane producer only),
# results wrong and unchecked (BSRFLOW_EXP_NOCHECK): base; noB - no B slices; noA - no A blocks;
# b75 - B for 3 of 4 blocks (the -25% of B's bytes that two rows over the union of their columns
# would save at 50% density). Three rounds, f16.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w7; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=300 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
ab_variant base bsr_bench_exp BSRFLOW_EXP_NOCHECK=1
ab_variant noB bsr_bench_exp BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKIP=1
ab_variant noA bsr_bench_exp BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKIP=2
ab_variant b75 bsr_bench_exp BSRFLOW_EXP_NOCHECK=1 BSRFLOW_EXP_SKIP=4
for mk in "4096 11008" "11008 4096"; do for d in 25 50; do
  ab_case "m${mk% *}n64b32d${d}" --m "${mk% *}" --n 64 --k "${mk#* }" --block 32 --density 0.$d
done; done
ab_run 3 base noB noA b75
ab_summary > summary.txt
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w7
grep -v "^rc=0 " $W/runs.txt | head
cat $W/summary.txt
