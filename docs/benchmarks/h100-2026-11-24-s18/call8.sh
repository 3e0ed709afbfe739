#!/bin/bash
# Session 18 call 8: why v4 (run-time claims) loses at 128 / 64 uniform: SASS of the 128 kernel
# (old = main 21d9d6f, v4), and A/B of old, v4, v4 with every step at the tile's first stage
# (lead 1000), and B1 = main with the consumers' first-stage wait hoisted as in v4.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W/ab $W/sass
nvidia-smi -L | tee $W/device.txt
SECONDS=0
K='_ZN7bsrflow4sm9015bsr_gemm_kernelINS0_12KernelTraitsI6__halfLi128ELi32ELi256ELb0ELb0ELb0EEEEEvNS0_10GemmParamsE'
KP='_ZN7bsrflow4sm9015bsr_gemm_kernelINS0_12KernelTraitsI6__halfLi128ELi32ELi256ELb0ELb0ELb1EEEEEvNS0_10GemmParamsE'
for b in old v4; do
  bin=$C/bsr_bench_$b
  /usr/local/cuda/bin/cuobjdump -sass -fun "$K" $bin > $W/sass/k128_$b.sass 2>&1
  /usr/local/cuda/bin/cuobjdump -sass -fun "$KP" $bin > $W/sass/k128probe_$b.sass 2>&1
  /usr/local/cuda/bin/cuobjdump -res-usage $bin 2>&1 | grep -A1 'Li128ELi32ELi256ELb0ELb0ELb0E' | head -4 > $W/sass/res_$b.txt
done
wc -l $W/sass/*.sass >> $W/summary.txt
run() {  # name bin block pattern systems
  timeout 60 $2 --m 8192 --n 8192 --k 8192 --block $3 --density 0.125 --pattern $4 --systems $5 > $W/ab/$1.md 2>$W/ab/$1.err
  echo "$1: $(grep -E '\| bsrflow_sm90' $W/ab/$1.md | awk -F'|' '{printf "%s %s %s;", $3, $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do for v in old v4 lead1000 b1; do
  bin=$C/bsr_bench_$v; [ $v = lead1000 ] && bin=$C/bsr_bench_v4
  unset BSRFLOW_EXP_CLAIM BSRFLOW_EXP_PUBLISH BSRFLOW_EXP_BATCH
  [ $v = lead1000 ] && export BSRFLOW_EXP_CLAIM=1000 BSRFLOW_EXP_PUBLISH=1000 BSRFLOW_EXP_BATCH=1000
  for c in "128 uniform" "128 powerlaw" "64 uniform"; do
    set -- $c; run ${v}_$1_$2_$i $bin $1 $2 bsrflow_sm90,bsrflow_sm90_copy_probe
  done
done; done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
