#!/bin/bash
# Session 23 call 10 (H100) / 11 (H200): the standard suite (burst, the default) + PyTorch peer and
# the skinny suite for docs/benchmarks/<gpu>.* with the rested default (--rest-ms 200), and the apps GPU tests
# first.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 120 $C/bsrflow_tests "[apps][gpu]" > apps_gpu.log 2>&1
echo "apps gpu tests rc=$? $(tail -3 apps_gpu.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
timeout 200 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard (burst) rc=$? (${SECONDS}s)" >> summary.txt
timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
timeout 150 $C/bsr_bench --suite skinny --json $GPU-skinny.json > $GPU-skinny.md 2> skinny.err
echo "skinny rc=$? (${SECONDS}s)" >> summary.txt
python3 $C/summ.py $GPU.json >> summary.txt 2>&1
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
