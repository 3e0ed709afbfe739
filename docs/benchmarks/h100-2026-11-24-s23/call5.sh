#!/bin/bash
# Session 23 call 5 (H100) / 6 (H200): the standard suite with bsr_bench's old warm-up (3 runs,
# --warmup-ms 0) and the new default (200 ms of the series' own load) in one call; then the
# PyTorch peer on the new suite and the skinny suite, for docs/benchmarks/<gpu>.*.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 100 $C/bsrflow_tests "[apps][gpu]" > apps_gpu.log 2>&1
echo "apps gpu tests rc=$? $(tail -3 apps_gpu.log | grep -E 'passed|failed') (${SECONDS}s)" >> summary.txt
timeout 150 $C/bsr_bench --suite standard --warmup-ms 0 --json old_warmup.json > old_warmup.md 2> old_warmup.err
echo "standard, --warmup-ms 0: rc=$? (${SECONDS}s)" >> summary.txt
timeout 240 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard, default warm-up: rc=$? (${SECONDS}s)" >> summary.txt
python3 $C/compare_warmup.py old_warmup.json $GPU.json >> summary.txt 2>&1
timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
timeout 150 $C/bsr_bench --suite skinny --json $GPU-skinny.json > $GPU-skinny.md 2> skinny.err
echo "skinny rc=$? (${SECONDS}s)" >> summary.txt
python3 $C/summ.py $GPU.json >> summary.txt 2>&1
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
awk '/## Autotuning/,0' $W/$GPU.md | tail -4
