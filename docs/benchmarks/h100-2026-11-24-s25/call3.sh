#!/bin/bash
# Session 25 call 3 (H100): what swath 384 at 128 x 128 changed (ncu, one launch after L2 flush):
# DRAM and L2 bytes, tensor-pipe activity and the SM clock of the kernel and its probe at swath
# 256 (main) and 384 (BSRFLOW_EXP_SW384=1), with the GPU's own clocks (--clock-control none) and
# with ncu's base clock lock. Binary: 5b52bb6 + patches/exp_r128_sw384.patch.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
echo "ncu: $NCU" >> summary.txt
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,gpc__cycles_elapsed.avg.per_second
B="--m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern uniform --dtype f16 --iters 2 --rest-ms 0"
for clk in none base; do
  for sys in bsrflow_sm90 bsrflow_sm90_copy_probe; do
    for e in 0 1; do
      if [ $e = 1 ]; then export BSRFLOW_EXP_SW384=1; else unset BSRFLOW_EXP_SW384; fi
      tag=${clk}_${sys#bsrflow_}_e$e
      timeout 120 $NCU --clock-control $clk --kernel-name regex:bsr_gemm_kernel --launch-skip 2 --launch-count 1 --metrics $M --csv \
        $C/bsr_bench $B --systems $sys > ncu_$tag.csv 2> ncu_$tag.err
      echo "rc=$? $tag" >> runs.txt
      python3 - ncu_$tag.csv $tag >> summary.txt <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: print(sys.argv[2], '(no rows)'); sys.exit()
h = rows[0]; MN = h.index('Metric Name'); MV = h.index('Metric Value'); MU = h.index('Metric Unit'); KN = h.index('Kernel Name')
kern = rows[1][KN]
short = {'gpu__time_duration.sum': 'time', 'dram__bytes_read.sum': 'dram_rd', 'dram__bytes_write.sum': 'dram_wr',
         'lts__t_bytes.sum': 'l2_bytes', 'lts__t_sector_hit_rate.pct': 'l2_hit',
         'sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed': 'tensor_active',
         'gpc__cycles_elapsed.avg.per_second': 'clock'}
print('%-22s %s' % (sys.argv[2], ' '.join('%s=%s%s' % (short.get(r[MN], r[MN]), r[MV], r[MU]) for r in rows[1:])),
      '| Li384' if 'Li384' in kern else '| Li256' if 'Li256' in kern else '')
PY
    done
  done
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt; grep -v "rc=0" $W/runs.txt | head
