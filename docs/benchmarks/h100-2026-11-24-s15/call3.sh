#!/bin/bash
# Session 15 call 3: on top of KREV: start delays (C-write burst theory), B evict-normal, C evict-first
export LD_LIBRARY_PATH=$PWD/.carry/lib
T=$PWD/.carry/bsrflow_tests
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
run() { # tag env...
  local tag=$1; shift
  env "$@" BSRFLOW_SM90BENCH_BLOCKS=128,64 timeout 120 $T "[.sm90bench]" > $W/bench_$tag.log 2>&1
  printf "%-10s" $tag >> $W/summary.txt
  grep -E "block 128 .*\[tuned|block  64 .*\[tuned|block 128 .*kc32_pair_copy" $W/bench_$tag.log | awk '{for(i=1;i<=NF;i++) if($i=="TFLOPS") printf "%7s ", $(i-1)}' >> $W/summary.txt
  echo >> $W/summary.txt
}
echo "tag  tuned128 probe128 probe128 again128 tuned64 again64" >> $W/summary.txt
K=BSRFLOW_EXP_KREV=1
for i in 1 2; do
  run base$i A=0
  run k$i $K
  run kd4_$i $K BSRFLOW_EXP_DELAY=4000
  run kd8_$i $K BSRFLOW_EXP_DELAY=8000
  run kd16_$i $K BSRFLOW_EXP_DELAY=16000
  run kb$i $K BSRFLOW_EXP_BNORMAL=1
  run kbc$i $K BSRFLOW_EXP_BNORMAL=1 BSRFLOW_EXP_CFIRST=1
  run kc$i $K BSRFLOW_EXP_CFIRST=1
done
NCU=/usr/local/cuda/bin/ncu
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum
for tag in k:$K kb:$K,BSRFLOW_EXP_BNORMAL=1 kbc:$K,BSRFLOW_EXP_BNORMAL=1,BSRFLOW_EXP_CFIRST=1 kd8:$K,BSRFLOW_EXP_DELAY=8000; do
  name=${tag%%:*}; envs=${tag#*:}; envs=${envs//,/ }
  env $envs BSRFLOW_SM90BENCH_BLOCKS=128 BSRFLOW_SM90BENCH_REPS=1 timeout 150 $NCU --kernel-name regex:bsr_gemm_kernel --launch-count 2 --metrics $M --csv $T "[.sm90bench]" > $W/ncu_${name}.csv 2>$W/ncu_${name}.err
  echo "ncu $name: $(grep '"1"' $W/ncu_${name}.csv | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')" >> $W/summary.txt
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
