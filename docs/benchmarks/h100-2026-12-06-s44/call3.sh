#!/bin/bash
# Session 44 call 3 (H100): compute-sanitizer racecheck on tests/gpu_machine.sh's default racecheck
# set (170 test cases: the GPU tests but the slow sm90 / apps sets, the soak, the API-error test and
# the conditional-loop ones, plus [sm90small]), which no session has completed (s43 call 10 stopped
# after 59). --durations yes records each test case's time, so a second call can run what is left.
# Prediction: no hazard; the set needs more than one call's 600 s (s43: 59 cases in ~90 s, but the
# ops tests later in the order launch far more kernels).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/s44w3; rm -rf $W; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
timeout 570 compute-sanitizer --tool racecheck --error-exitcode 99 $C/bsrflow_tests \
  '[gpu]~[sm90]~[apps]~[soak]~[provokes-api-errors]~[pcg]~[conditional-loop],[sm90small]' \
  --durations yes > $W/sanitize_racecheck.log 2>&1
echo "racecheck rc=$? (${SECONDS}s): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $W/sanitize_racecheck.log | tail -1)" | tee $W/runs.txt
echo "test cases timed: $(grep -cE '^[0-9]+\.[0-9]+ s: ' $W/sanitize_racecheck.log)"
grep -E "hazard|Hazard|FAILED" $W/sanitize_racecheck.log | sort | uniq -c | head -20
tail -6 $W/sanitize_racecheck.log
cd /tmp && gzip -9 $W/sanitize_racecheck.log && cp -r $W $OUT/
