#!/bin/bash
# Session 27 call 2: row-group tests after the test fix; the sm90 benchmark at 16 and 32; the SASS
# of the 16 x 16 row-group kernel; ncu (detailed + per-instruction stall samples) of the row-group
# kernel and of the tuned one-row kernel at 16 x 16 (8192^3, 12.5%), one launch each.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
timeout 120 $C/bsrflow_tests "[rowgroup]" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
BSRFLOW_SM90BENCH_BLOCKS=16,32 timeout 200 $C/bsrflow_tests "[.sm90bench]" > sm90bench.log 2>&1
echo "rc=$? sm90bench (${SECONDS}s)" >> runs.txt
G4='_ZN7bsrflow4sm9015bsr_gemm_kernelINS0_12KernelTraitsI6__halfLi16ELi16ELi512ELb1ELb0ELb0ELi4EEEEEvNS0_10GemmParamsE'
G1='_ZN7bsrflow4sm9015bsr_gemm_kernelINS0_12KernelTraitsI6__halfLi16ELi16ELi1024ELb1ELb0ELb0ELi1EEEEEvNS0_10GemmParamsE'
cuobjdump -sass -fun "$G4" $C/bsrflow_tests > sass_g4.txt 2>&1
cuobjdump -sass -fun "$G1" $C/bsrflow_tests > sass_g1.txt 2>&1
echo "sass: $(wc -l < sass_g4.txt) / $(wc -l < sass_g1.txt) lines (${SECONDS}s)" >> runs.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" >> runs.txt
for k in g4 g1; do
  [ $k = g4 ] && name=$G4 || name=$G1
  BSRFLOW_SM90BENCH_BLOCKS=16 BSRFLOW_SM90BENCH_REPS=1 timeout 150 $NCU --set detailed --import-source no \
    --section SourceCounters --section WarpStateStats --kernel-name "$name" --launch-count 1 -o ncu_$k -f \
    $C/bsrflow_tests "[.sm90bench]" > ncu_$k.log 2>&1
  echo "rc=$? ncu $k (${SECONDS}s)" >> runs.txt
  $NCU -i ncu_$k.ncu-rep --page details > ncu_${k}_details.txt 2>&1
  $NCU -i ncu_$k.ncu-rep --page source --csv --print-source sass > ncu_${k}_sass.csv 2>&1
done
cd /tmp && tar czf $OUT/results.tgz w
grep -E "^block" $W/sm90bench.log | grep -E "tuned\]|g4|copy" ; cat $W/runs.txt
grep -E "Duration|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Stall" $W/ncu_g4_details.txt | head -20
