#!/bin/bash
# Session 19 call 6 (H200) / 7 (H100): 97620be's bsr_bench (.carry/bsr_bench_old) against this one
# (equal tiles on fewer clusters), three rounds, with the short-tile cases (3% density) and
# non-square blocks; then the standard suite and the PyTorch peer with this binary. SUITE=0 skips
# the suite, AB=0 the A/B.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w6; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
run() {  # name bin block pattern density
  timeout 60 $2 --m 8192 --n 8192 --k 8192 --block $3 --density $5 --pattern $4 --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/ab/$1.md 2>$W/ab/$1.err
  echo "$1: $(grep -E '\| bsrflow_sm90' $W/ab/$1.md | awk -F'|' '{printf "%s %s %s;", $3, $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
if [ "${AB:-1}" = 1 ]; then
  for i in 1 2 3; do for v in old new; do
    bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
    for c in "128 uniform 0.125" "64 uniform 0.125" "32 uniform 0.125" "16 uniform 0.125" "128 uniform 0.5" "128 uniform 0.03" \
             "32 uniform 0.03" "32 uniform 0.5" "64x16 uniform 0.125" "16x64 uniform 0.125" "128 powerlaw 0.125"; do
      set -- $c; run ${v}_$1_$2_$3_$i $bin $1 $2 $3
    done
  done; done
fi
if [ "${SUITE:-1}" = 1 ]; then
  cd $W
  timeout 260 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
  echo "bsr_bench standard rc=$? (${SECONDS}s)" >> summary.txt
  timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
  echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
fi
cd /tmp && tar czf $OUT/results.tgz w6
cat $W/summary.txt
