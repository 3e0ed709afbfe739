#!/bin/bash
# Session 33 call 5 (H200): the final tree (epilogue chunks swizzled, perf_log entry 55): every
# [sm90] / [rowgroup] GPU test, memcheck / racecheck / synccheck on [sm90small], then the
# standard suite and the PyTorch peer (docs/benchmarks/<gpu>.*).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w5; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 260 $C/bsrflow_tests "[sm90],[rowgroup]" > tests.log 2>&1
echo "rc=$? sm90 / rowgroup tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
timeout 150 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard suite rc=$? (${SECONDS}s)" >> runs.txt
[ $SECONDS -lt 530 ] && { timeout 50 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1; echo "torch_peer rc=$? (${SECONDS}s)" >> runs.txt; }
cd /tmp && tar czf $OUT/results.tgz w5
cat $W/runs.txt
grep -E "FAILED" -A6 $W/tests.log | head -30
