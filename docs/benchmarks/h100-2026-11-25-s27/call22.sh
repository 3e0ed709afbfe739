#!/bin/bash
# Session 27 call 22 (H100): the density rule for row groups (16 x 16 from 12%, 32 x 32 from 24%).
# The sm90, row-group, apps and graph GPU tests; compute-sanitizer memcheck on the small sm90 cases.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w22; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 400 $C/bsrflow_tests "[sm90][gpu]~[tuning],[rowgroup],[apps][gpu],[graph][gpu]" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_memcheck.log 2>&1
echo "rc=$? sanitizer memcheck (${SECONDS}s): $(grep -E 'ERROR SUMMARY' san_memcheck.log | tail -1)" >> runs.txt
cd /tmp && tar czf $OUT/results.tgz w22
grep -E "FAILED" -A4 $W/tests.log | head -30; cat $W/runs.txt
