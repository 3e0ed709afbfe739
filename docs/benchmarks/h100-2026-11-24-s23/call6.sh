#!/bin/bash
# Session 23 call 6 (H200) / 7 (H100): the standard suite (burst, the default) + PyTorch peer and
# the skinny suite for docs/benchmarks/<gpu>.*; on the H200 also the sustained regime
# (--warmup-ms 200) compared with the burst suite of the same call.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 150 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard (burst) rc=$? (${SECONDS}s)" >> summary.txt
timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
timeout 100 $C/bsr_bench --suite skinny --json $GPU-skinny.json > $GPU-skinny.md 2> skinny.err
echo "skinny rc=$? (${SECONDS}s)" >> summary.txt
python3 $C/summ.py $GPU.json >> summary.txt 2>&1
if [ "${SUSTAINED:-0}" = 1 ]; then
  timeout 240 $C/bsr_bench --suite standard --warmup-ms 200 --json sustained.json > sustained.md 2> sustained.err
  echo "standard (sustained, 200 ms) rc=$? (${SECONDS}s)" >> summary.txt
  python3 $C/compare_warmup.py $GPU.json sustained.json >> summary.txt 2>&1
  python3 $C/summ.py sustained.json >> summary.txt 2>&1
fi
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
