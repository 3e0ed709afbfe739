#!/bin/bash
# Session 34 call 1 (H200): the tail's last swath group with its own piece list at 75% of the tail
# limit at R = 128 (perf_log entry 56). Prediction (model of entry 55's timers, /work's sim):
# 128 power-law 8192^3 12.5% f16 and bf16 +2.5%, 25% +2.5%; 4096^3 12.5% +5%, 25% +5.5%;
# controls unchanged (128 uniform: no split rows; 64 power-law: tail_final_percent(64) = 100).
# 1. bsr_bench, main (05291a0) against this tree, three alternated rounds (tests/ab_bench.sh).
# 2. [sm90][gpu] tests (device schedule vs host twin with three lists); memcheck / racecheck /
#    synccheck on [sm90small].
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
TREE=$PWD
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w1; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> device.txt
SECONDS=0
AB_BIN_DIR=$C AB_BUDGET_S=300
ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case bpl128 --block 128 --density 0.125 --pattern powerlaw --dtype bf16
ab_case pl128d25 --block 128 --density 0.25 --pattern powerlaw
ab_case u128 --block 128 --density 0.125
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_run 3 bsr_bench_main bsr_bench
ALL_TAGS=("${AB_TAGS[@]}")
AB_TAGS=()
AB_COMMON="--m 4096 --n 4096 --k 4096"
ab_case s4pl128 --block 128 --density 0.125 --pattern powerlaw
ab_case s4pl128d25 --block 128 --density 0.25 --pattern powerlaw
ab_run 3 bsr_bench_main bsr_bench
AB_TAGS=("${ALL_TAGS[@]}" "${AB_TAGS[@]}")
ab_summary > summary.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
cd $TREE
BSRFLOW_GPU_BIN=/tmp/carry BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_TAR=0 BSRFLOW_GPU_SANITIZE_TAGS="[sm90small]" OUT=$W/checks \
  timeout 250 bash tests/gpu_machine.sh run "[sm90][gpu]" > $W/checks.log 2>&1
echo "rc=$? gpu_machine.sh run [sm90][gpu] (${SECONDS}s)" >> $W/runs.txt
cd /tmp && tar czf $OUT/results.tgz w1
grep -v "^rc=0 [a-z0-9]* bsr_bench" $W/runs.txt
grep -v cublas $W/summary.txt
tail -n 15 $W/checks.log
