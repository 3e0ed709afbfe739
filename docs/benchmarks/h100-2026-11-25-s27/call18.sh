#!/bin/bash
# Session 27 calls 18 (H100) and 19 (H200): the standard suite (burst) and the PyTorch peer for
# docs/benchmarks/<gpu>.*, with 16 x 16 row groups the planner's choice (f4747bb and later).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w18; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 300 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard (burst) rc=$? (${SECONDS}s)" >> summary.txt
timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
python3 $C/summ_tables.py $GPU.json >> summary.txt 2>&1
cd /tmp && tar czf $OUT/results.tgz w18
cat $W/summary.txt
