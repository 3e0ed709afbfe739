#!/bin/bash
# Session 17 calls 8-9: the split fix-up overlapped with the GEMM kernel: tests, sanitizers, A/B
# against 0f568a7 (bsr_bench_old), standard suite + PyTorch peer; OTHER=1 adds [gpu]~[sm90]~[soak].
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
timeout 240 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 150 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
  echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
done
run() {  # name bin block pattern
  timeout 60 $2 --m 8192 --n 8192 --k 8192 --block $3 --density 0.125 --pattern $4 --systems bsrflow_sm90 > $W/ab/$1.md 2>$W/ab/$1.err
  echo "$1: $(grep -E '\| bsrflow_sm90 ' $W/ab/$1.md | awk -F'|' '{print $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do for v in old new; do
  bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
  for c in "128 powerlaw" "128 uniform" "64 powerlaw" "32 powerlaw" "16 powerlaw"; do set -- $c; run ${v}_$1_$2_$i $bin $1 $2; done
done; done
cd $W
timeout 200 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "bsr_bench standard rc=$? (${SECONDS}s)" >> summary.txt
timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
if [ "${OTHER:-0}" = 1 ]; then
  timeout 150 $T "[gpu]~[sm90]~[soak]" > $W/tests_other.log 2>&1; echo "[gpu]~[sm90]~[soak] rc=$? $(tail -2 $W/tests_other.log | head -1) (${SECONDS}s)" >> $W/summary.txt
fi
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
