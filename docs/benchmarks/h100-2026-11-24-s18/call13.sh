#!/bin/bash
# Session 18 call 13 (H100) / 14 (H200): the standard suite and the PyTorch peer with the per-height
# tile costs; on the H200 also the A/B against main (bsr_bench_old), three rounds.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w13; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
if [ "${AB:-0}" = 1 ]; then
  for i in 1 2 3; do for v in old new; do
    bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
    for c in "128 powerlaw" "128 uniform" "64 powerlaw"; do set -- $c
      timeout 60 $bin --m 8192 --n 8192 --k 8192 --block $1 --density 0.125 --pattern $2 --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/ab/${v}_$1_$2_$i.md 2>&1
      echo "${v}_$1_$2_$i: $(grep -E '\| bsrflow_sm90' $W/ab/${v}_$1_$2_$i.md | awk -F'|' '{printf "%s %s %s;", $3, $5, $6}') (${SECONDS}s)" >> $W/summary.txt
    done
  done; done
fi
cd $W
timeout 260 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "bsr_bench standard rc=$? (${SECONDS}s)" >> summary.txt
timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
cd /tmp && tar czf $OUT/results.tgz w13
cat $W/summary.txt
