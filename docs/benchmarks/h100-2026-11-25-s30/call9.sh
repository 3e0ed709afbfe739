#!/bin/bash
# Session 30 call 9 (H100): the review's epilogue dispatch refactor (one dispatch for both orientations,
# has_tma_epilogue; the SASS moved): the sm90 and row-group GPU tests, memcheck and racecheck on
# [sm90small], and 16 x 16 / 32 x 32 12.5% uniform against call 7's suite figures (another unit).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w9; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 300 $C/bsrflow_tests "[sm90],[rowgroup]" > tests.log 2>&1
echo "rc=$? sm90/rowgroup gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
for b in 16 32; do
  timeout 40 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block $b --density 0.125 \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense > b$b.md 2> b$b.err
  echo "rc=$? bench $b (${SECONDS}s)" >> runs.txt
done
cd /tmp && tar czf $OUT/results.tgz w9
cat $W/runs.txt; grep -h "bsrflow_sm90\|cublas" $W/b16.md $W/b32.md | cut -c1-150; grep -E "FAILED" -A6 $W/tests.log | head -30
