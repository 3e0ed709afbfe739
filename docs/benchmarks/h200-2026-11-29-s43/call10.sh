#!/bin/bash
# Session 43 call 10 (H200): the default sanitizer runs of tests/gpu_machine.sh (memcheck, synccheck,
# racecheck on the GPU tests but the slow ones, plus [sm90small]) with the session's final
# bsrflow_tests, now that synccheck and racecheck also leave out [conditional-loop].
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
SECONDS=0
BSRFLOW_GPU_BIN=/tmp/carry BSRFLOW_GPU_TESTS=0 BSRFLOW_GPU_BENCH=0 OUT=$OUT/s43w10 timeout 340 bash tests/gpu_machine.sh run > $OUT/run.log 2>&1
echo "rc=$? (${SECONDS}s)"; tail -8 $OUT/run.log
