#!/bin/bash
# Session 34 call 5 (H200): split rows summed inside the GEMM kernel (sm90_split_reduce.cuh:
# idle producer warps from the start, every warp once its tile list is done; the fix-up kernel is
# gone; perf_log entry 56). Prediction: 128 power-law +2-4% (call 4: the fix-up summed 60% of its
# rows after the GEMM's last CTA; the run ends ~9 us after it), bf16 alike, 64 power-law +0.5-1%
# (its tail ~2.5 us), 32 / 16 power-law 0-2%, uniform 0 (no split rows).
# 1. [sm90],[rowgroup] GPU tests; memcheck / racecheck / synccheck on [sm90small].
# 2. bsr_bench 8192^3 12.5%, main (05291a0) against this tree, three alternated rounds.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
TREE=$PWD
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w5; mkdir -p $W
cd $TREE
BSRFLOW_GPU_BIN=/tmp/carry BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_TAR=0 BSRFLOW_GPU_SANITIZE_TAGS="[sm90small]" OUT=$W/checks \
  timeout 300 bash tests/gpu_machine.sh run "[sm90],[rowgroup]" > $W/checks.log 2>&1
echo "rc=$? gpu_machine.sh run [sm90],[rowgroup] (${SECONDS}s)" >> $W/runs.txt
source tests/ab_bench.sh
cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> device.txt
AB_BIN_DIR=$C AB_BUDGET_S=540
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case bpl128 --block 128 --density 0.125 --pattern powerlaw --dtype bf16
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_case pl32 --block 32 --density 0.125 --pattern powerlaw
ab_case pl16 --block 16 --density 0.125 --pattern powerlaw
ab_case u128 --block 128 --density 0.125
ab_run 3 bsr_bench_main bsr_bench
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd /tmp && tar czf $OUT/results.tgz w5
grep -v "^rc=0 [a-z0-9]* bsr_bench" $W/runs.txt
grep -v cublas $W/summary.txt
tail -n 6 $W/checks.log
grep -E "FAILED" -A8 $W/checks/gpu_tests.log | head -40
