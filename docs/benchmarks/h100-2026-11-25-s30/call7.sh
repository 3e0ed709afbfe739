#!/bin/bash
# Session 30 calls 7 (H100) and 8 (H200): main's code with the swap-AB TMA-store epilogue and the new row-group
# densities (77b7465): every GPU test, the three sanitizers on [sm90small] (memcheck also on [rowgroup]), then the
# standard suite and the PyTorch peer for docs/benchmarks/<gpu>.*.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w7; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 300 $C/bsrflow_tests "[gpu]" > tests.log 2>&1
echo "rc=$? gpu tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
for tool in memcheck racecheck synccheck; do
  tags="[sm90small]"; [ $tool = memcheck ] && tags="[sm90small],[rowgroup]"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/bsrflow_tests "$tags" > san_$tool.log 2>&1
  echo "rc=$? sanitizer $tool (${SECONDS}s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' san_$tool.log | tail -1)" >> runs.txt
done
timeout 200 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard (burst) rc=$? (${SECONDS}s)" >> runs.txt
timeout 80 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> runs.txt
cd /tmp && tar czf $OUT/results.tgz w7
cat $W/runs.txt; grep -E "bsrflow_sm90  |copy_probe|cublas" $W/$GPU.md | grep -E "uniform f16  |powerlaw f16|bf16  " | cut -c1-150 | head -60; grep -E "FAILED" -A6 $W/tests.log | head -30
