#!/bin/bash
# Session 27 call 3: ncu (detailed + per-instruction stall samples) of the 16 x 16 row-group kernel
# and of the tuned one-row kernel (8192^3, 12.5%, one launch each, inside the hidden sm90
# benchmark). Call 2 profiled nothing: ncu matched --kernel-name against the function's base name.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
G4='_ZN7bsrflow4sm9015bsr_gemm_kernelINS0_12KernelTraitsI6__halfLi16ELi16ELi512ELb1ELb0ELb0ELi4EEEEEvNS0_10GemmParamsE'
G1='_ZN7bsrflow4sm9015bsr_gemm_kernelINS0_12KernelTraitsI6__halfLi16ELi16ELi1024ELb1ELb0ELb0ELi1EEEEEvNS0_10GemmParamsE'
NCU=/usr/local/cuda/bin/ncu
for k in g4 g1; do
  [ $k = g4 ] && name=$G4 || name=$G1
  BSRFLOW_SM90BENCH_BLOCKS=16 BSRFLOW_SM90BENCH_REPS=1 timeout 200 $NCU --set detailed --import-source no \
    --kernel-name-base mangled --section SourceCounters --section WarpStateStats --kernel-name "$name" \
    --launch-count 1 -o ncu_$k -f $C/bsrflow_tests "[.sm90bench]" > ncu_$k.log 2>&1
  echo "rc=$? ncu $k (${SECONDS}s)" >> runs.txt
  $NCU -i ncu_$k.ncu-rep --page details > ncu_${k}_details.txt 2>&1
  $NCU -i ncu_$k.ncu-rep --page source --csv --print-source sass > ncu_${k}_sass.csv 2>&1
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/runs.txt
for k in g4 g1; do grep -E "^  [A-Z].*(Duration|SM Frequency|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Compute \(SM\) Throughput|Memory Throughput)" $W/ncu_${k}_details.txt | head -8; done
