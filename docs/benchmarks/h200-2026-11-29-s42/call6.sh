#!/bin/bash
# Session 42 call 6 (H200): bsr_bench's new cublas_dense_random system (cuBLAS on random dense data
# of A's shape, beside cublas_dense on the densified A). `[apps][gpu]` (the quick suite with every
# system, now including it), then the 12.5% uniform and power-law 128 x 128 cases and the
# 12.5% uniform 16 / 32 / 64 ones with the plan and both dense rates.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/s42w6; rm -rf $W; mkdir -p $W
cd $W
nvidia-smi -L > device.txt; cat device.txt
SECONDS=0
timeout 200 $C/bsrflow_tests "[apps][gpu]" > tests.log 2>&1
echo "rc=$? [apps][gpu] (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" | tee -a runs.txt
S="--m 8192 --n 8192 --k 8192 --systems bsrflow_sm90,cublas_dense,cublas_dense_random"
for b in 16 32 64 128; do
  timeout 60 $C/bsr_bench $S --block $b --density 0.125 --json u$b.json > u$b.md 2> u$b.err; echo "rc=$? u$b" >> runs.txt
done
for d in f16 bf16; do
  timeout 60 $C/bsr_bench $S --block 128 --density 0.125 --pattern powerlaw --dtype $d --json pl128$d.json > pl128$d.md 2> pl128$d.err; echo "rc=$? pl128$d" >> runs.txt
done
echo "done (${SECONDS}s)" | tee -a runs.txt
cd /tmp && tar czf $OUT/results.tgz s42w6
cat $W/runs.txt
for f in $W/u*.md $W/pl128*.md; do grep -E "^\| 8192" $f | cut -c1-175; done
