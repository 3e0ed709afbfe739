#!/bin/bash
# Session 25 call 5 (H100): the SM clock and tensor-pipe activity of cuBLAS dense (densified A, as
# bsr_bench times it) next to the 128 x 128 kernel at 12.5% and 50% (ncu, the GPU's own clocks, one
# launch after the flush). main's binary (5b52bb6).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,gpc__cycles_elapsed.avg.per_second
B="--m 8192 --n 8192 --k 8192 --block 128 --pattern uniform --iters 2 --rest-ms 0"
for cs in "cublas_dense 0.125 f16 nvjet|xmma|cutlass|gemm_kernel" "bsrflow_sm90 0.125 f16 bsr_gemm_kernel" "bsrflow_sm90 0.5 f16 bsr_gemm_kernel" \
          "cublas_dense 0.125 bf16 nvjet|xmma|cutlass|gemm_kernel" "bsrflow_sm90 0.125 bf16 bsr_gemm_kernel"; do
  set -- $cs
  tag=$1_$2_$3
  timeout 150 $NCU --clock-control none --kernel-name regex:"$4" --launch-skip 2 --launch-count 1 --metrics $M --csv \
    $C/bsr_bench $B --density $2 --dtype $3 --systems $1 > ncu_$tag.csv 2> ncu_$tag.err
  echo "rc=$? $tag" >> runs.txt
  python3 - ncu_$tag.csv $tag >> summary.txt <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: print(sys.argv[2], '(no rows)'); sys.exit()
h = rows[0]; MN = h.index('Metric Name'); MV = h.index('Metric Value'); MU = h.index('Metric Unit'); KN = h.index('Kernel Name')
short = {'gpu__time_duration.sum': 'time', 'dram__bytes_read.sum': 'dram_rd', 'dram__bytes_write.sum': 'dram_wr',
         'lts__t_bytes.sum': 'l2_bytes', 'sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed': 'tensor_active',
         'gpc__cycles_elapsed.avg.per_second': 'clock'}
print('%-26s %s | %s' % (sys.argv[2], ' '.join('%s=%s%s' % (short.get(r[MN], r[MN]), r[MV], r[MU]) for r in rows[1:]), rows[1][KN][:60]))
PY
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt; grep -v "rc=0" $W/runs.txt | head
