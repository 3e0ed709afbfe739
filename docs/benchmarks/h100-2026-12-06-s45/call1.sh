#!/bin/bash
# Session 45 call 1 (H100): 64 x 64 power-law rows against the L2 and DRAM (ncu, one launch after
# ncu's cache flush, the GPU's own clocks), then the main list's split limit at 64 x 64 (A/B).
# Binaries: .carry/bsr_bench (main's library code, 3c9a75e) and bsr_bench_exp (the same +
# exp_split_limit.patch: BSRFLOW_EXP_SPLIT_LIMIT caps the main piece list's limit at R = 64, today
# 248 blocks there, i.e. no row is split outside the 3 tail groups).
# Model (sched_model.cpp, LRU L2): power-law rows' long tiles hold their pairs ~4 swath groups
# behind; with an L2 of 30-35 MB effective they re-read 150-250 MB of A and B from DRAM that
# uniform rows do not; a limit of 64 removes most of it (+157 split tiles).
# Prediction: ncu: power-law plan reads >= 1.5x the uniform plan's DRAM bytes (uniform ~0.2 GB);
# limit 64 brings the power-law DRAM reads within 1.2x of uniform's. A/B: limit 64 +1-3% at
# 64 power-law f16 / bf16, 96 less, 48 no better than 64; uniform rows unchanged (+-0.5%).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/s45w1; rm -rf $W; mkdir -p $W; cd $W
ab_device > device.txt; cat device.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
echo "ncu: $NCU $($NCU --version | tail -1)" >> summary.txt
M1=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,sm__cycles_active.avg,sm__cycles_active.max,gpc__cycles_elapsed.avg.per_second
M2=lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors.sum
B="--m 8192 --n 8192 --k 8192 --block 64 --density 0.125 --dtype f16 --iters 2 --warmup 1 --rest-ms 0 --reference-iters 1"
nrun() {  # tag, metrics, bench options
  local tag=$1 m=$2; shift 2
  local t0=$SECONDS
  timeout 100 $NCU --clock-control none --kernel-name regex:bsr_gemm_kernel --launch-skip 2 --launch-count 1 --metrics $m --csv \
    $C/bsr_bench_exp $B "$@" > ncu_$tag.csv 2> ncu_$tag.err
  echo "rc=$? $tag ($((SECONDS - t0))s)" >> runs.txt
  python3 - ncu_$tag.csv $tag >> summary.txt <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: print(sys.argv[2], '(no rows)'); sys.exit()
h = rows[0]; MN = h.index('Metric Name'); MV = h.index('Metric Value'); MU = h.index('Metric Unit'); KN = h.index('Kernel Name')
print('%-12s %s | %s' % (sys.argv[2], ' '.join('%s=%s%s' % (r[MN].replace('.pct_of_peak_sustained_elapsed', '%pk'), r[MV], r[MU]) for r in rows[1:]), rows[1][KN][:60]))
PY
}
nrun u_plan $M1 --pattern uniform --systems bsrflow_sm90
nrun u_probe $M1 --pattern uniform --systems bsrflow_sm90_copy_probe
nrun pl_plan $M1 --pattern powerlaw --systems bsrflow_sm90
nrun pl_probe $M1 --pattern powerlaw --systems bsrflow_sm90_copy_probe
BSRFLOW_EXP_SPLIT_LIMIT=64 nrun pl_plan_L64 $M1 --pattern powerlaw --systems bsrflow_sm90
nrun u_probe_m2 $M2 --pattern uniform --systems bsrflow_sm90_copy_probe
nrun pl_plan_m2 $M2 --pattern powerlaw --systems bsrflow_sm90
echo "ncu done (${SECONDS}s)" >> runs.txt
AB_BIN_DIR=$C
ab_variant e0 bsr_bench_exp
ab_variant L96 bsr_bench_exp BSRFLOW_EXP_SPLIT_LIMIT=96
ab_variant L64 bsr_bench_exp BSRFLOW_EXP_SPLIT_LIMIT=64
ab_variant L48 bsr_bench_exp BSRFLOW_EXP_SPLIT_LIMIT=48
AB_SYSTEMS="--systems bsrflow_sm90"
AB_BUDGET_S=540
ab_case pl64 --block 64 --density 0.125 --pattern powerlaw
ab_case pl64bf --block 64 --density 0.125 --pattern powerlaw --dtype bf16
ab_case u64 --block 64 --density 0.125
ab_run 3 e0 L96 L64 L48
ab_summary > ab_summary.txt
cd /tmp && tar czf $OUT/results.tgz s45w1
cat $W/runs.txt | grep -v "rc=0" ; tail -1 $W/runs.txt; cat $W/summary.txt $W/ab_summary.txt
