#!/bin/bash
# Session 42 call 8 (H200): every GPU test but the soak on main (8208065's binaries: library code of
# 7dfa60d, bsr_bench with cublas_dense_random), one process; the log under $OUT.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
nvidia-smi -L | tee $OUT/device.txt
SECONDS=0
timeout 520 $C/bsrflow_tests "[gpu]~[soak]" --durations yes > $OUT/gpu_tests.log 2>&1
echo "rc=$? [gpu]~[soak] (${SECONDS}s): $(tail -n 3 $OUT/gpu_tests.log | grep -E 'passed|failed' | tr -s ' ')" | tee $OUT/summary.txt
grep -B2 -A10 "FAILED" $OUT/gpu_tests.log | head -40
