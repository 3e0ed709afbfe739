#!/bin/bash
# Session 41 call 7 (H200). One binary, b_exp (ee03fb6 + patches/exp_signal_parts.patch: call 6's
# switches plus BSRFLOW_EXP_SPLIT=9 - the fix-up launched as usual but taking no item, and the GEMM
# sending no signals; =10 - correct results, each warpgroup's signal is one release by its issuer
# (bulk wait, proxy fence, red.release.gpu) instead of a __threadfence by all 128 threads, a named
# barrier, the issuer's wait, fence, __threadfence and atomicAdd; the barrier is kept where the
# partials are generic stores, i.e. swap-AB), run as e0 (main's path), e8 (stores only), e9, e10.
# Why: call 6 - launching the fix-up beside the GEMM and signalling costs 2.5% at 8192^3 power-law
# 128 (e7 -> e8), 8% at 4096^3, 2.2% at 64: which of the two?
# Prediction: e9 close to e8 (the signals are the cost: ~1-2 us of fences per split piece on the
# pairs' critical path); e10 +1.5-2% at 8192^3 128, +3-6% at 4096^3, +1-2% at 64, 0-1% at 32.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s41w7; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=300 AB_TIMEOUT_S=30 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_sm90"
ab_variant e0 b_exp BSRFLOW_EXP_SPLIT=0
ab_variant e8 b_exp BSRFLOW_EXP_SPLIT=8 BSRFLOW_EXP_NOCHECK=1
ab_variant e9 b_exp BSRFLOW_EXP_SPLIT=9 BSRFLOW_EXP_NOCHECK=1
ab_variant e10 b_exp BSRFLOW_EXP_SPLIT=10
S="--m 8192 --n 8192 --k 8192"
ab_case pl128 $S --block 128 --density 0.125 --pattern powerlaw
ab_case pl128s4k --m 4096 --n 4096 --k 4096 --block 128 --density 0.125 --pattern powerlaw
ab_case pl64 $S --block 64 --density 0.125 --pattern powerlaw
ab_case pl32 $S --block 32 --density 0.125 --pattern powerlaw
ab_run 3 e0 e10 e8 e9
ab_summary > summary.txt
rm -f b_*.json
echo "runs done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s41w7
grep -v "^rc=0 " $W/ab/runs.txt | head
cat $W/ab/summary.txt
