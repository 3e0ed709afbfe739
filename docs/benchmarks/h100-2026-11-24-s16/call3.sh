#!/bin/bash
# Session 16 call 3: what the in-kernel split reduction costs: v0 full, v1 no fences, v2 tickets only (no sums), v3 partial writes only; old = fix-up kernel
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
run() {  # name bin block pattern [env]
  local name=$1 bin=$2 b=$3 pat=$4
  timeout 60 env $5 $bin --m 8192 --n 8192 --k 8192 --block $b --density 0.125 --pattern $pat --systems bsrflow_sm90 > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90 ' $W/ab/$name.md | awk -F'|' '{print $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do
  for v in old v0 v1 v2 v3; do
    run ${v}_128_$i $C/bsr_bench_$v 128 powerlaw
    run ${v}_128_lim16_$i $C/bsr_bench_$v 128 powerlaw BSRFLOW_EXP_SPLIT_LIMIT=16
    run ${v}_64_$i $C/bsr_bench_$v 64 powerlaw
  done
done
for v in old v0 v3; do
/usr/local/cuda/bin/ncu --kernel-name regex:"bsr_gemm_kernel|split_fixup" --launch-skip 2 --launch-count 2 --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_active.max,sm__cycles_active.avg,lts__t_sector_hit_rate.pct $C/bsr_bench_$v --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern powerlaw --systems bsrflow_sm90 --iters 2 --warmup 1 > $W/ncu_$v.txt 2>&1
echo "== ncu $v" >> $W/summary.txt
grep -E "^  [a-z]|duration|bytes|cycles|hit" $W/ncu_$v.txt | sed 's/(GemmParams).*//' | head -16 >> $W/summary.txt
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
