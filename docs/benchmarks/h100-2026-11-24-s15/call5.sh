#!/bin/bash
# Session 15 call 5: bsr_bench standard suite + PyTorch peer on the committed binaries
export LD_LIBRARY_PATH=$PWD/.carry/lib
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 480 $OLDPWD/.carry/bsr_bench --suite standard --json nvidia-h100-80gb-hbm3.json --csv nvidia-h100-80gb-hbm3.csv > nvidia-h100-80gb-hbm3.md 2> bsr_bench.err
echo "bsr_bench rc=$? ${SECONDS}s" | tee summary.txt
timeout 100 python3 $OLDPWD/.carry/torch_peer.py nvidia-h100-80gb-hbm3.json > torch_peer.log 2>&1
echo "torch_peer rc=$? ${SECONDS}s" | tee -a summary.txt
cd /tmp && tar czf $OUT/results.tgz w
grep -E "128x128|64x64" $W/nvidia-h100-80gb-hbm3.md | head -20
