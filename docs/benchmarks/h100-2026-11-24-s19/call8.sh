#!/bin/bash
# Session 19 call 9 (H100) / 8 (H200, TESTS=0) / 10 (H100, TESTS=0: call 9's suite ran on a GPU that
# slowed down during it, cuBLAS 878 -> 470 TFLOPS): the committed tree (equal tiles on fewer clusters,
# with the depth guard): [sm90][gpu], the three sanitizers on [sm90small] and on the new
# section, then the standard suite and the PyTorch peer.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w8; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
if [ "${TESTS:-1}" != 0 ]; then
  timeout 260 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
  CS=/usr/local/cuda/bin/compute-sanitizer
  for tool in memcheck racecheck synccheck; do
    timeout 150 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
    echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
    for sec in "cluster 0, block 16" "cluster 2, block 64"; do
      timeout 100 $CS --tool $tool --error-exitcode 9 $T "sm90 GEMM: the tuned plan is exact on hostile patterns" -c "$sec: rows of one length on a few clusters fewer" > "$W/san_${tool}_${sec// /_}.log" 2>&1
      echo "$tool '$sec: rows of one length' rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|assertions' "$W/san_${tool}_${sec// /_}.log" | tail -2 | tr '\n' ' ') (${SECONDS}s)" >> $W/summary.txt
    done
  done
fi
cd $W
timeout 260 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "bsr_bench standard rc=$? (${SECONDS}s)" >> summary.txt
timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
cd /tmp && tar czf $OUT/results.tgz w8
cat $W/summary.txt
