#!/bin/bash
# Session 41 call 8 (H200). Binaries: a_main (ee03fb6), b_signal (this tree: the split signal as one
# release by the issuer - perf_log entry 63 part 3, call 7's e10 as a change).
# 1. `[sm90],[rowgroup]` GPU tests; memcheck / racecheck / synccheck on `[sm90small]` (b_signal's tests).
# 2. A/B: the power-law cases with split rows (128 f16 / bf16, 128 at 4096^3 and at 25%, 64, 32,
#    16) and 128 uniform (no split: control), three rounds.
# Prediction (call 7): 128 power-law +0.3%, 4096^3 +1.5%, the rest within 0.5%, uniform 1.000.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s41w8; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
AB_CHECKS_TIMEOUT_S=330 ab_gpu_checks $W "[sm90],[rowgroup]" "[sm90small]"
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=200 AB_TIMEOUT_S=30 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_sm90"
S="--m 8192 --n 8192 --k 8192"
ab_case pl128 $S --block 128 --density 0.125 --pattern powerlaw
ab_case pl128bf $S --block 128 --density 0.125 --pattern powerlaw --dtype bf16
ab_case pl128s4k --m 4096 --n 4096 --k 4096 --block 128 --density 0.125 --pattern powerlaw
ab_case pl128d25 $S --block 128 --density 0.25 --pattern powerlaw
ab_case pl64 $S --block 64 --density 0.125 --pattern powerlaw
ab_case pl32 $S --block 32 --density 0.125 --pattern powerlaw
ab_case pl16 $S --block 16 --density 0.125 --pattern powerlaw
ab_case u128 $S --block 128 --density 0.125
ab_run 3 a_main b_signal
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s41w8
grep -v "^rc=0 " $W/ab/runs.txt | head
cat $W/ab/summary.txt
