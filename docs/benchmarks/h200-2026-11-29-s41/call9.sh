#!/bin/bash
# Session 41 call 9 (H200). Binaries: b_signal (c0afe3b), c_fixvec (this tree: the split fix-up
# stores four adjacent row-major outputs as one vector - and reads them so for beta != 0 - with
# the epilogue's load4_as_float / store4_from_float instead of four scalar accesses; a new
# [sm90] check of row-major C with beta != 0 on split rows, f32 and bf16 out).
# 1. `[sm90],[rowgroup]` GPU tests; memcheck / racecheck / synccheck on `[sm90small]` (c_fixvec's tests).
# 2. A/B: 128 power-law 8192^3 and 4096^3, 64 and 32 power-law, two rounds.
# Prediction: +0.3-1% at 128 power-law (4x fewer store requests for the split rows' C, beside
# the GEMM's last tiles), +0.5-2% at 4096^3, 64 / 32 within 0.5%.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s41w9; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
AB_CHECKS_TIMEOUT_S=300 ab_gpu_checks $W "[sm90],[rowgroup]" "[sm90small]"
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_TIMEOUT_S=30 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_sm90"
S="--m 8192 --n 8192 --k 8192"
ab_case pl128 $S --block 128 --density 0.125 --pattern powerlaw
ab_case pl128s4k --m 4096 --n 4096 --k 4096 --block 128 --density 0.125 --pattern powerlaw
ab_case pl64 $S --block 64 --density 0.125 --pattern powerlaw
ab_case pl32 $S --block 32 --density 0.125 --pattern powerlaw
ab_run 3 b_signal c_fixvec
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s41w9
grep -v "^rc=0 " $W/ab/runs.txt | head
cat $W/ab/summary.txt
