#!/bin/bash
# Session 16 calls 12-13: 16 x 16 blocks default to swath 1024 (all dtypes and B layouts): tests, sanitizers, A/B against HEAD before (ec461e8's kernels), standard suite + PyTorch peer, other GPU tests
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
run() {  # name bin block pattern dtype blayout
  local name=$1 bin=$2
  timeout 60 $bin --m 8192 --n 8192 --k 8192 --block $3 --density 0.125 --pattern $4 --dtype $5 --b-layout $6 --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90 ' $W/ab/$name.md | awk -F'|' '{print $5, $6}') probe $(grep -E 'copy_probe' $W/ab/$name.md | awk -F'|' '{print $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do
  for v in old new; do
    bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_head
    run ${v}_16_uniform_f16_$i $bin 16 uniform f16 row
    run ${v}_16_powerlaw_f16_$i $bin 16 powerlaw f16 row
    run ${v}_16_uniform_bf16_$i $bin 16 uniform bf16 row
    run ${v}_16_uniform_f16_bcol_$i $bin 16 uniform f16 col
  done
done
cd $W
timeout 200 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "bsr_bench standard rc=$? (${SECONDS}s)" >> summary.txt
timeout 120 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
timeout 150 $T "[gpu]~[sm90]~[soak]" > $W/tests_other.log 2>&1; echo "[gpu]~[sm90]~[soak] rc=$? $(tail -2 $W/tests_other.log | head -1) (${SECONDS}s)" >> $W/summary.txt
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
