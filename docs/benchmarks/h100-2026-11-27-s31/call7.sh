#!/bin/bash
# Session 31 call 7 (H100): the review's change to build_row_groups (its plan-time kernels launched through
# detail::elementwise_grid with grid-stride loops instead of a local grid helper): the row-group GPU tests
# (device builder against the host rule, exact GEMMs) and memcheck on [sm90small],[rowgroup].
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w7; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 120 $C/bsrflow_tests "[rowgroup]" > tests.log 2>&1
echo "rc=$? rowgroup gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $C/bsrflow_tests "[sm90small],[rowgroup]" > san_memcheck.log 2>&1
echo "rc=$? sanitizer memcheck (${SECONDS}s): $(grep -E 'ERROR SUMMARY' san_memcheck.log | tail -1)" >> runs.txt
cd /tmp && tar czf $OUT/results.tgz w7
cat $W/runs.txt; grep -E "FAILED" -A6 $W/tests.log | head -30
