#!/bin/bash
# Session 36 call 4 (H200, diagnosis): ncu --set full of the skinny kernel (main's binary) where
# N = 64 is slow for its bytes. Calls 2-3: neither a deeper ring (6 / 8 stages) nor a third CTA
# per SM at main's plan moves 32 x 32 at N = 64, and warps owning half the width run 5-15% slower
# per CTA. Profiles (the 3rd launch, after bsr_bench's check and a warm-up; L2 flushed before it):
#   n64  4096 x 64 x 11008, 32 x 32, 25%     n16  4096 x 16 x 11008, 32 x 32, 25% (same A)
#   w64  11008 x 64 x 4096, 32 x 32, 25%
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w4; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
SECONDS=0
cd $W
prof() {  # tag M N K
  timeout 240 $NCU --set full --import-source no --kernel-name regex:skinny_gemm_kernel --launch-skip 2 --launch-count 1 \
    -o ncu_$1 -f $C/bsr_bench_main --m $2 --n $3 --k $4 --block 32 --density 0.25 --systems bsrflow_skinny \
    --iters 2 --warmup 1 --rest-ms 0 > ncu_$1.log 2>&1
  echo "ncu $1 rc=$? (${SECONDS}s)"
  $NCU -i ncu_$1.ncu-rep --page details > ncu_$1_details.txt 2>&1
  $NCU -i ncu_$1.ncu-rep --page source --csv --print-source sass > ncu_$1_sass.csv 2>&1
  $NCU -i ncu_$1.ncu-rep --page raw --csv > ncu_$1_raw.csv 2>&1
  rm -f ncu_$1.ncu-rep
}
prof n64 4096 64 11008
prof n16 4096 16 11008
prof w64 11008 64 4096
cd /tmp && tar czf $OUT/results.tgz w4
for t in n64 n16 w64; do
  echo "== $t"; grep -E "Duration|SM Frequency|Memory Throughput|DRAM Throughput|L2 Cache Throughput|Compute \(SM\)|Achieved Occupancy|Issue Slots Busy|No Eligible|Registers Per|Warp Cycles Per Issued" $W/ncu_${t}_details.txt | head -16
done
