#!/bin/bash
# Session 44 call 4 (H100): finish the default racecheck set and run synccheck on it.
# Call 3's racecheck was stopped by its 570 s limit inside "dot and nrm2 ... - double" (the one
# failure in its log is the SIGTERM; no hazard in 159 finished test cases). Left: that test case
# and the ten after it in Catch's order, all in tests/ops/test_vector_ops.cpp. Then synccheck on
# the whole default set (s43 call 10, H200: 170 test cases clean).
# Prediction: no hazard, no barrier error; racecheck remainder < 200 s, synccheck ~250 s.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/s44w4; rm -rf $W; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
LEFT='dot and nrm2 are exact on integer data and independent of alignment - double,dot and nrm2 with a workspace smaller than the preferred grid*,dot on real data*,dot and nrm2 of nothing are 0*,a KernelLaunch with device scalars reads them at every launch*,vector ops are capturable into a CUDA graph*'
SECONDS=0
timeout 260 compute-sanitizer --tool racecheck --error-exitcode 99 $C/bsrflow_tests "$LEFT" \
  --durations yes > $W/sanitize_racecheck_rest.log 2>&1
echo "racecheck (rest) rc=$? (${SECONDS}s): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $W/sanitize_racecheck_rest.log | tail -1) | $(grep -E '^test cases' $W/sanitize_racecheck_rest.log | tail -1)" | tee $W/runs.txt
SECONDS=0
timeout 300 compute-sanitizer --tool synccheck --error-exitcode 99 $C/bsrflow_tests \
  '[gpu]~[sm90]~[apps]~[soak]~[provokes-api-errors]~[pcg]~[conditional-loop],[sm90small]' \
  > $W/sanitize_synccheck.log 2>&1
echo "synccheck rc=$? (${SECONDS}s): $(grep -E 'ERROR SUMMARY' $W/sanitize_synccheck.log | tail -1) | $(grep -E '^test cases' $W/sanitize_synccheck.log | tail -1)" | tee -a $W/runs.txt
grep -hE "hazard|Hazard|Barrier error|FAILED" $W/*.log | sort | uniq -c | head -20
tail -4 $W/sanitize_racecheck_rest.log $W/sanitize_synccheck.log
cd /tmp && gzip -9 $W/*.log && cp -r $W $OUT/
