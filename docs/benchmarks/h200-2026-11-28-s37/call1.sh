#!/bin/bash
# Session 37 call 1 (H200): bsr_bench's L2 flush without dirty lines (memset of 2 x L2, then
# discard.global.L2 on the scratch) against the memset alone (main, 1f48e3a).
# 1. flush_probe: a plain read of 23 / 46 / 92 MB after each flush (write, discard, read).
# 2. `[core]` GPU tests (the flusher keeps other data) and memcheck on them.
# 3. A/B, two rounds: the skinny suite's 16 f16 cases (skinny kernel, cuBLAS dense, Blocked-ELL)
#    and 8192^3 16 / 128 uniform (Hopper kernel, its probe, cuBLAS dense), main against the change.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w1; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
$C/flush_probe > $W/flush_probe.md 2>&1; echo "probe rc=$? (${SECONDS}s)"; cat $W/flush_probe.md
ab_gpu_checks $W "[core]" "[core]"
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=420 AB_COMMON=""
AB_SYSTEMS="--systems bsrflow_skinny,cublas_dense,cusparse_blocked_ell"
ab_skinny_cases f16
ab_run 2 bsr_bench_main bsr_bench
mv runs.txt runs_skinny.txt; ab_summary > summary_skinny.txt
AB_TAGS=(); AB_COMMON="--m 8192 --n 8192 --k 8192"
AB_SYSTEMS="--systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense"
ab_case u128 --block 128 --density 0.125
ab_case u16 --block 16 --density 0.125
ab_run 2 bsr_bench_main bsr_bench
ab_summary > summary_std.txt
tar czf ab_json.tgz b_*.json && rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w1
grep -v "^rc=0 " $W/runs*.txt
cat $W/summary_skinny.txt $W/summary_std.txt | grep gain | awk "{print \$1, \$2, \$5}"
