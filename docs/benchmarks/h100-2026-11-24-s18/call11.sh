#!/bin/bash
# Session 18 call 11: main's kernels with the new staircase test: [sm90][gpu], memcheck on the
# staircase section, and the standard 128 / 64 cases.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
timeout 260 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 $T "sm90 GEMM: the tuned plan is exact on hostile patterns" -c "cluster 2, block 64: rows of every length, whole and split" > $W/san_memcheck_staircase.log 2>&1
echo "memcheck staircase (cluster 2, block 64) rc=$? $(grep -E 'ERROR SUMMARY' $W/san_memcheck_staircase.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
