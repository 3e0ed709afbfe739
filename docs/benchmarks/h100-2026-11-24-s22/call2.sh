#!/bin/bash
# Session 22 call 2: the paired tuned-vs-heuristic comparison in bsr_bench and the tuner's
# confirmation round (perf_log entry 44). .carry/bsr_bench_old = 8f79fdc + patches/exp_bf16_values.patch
# (inert without BSRFLOW_EXP_BF16_VALUES). 1) [tuning][gpu], [apps][gpu], memcheck on the pair timing;
# 2) the standard suite (bsrflow_sm90 + bsrflow_sm90_tuned only): old, new, old, new;
# 3) ncu (clocks not locked) of the 128 x 128 kernel: f16, bf16, f16 with bf16 values.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w2; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
SECONDS=0
note() { echo "$1 (${SECONDS}s)" >> $W/summary.txt; }
pack() { (cd /tmp && tar czf $OUT/results.tgz w2); }
timeout 220 $T "[tuning][gpu]" > $W/tests_tuning.log 2>&1; note "[tuning][gpu] rc=$? $(tail -2 $W/tests_tuning.log | head -1)"
timeout 120 $T "[apps][gpu]" > $W/tests_apps.log 2>&1; note "[apps][gpu] rc=$? $(tail -2 $W/tests_apps.log | head -1)"
timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 $T "time_pair_ratios*" > $W/san_memcheck.log 2>&1
note "memcheck time_pair_ratios rc=$? $(grep 'ERROR SUMMARY' $W/san_memcheck.log | tail -1)"
pack
cd $W
for r in 1 2; do for b in old new; do
  bin=$C/bsr_bench; [ $b = old ] && bin=$C/bsr_bench_old
  timeout 150 $bin --suite standard --systems bsrflow_sm90,bsrflow_sm90_tuned --json std_${b}_$r.json > std_${b}_$r.md 2> std_${b}_$r.err
  note "standard $b $r rc=$?"
done; done
pack
NCU=/usr/local/cuda/bin/ncu
M=sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,gpu__time_duration.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
for v in f16 bf16 f16b; do
  dt=$v; e=X=0; [ $v = f16b ] && { dt=f16; e=BSRFLOW_EXP_BF16_VALUES=1; }
  env $e timeout 120 $NCU --clock-control none --metrics $M -k regex:bsr_gemm_kernel --launch-skip 4 --launch-count 6 \
    $C/bsr_bench_old --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --dtype $dt --systems bsrflow_sm90 --iters 8 --warmup 2 > ncu_$v.txt 2>&1
  note "ncu $v rc=$?"
done
pack
cat summary.txt
for f in std_*.md; do echo "== $f"; grep -E "geometric mean|Geometric mean|over [0-9]+ cases" -A1 $f | head -3; grep -c "SLOWER" $f; done
for v in f16 bf16 f16b; do echo "== ncu $v"; grep -E "per_second|cycles_elapsed.max|duration|hmma" ncu_$v.txt | awk '{print $1, $(NF-1), $NF}' | sort | uniq -c | head -12; done
