#!/bin/bash
# Session 16 call 11 (H100): the fix-up kernel with 4 rows per thread (8 reads in flight): tests, memcheck/racecheck, A/B against HEAD (ec461e8's kernels), ncu
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
timeout 240 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 150 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
  echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
done
run() {  # name bin block pattern
  local name=$1 bin=$2 b=$3 pat=$4
  timeout 60 $bin --m 8192 --n 8192 --k 8192 --block $b --density 0.125 --pattern $pat --systems bsrflow_sm90 > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90 ' $W/ab/$name.md | awk -F'|' '{print $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2 3; do
  for v in head fix4; do
    for b in 128 64 32 16; do run ${v}_${b}_$i $C/bsr_bench_$v $b powerlaw; done
  done
done
for v in head fix4; do
  /usr/local/cuda/bin/ncu --kernel-name regex:"split_fixup" --launch-skip 2 --launch-count 1 --metrics gpu__time_duration.sum,dram__bytes_read.sum $C/bsr_bench_$v --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern powerlaw --systems bsrflow_sm90 --iters 2 --warmup 1 > $W/ncu_$v.txt 2>&1
  echo "== ncu $v 128: $(grep -E 'duration|bytes' $W/ncu_$v.txt | tr -s ' ' | tr '\n' ' ')" >> $W/summary.txt
  /usr/local/cuda/bin/ncu --kernel-name regex:"split_fixup" --launch-skip 2 --launch-count 1 --metrics gpu__time_duration.sum,dram__bytes_read.sum $C/bsr_bench_$v --m 8192 --n 8192 --k 8192 --block 64 --density 0.125 --pattern powerlaw --systems bsrflow_sm90 --iters 2 --warmup 1 > $W/ncu64_$v.txt 2>&1
  echo "== ncu $v 64: $(grep -E 'duration|bytes' $W/ncu64_$v.txt | tr -s ' ' | tr '\n' ' ')" >> $W/summary.txt
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
