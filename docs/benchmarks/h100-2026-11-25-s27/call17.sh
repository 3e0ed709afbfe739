#!/bin/bash
# Session 27 call 17 (H100): after moving the fp64 checks into one helper (check_dtypes_against_fp64)
# and the Hopper skip into tests/support/gpu.hpp: the tests that changed, and the sm90 small case.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w17; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 300 $C/bsrflow_tests "[rowgroup],[sm90small],sm90 GEMM: random data against fp64*,skinny GEMM: random data against fp64*,sm90 GEMM: the tuned plan is exact on hostile patterns" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
cd /tmp && tar czf $OUT/results.tgz w17
grep -E "FAILED" -A4 $W/tests.log | head -30; cat $W/runs.txt
