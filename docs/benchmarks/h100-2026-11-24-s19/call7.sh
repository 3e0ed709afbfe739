#!/bin/bash
# Session 19 call 7 (H200): 128 power-law against uniform after the cluster trim (call 6: 0.902 ->
# 0.881 of uniform, since only uniform gained). Plan settings through bsr_bench_exp (this tree +
# patches/exp_env_on_balanced.patch): split-piece overhead (OS), whole-tile overhead (OW),
# clusters (MAXCTAS), longest piece (LIMIT), tail groups; three rounds. Then 97620be's binary
# against this one on the 3% cases, which the depth guard now leaves on every cluster.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w7; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
run() {  # name bin block pattern density env...
  local name=$1 bin=$2 block=$3 pattern=$4 density=$5; shift 5
  env "$@" timeout 60 $bin --m 8192 --n 8192 --k 8192 --block $block --density $density --pattern $pattern --systems bsrflow_sm90 > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90' $W/ab/$name.md | awk -F'|' '{printf "%s %s;", $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2 3; do
  run u128_$i $C/bsr_bench 128 uniform 0.125
  run p128_base_$i $C/bsr_bench_exp 128 powerlaw 0.125
  run p128_os4_$i $C/bsr_bench_exp 128 powerlaw 0.125 BSRFLOW_EXP_OS=4
  run p128_os5_$i $C/bsr_bench_exp 128 powerlaw 0.125 BSRFLOW_EXP_OS=5
  run p128_ow0_$i $C/bsr_bench_exp 128 powerlaw 0.125 BSRFLOW_EXP_OW=0
  run p128_c128_$i $C/bsr_bench_exp 128 powerlaw 0.125 BSRFLOW_EXP_MAXCTAS=128
  run p128_c128os4_$i $C/bsr_bench_exp 128 powerlaw 0.125 BSRFLOW_EXP_MAXCTAS=128 BSRFLOW_EXP_OS=4
  run p128_L24_$i $C/bsr_bench_exp 128 powerlaw 0.125 BSRFLOW_EXP_LIMIT=24
  run p128_L24os4_$i $C/bsr_bench_exp 128 powerlaw 0.125 BSRFLOW_EXP_LIMIT=24 BSRFLOW_EXP_OS=4
  run p128_t4_$i $C/bsr_bench_exp 128 powerlaw 0.125 BSRFLOW_EXP_TAIL_GROUPS=4
  run p128_t2_$i $C/bsr_bench_exp 128 powerlaw 0.125 BSRFLOW_EXP_TAIL_GROUPS=2
  for v in old new; do
    bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
    run ${v}_128_3pc_$i $bin 128 uniform 0.03
    run ${v}_32_3pc_$i $bin 32 uniform 0.03
  done
done
cd /tmp && tar czf $OUT/results.tgz w7
cat $W/summary.txt
