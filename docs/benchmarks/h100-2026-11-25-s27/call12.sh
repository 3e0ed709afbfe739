#!/bin/bash
# Session 27 call 12 (H100): wgmma descriptors built once for stage 0 and advanced by the stage offset
# (after call 11). The hidden sm90 benchmark at every block size twice, the sm90 GPU tests and the row-group
# tests, compute-sanitizer on the small sm90 and row-group cases; the SASS of the 16 x 16 row-group
# kernel.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w12; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
for i in 1 2; do
  BSRFLOW_SM90BENCH_BLOCKS=16,32,64,128 timeout 200 $C/bsrflow_tests "[.sm90bench]" > sm90bench$i.log 2>&1
  echo "rc=$? sm90bench $i (${SECONDS}s)" >> runs.txt
done
timeout 400 $C/bsrflow_tests "[sm90][gpu]~[tuning],[rowgroup]" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
cuobjdump -sass -fun _ZN7bsrflow4sm9015bsr_gemm_kernelINS0_12KernelTraitsI6__halfLi16ELi16ELi512ELb1ELb0ELb0ELi4EEEEEvNS0_10GemmParamsE $C/bsrflow_tests > sass_g16.txt 2>&1
cd /tmp && tar czf $OUT/results.tgz w12
grep -hE "^block" $W/sm90bench*.log | grep -E "tuned\]|_g4|_copy " | sed -E 's/plan +[0-9.]+ ms +//; s/ \(min.*\) / /'; grep -E "FAILED" -A3 $W/tests.log | head -30; cat $W/runs.txt
