#!/bin/bash
# Session 16 call 2: in-kernel split reduction with 16 4-vectors per thread in flight: old/new A/B, split limits
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
mkdir -p $W/ab
run() {  # name bin block pattern [env]
  local name=$1 bin=$2 b=$3 pat=$4
  timeout 60 env $5 $bin --m 8192 --n 8192 --k 8192 --block $b --density 0.125 --pattern $pat --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90 ' $W/ab/$name.md | awk -F'|' '{print $5, $6}') probe $(grep -E 'copy_probe' $W/ab/$name.md | awk -F'|' '{print $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do
  for v in old new; do
    bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
    run ${v}_128_powerlaw_$i $bin 128 powerlaw
    run ${v}_64_powerlaw_$i $bin 64 powerlaw
    run ${v}_32_powerlaw_$i $bin 32 powerlaw
  done
  for lim in 24 16 8; do
    run new_128_powerlaw_lim${lim}_$i $C/bsr_bench 128 powerlaw BSRFLOW_EXP_SPLIT_LIMIT=$lim
  done
  run new_64_powerlaw_lim16_$i $C/bsr_bench 64 powerlaw BSRFLOW_EXP_SPLIT_LIMIT=16
done
/usr/local/cuda/bin/ncu --kernel-name regex:"bsr_gemm_kernel|split_fixup" --launch-skip 2 --launch-count 4 --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum $C/bsr_bench_old --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern powerlaw --systems bsrflow_sm90 --iters 2 --warmup 1 > $W/ncu_old.txt 2>&1
/usr/local/cuda/bin/ncu --kernel-name regex:"bsr_gemm_kernel|split_fixup" --launch-skip 2 --launch-count 4 --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum $C/bsr_bench --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern powerlaw --systems bsrflow_sm90 --iters 2 --warmup 1 > $W/ncu_new.txt 2>&1
grep -E "bsr_gemm_kernel|split_fixup|duration|bytes" $W/ncu_old.txt | head -24 >> $W/summary.txt
grep -E "bsr_gemm_kernel|duration|bytes" $W/ncu_new.txt | head -16 >> $W/summary.txt
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
