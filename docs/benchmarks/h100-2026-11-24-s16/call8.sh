#!/bin/bash
# Session 16 call 8: 32x32 3% f16 slower in both new standard suites: aa258c6 (old) vs HEAD vs HEAD with 99e36b1's producer (madd)
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
run() {  # name bin block density dtype
  local name=$1 bin=$2
  timeout 60 $bin --m 8192 --n 8192 --k 8192 --block $3 --density $4 --pattern uniform --dtype $5 --systems bsrflow_sm90 > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90 ' $W/ab/$name.md | awk -F'|' '{print $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do
  for v in old head madd; do
    run ${v}_32_3_f16_$i $C/bsr_bench_$v 32 0.03 f16
    run ${v}_32_3_bf16_$i $C/bsr_bench_$v 32 0.03 bf16
    run ${v}_32_12_f16_$i $C/bsr_bench_$v 32 0.125 f16
    run ${v}_16_12_f16_$i $C/bsr_bench_$v 16 0.125 f16
    run ${v}_128_3_f16_$i $C/bsr_bench_$v 128 0.03 f16
  done
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
