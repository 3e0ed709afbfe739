#!/bin/bash
# Session 42 call 7 (H200): both bsr_bench suites on main (7846876: bsr_bench with cublas_dense_random; library code = 7dfa60d: session
# 41's split signal and fix-up output, not in session 39's files) for docs/benchmarks/nvidia-h200.*:
# the standard suite (+ the PyTorch BSR peer), then the skinny suite, on one unit.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/s42w7; rm -rf $W; mkdir -p $W
cd $W
nvidia-smi -L > device.txt; nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv >> device.txt; cat device.txt
SECONDS=0
GPU=nvidia-h200
timeout 240 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard suite rc=$? (${SECONDS}s)" | tee -a runs.txt
timeout 60 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1; echo "torch_peer rc=$? (${SECONDS}s)" | tee -a runs.txt
timeout 150 $C/bsr_bench --suite skinny --json $GPU-skinny.json > skinny_suite.md 2> skinny_suite.err
echo "skinny suite rc=$? (${SECONDS}s)" | tee -a runs.txt
cd /tmp && tar czf $OUT/results.tgz s42w7
grep -c "| ok" $W/$GPU.md; grep -ci "wrong" $W/$GPU.md
