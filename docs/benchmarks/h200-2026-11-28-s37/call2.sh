#!/bin/bash
# Session 37 call 2 (H200): both suites re-measured with the flush that leaves no dirty line (20e7b2c,
# perf_log entry 59), for docs/benchmarks/nvidia-h200.{json,csv,md} and nvidia-h200-skinny.json;
# the PyTorch peer on the standard suite. Before them the `[core]` and `[apps]` GPU tests (the
# apps time with the flusher).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w2; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
timeout 150 $C/bsrflow_tests "[core][gpu],[apps][gpu]" > $W/tests.log 2>&1
echo "rc=$? core / apps GPU tests (${SECONDS}s): $(tail -n 3 $W/tests.log | grep -E 'passed|failed' | tr -s ' ')" | tee -a $W/runs.txt
cd $W
GPU=nvidia-h200
timeout 170 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard suite rc=$? (${SECONDS}s)" | tee -a runs.txt
timeout 60 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1; echo "torch_peer rc=$? (${SECONDS}s)" | tee -a runs.txt
timeout 200 $C/bsr_bench --suite skinny --json $GPU-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)" | tee -a runs.txt
cd /tmp && tar czf $OUT/results.tgz w2
grep -E "FAILED" -A6 $W/tests.log | head -20
