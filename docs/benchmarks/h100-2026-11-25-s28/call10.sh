#!/bin/bash
# Session 28 call 10 (H100): main's code at the end of the session (879b575: 3479bdb's consumer and the
# 8% / 15% row-group rule): every GPU test and the three sanitizers on the small sm90 and row-group cases.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=/tmp/carry; mkdir -p $C; gunzip -c $R/bsrflow_tests.gz > $C/bsrflow_tests; chmod +x $C/bsrflow_tests
W=/tmp/w10; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 400 $C/bsrflow_tests "[gpu]" > tests.log 2>&1
echo "rc=$? gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  tags="[sm90small]"; [ $tool = memcheck ] && tags="[sm90small],[rowgroup]"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "$tags" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
cd /tmp && tar czf $OUT/results.tgz w10
grep -E "FAILED" -A4 $W/tests.log | head -30; cat $W/runs.txt
