#!/bin/bash
# Session 22 call 3 (H100) / 4 (H200): the standard suite + PyTorch peer with 950d34d's binaries
# (tuned vs heuristic in alternating pairs, the tuner's confirmation round), for
# docs/benchmarks/<gpu>.{json,csv,md}.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w3; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 300 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "bsr_bench standard rc=$? (${SECONDS}s)" >> summary.txt
timeout 120 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
cd /tmp && tar czf $OUT/results.tgz w3
cat $W/summary.txt
awk '/## Autotuning/,0' $W/$GPU.md | tail -4
