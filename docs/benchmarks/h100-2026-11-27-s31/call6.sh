#!/bin/bash
# Session 31 call 6 (H100): the committed tree after the review's restructuring of build_row_groups (one
# count pass per grouping, one synchronisation): the row-group GPU tests (device builder against the host
# rule, exact GEMMs), memcheck on [sm90small],[rowgroup], and one checked bsr_bench case (16 x 16 power-law).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w6; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 120 $C/bsrflow_tests "[rowgroup]" > tests.log 2>&1
echo "rc=$? rowgroup gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $C/bsrflow_tests "[sm90small],[rowgroup]" > san_memcheck.log 2>&1
echo "rc=$? sanitizer memcheck (${SECONDS}s): $(grep -E 'ERROR SUMMARY' san_memcheck.log | tail -1)" >> runs.txt
timeout 40 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 16 --density 0.125 --pattern powerlaw \
  --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense > pl16.md 2>&1
echo "rc=$? bench pl16 (${SECONDS}s)" >> runs.txt
cd /tmp && tar czf $OUT/results.tgz w6
cat $W/runs.txt; grep -E "bsrflow_sm90|cublas" $W/pl16.md | cut -c1-130; grep -E "FAILED" -A6 $W/tests.log | head -30
