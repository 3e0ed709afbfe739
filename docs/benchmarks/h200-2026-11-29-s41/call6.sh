#!/bin/bash
# Session 41 call 6 (H200). One binary, b_exp (ee03fb6 + patches/exp_fixup_parts.patch: call 5's
# switches plus BSRFLOW_EXP_SPLIT=7 - the fix-up kernel is launched as usual (PDL) and the GEMM
# signals as usual, but the fix-up takes no item: no waits, no sums, C's split rows not written;
# =8 - partial tiles stored, no signals, no fix-up launch), run as e0 (main's path), e3 (no
# stores, no signals, no fix-up), e7, e8. e3 / e7 / e8 give wrong results (check skipped).
# Why: calls 2-5 - stores + fix-up cost 9-10% at 8192^3 (22% at 4096^3), the stores ~3%; removing
# the late (tail) split tiles gained only 1.2% (e6), and entry 61's spare SMs for the fix-up
# nothing, so neither the late signals nor the fix-up's throughput seem to be the rest.
# Question: is the rest the fix-up's work (reads of the partials beside the GEMM's last tiles)
# (e0 -> e7), its launch beside the GEMM and the signals (e7 -> e8), or the stores (e8 -> e3)?
# Prediction: e7 +4-5% at 8192^3 (the fix-up's reads beside the last tiles), e8 a further +1-2%.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s41w6; rm -rf $W; mkdir -p $W/ab
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W/ab
AB_BIN_DIR=$C AB_BUDGET_S=300 AB_TIMEOUT_S=30 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_sm90"
ab_variant e0 b_exp BSRFLOW_EXP_SPLIT=0
ab_variant e3 b_exp BSRFLOW_EXP_SPLIT=3 BSRFLOW_EXP_NOCHECK=1
ab_variant e7 b_exp BSRFLOW_EXP_SPLIT=7 BSRFLOW_EXP_NOCHECK=1
ab_variant e8 b_exp BSRFLOW_EXP_SPLIT=8 BSRFLOW_EXP_NOCHECK=1
S="--m 8192 --n 8192 --k 8192"
ab_case pl128 $S --block 128 --density 0.125 --pattern powerlaw
ab_case pl128s4k --m 4096 --n 4096 --k 4096 --block 128 --density 0.125 --pattern powerlaw
ab_case pl64 $S --block 64 --density 0.125 --pattern powerlaw
ab_run 3 e0 e3 e7 e8
ab_summary > summary.txt
rm -f b_*.json
echo "runs done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz s41w6
grep -v "^rc=0 " $W/ab/runs.txt | head
cat $W/ab/summary.txt
