#!/usr/bin/env bash
# Session 17 calls 3-4: the 128 kernel's ceilings on this GPU, one call: cuBLAS on random dense data
# (sm90bench) and on the densified A at 100 / 50 / 12.5% (bsr_bench), the kernel, its probe, and the
# kernel without its epilogue (BSRFLOW_EXPERIMENT=1, a throw-away switch).
export LD_LIBRARY_PATH=$PWD/.carry/lib
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
T=.carry/bsrflow_tests
for r in 1 2; do for e in 0 1; do
  BSRFLOW_EXPERIMENT=$e BSRFLOW_SM90BENCH_BLOCKS=128 $T "[.sm90bench]" > $W/sm90bench_e${e}_r$r.log 2>&1
  echo "== sm90bench exp $e r$r"; grep -E "\[tuned|cublas dense|probe =" $W/sm90bench_e${e}_r$r.log | sed -e 's/plan *[0-9.]* ms//' -e 's/bsr_sm90_f16_//'
done; done
for d in 1.0 0.5 0.125; do
  .carry/bsr_bench --m 8192 --n 8192 --k 8192 --block 128 --density $d --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense > $W/bb_d$d.txt 2>&1
  grep -E '^\| 8192' $W/bb_d$d.txt | awk -F'|' '{printf "%-36s %-24s %-24s %s\n", $2, $3, $5, $6}'
done
cd $W && tar czf $OUT/results.tgz .
