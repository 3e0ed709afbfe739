#!/bin/bash
# Session 27 call 16 (H100): the final build. Every GPU test, then compute-sanitizer (memcheck,
# racecheck, synccheck) on the small sm90 cases (every tuned block height, row groups included).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w16; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 420 $C/bsrflow_tests "[gpu]" > tests.log 2>&1
echo "rc=$? gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
cd /tmp && tar czf $OUT/results.tgz w16
grep -E "FAILED" -A4 $W/tests.log | head -40; cat $W/runs.txt
