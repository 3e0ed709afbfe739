#!/bin/bash
# Session 29 call 6 (H100): the standard suite and the PyTorch peer on main's code (e4ab819, the fresh-clone CI build)
# for docs/benchmarks/nvidia-h100-80gb-hbm3.* (the H100 keeps one row-group item per stage; the file was at 3479bdb).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w6; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 300 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "standard (burst) rc=$? (${SECONDS}s)" >> runs.txt
timeout 100 python3 $R/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> runs.txt
cd /tmp && tar czf $OUT/results.tgz w6
cat $W/runs.txt; grep -E "bsrflow_sm90  " $W/$GPU.md | cut -c1-200
