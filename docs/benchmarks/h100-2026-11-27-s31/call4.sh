#!/bin/bash
# Session 31 call 4 (H200): the final tree (sorted row groups only for the one-item 16 x 16 kernel, so the H200's
# _g4x2 plans keep consecutive groups): the row-group GPU tests, memcheck on [sm90small],[rowgroup], then the
# standard suite and the PyTorch peer for docs/benchmarks/nvidia-h200.*.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w4; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 200 $C/bsrflow_tests "[rowgroup]" > tests.log 2>&1
echo "rc=$? rowgroup gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $C/bsrflow_tests "[sm90small],[rowgroup]" > san_memcheck.log 2>&1
echo "rc=$? sanitizer memcheck (${SECONDS}s): $(grep -E 'ERROR SUMMARY' san_memcheck.log | tail -1)" >> runs.txt
timeout 150 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard (burst) rc=$? (${SECONDS}s)" >> runs.txt
timeout 50 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1; echo "torch_peer rc=$? (${SECONDS}s)" >> runs.txt
cd /tmp && tar czf $OUT/results.tgz w4
cat $W/runs.txt
grep -E "bsrflow_sm90  |copy_probe|cublas" $W/$GPU.md | grep -E "16x16 12.5% (uniform|powerlaw) f16  |32x32 12.5% powerlaw f16  " | cut -c1-120
grep -E "FAILED" -A6 $W/tests.log | head -30
