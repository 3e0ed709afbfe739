#!/bin/bash
# Session 16 call 5: split pieces' partial tiles TMA-stored (direct orientation): tests, sanitizers, old/new A/B, split limits, ncu
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
run() {  # name bin block pattern [env]
  local name=$1 bin=$2 b=$3 pat=$4
  timeout 60 env $5 $bin --m 8192 --n 8192 --k 8192 --block $b --density 0.125 --pattern $pat --systems bsrflow_sm90,bsrflow_sm90_copy_probe > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90 ' $W/ab/$name.md | awk -F'|' '{print $5, $6}') probe $(grep -E 'copy_probe' $W/ab/$name.md | awk -F'|' '{print $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do
  for v in old new; do
    bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
    run ${v}_128_powerlaw_$i $bin 128 powerlaw
    run ${v}_128_uniform_$i $bin 128 uniform
    run ${v}_64_powerlaw_$i $bin 64 powerlaw
  done
  for lim in 24 16 12; do
    run new_128_powerlaw_lim${lim}_$i $C/bsr_bench 128 powerlaw BSRFLOW_EXP_SPLIT_LIMIT=$lim
  done
  for lim in 16 8; do
    run new_64_powerlaw_lim${lim}_$i $C/bsr_bench 64 powerlaw BSRFLOW_EXP_SPLIT_LIMIT=$lim
  done
done
for v in old new; do
  bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
  /usr/local/cuda/bin/ncu --kernel-name regex:"bsr_gemm_kernel|split_fixup" --launch-skip 2 --launch-count 2 --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_active.max,sm__cycles_active.avg $bin --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern powerlaw --systems bsrflow_sm90 --iters 2 --warmup 1 > $W/ncu_$v.txt 2>&1
  echo "== ncu $v" >> $W/summary.txt
  grep -E "^  [a-z]|duration|bytes|cycles" $W/ncu_$v.txt | sed 's/(GemmParams).*//;s/(FixupParams).*//' | head -12 >> $W/summary.txt
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
