#!/bin/bash
# Session 27 call 10: SASS and ncu of the 16 x 16 and 32 x 32 row-group kernels with two producer warps (call 7's build).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w10; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
G16='_ZN7bsrflow4sm9015bsr_gemm_kernelINS0_12KernelTraitsI6__halfLi16ELi16ELi512ELb1ELb0ELb0ELi4EEEEEvNS0_10GemmParamsE'
G32='_ZN7bsrflow4sm9015bsr_gemm_kernelINS0_12KernelTraitsI6__halfLi32ELi32ELi256ELb1ELb0ELb0ELi4EEEEEvNS0_10GemmParamsE'
NCU=/usr/local/cuda/bin/ncu
cuobjdump -sass -fun "$G16" $C/bsrflow_tests > sass_g16.txt 2>&1
for k in 16 32; do
  [ $k = 16 ] && name=$G16 || name=$G32
  BSRFLOW_SM90BENCH_BLOCKS=$k BSRFLOW_SM90BENCH_REPS=1 timeout 200 $NCU --set detailed --import-source no \
    --kernel-name-base mangled --section SourceCounters --section WarpStateStats --kernel-name "$name" \
    --launch-count 1 -o ncu_g$k -f $C/bsrflow_tests "[.sm90bench]" > ncu_g$k.log 2>&1
  echo "rc=$? ncu $k (${SECONDS}s)" >> runs.txt
  $NCU -i ncu_g$k.ncu-rep --page details > ncu_g${k}_details.txt 2>&1
  $NCU -i ncu_g$k.ncu-rep --page source --csv --print-source sass > ncu_g${k}_sass.csv 2>&1
done
cd /tmp && tar czf $OUT/results.tgz w10
cat $W/runs.txt
