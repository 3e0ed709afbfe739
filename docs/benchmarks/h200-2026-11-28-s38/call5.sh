#!/bin/bash
# Session 38 call 5 (H200): A's blocks prefetched into L2 ahead of the ring
# (patches/exp_prefetch_a.patch on the landed tree: lane 0 of the producer issues one
# cp.async.bulk.prefetch.L2 per stage for the A blocks of the stage kStages + P ahead, P from
# BSRFLOW_EXP_PF, and the first P of them before its loop; both producer paths). Call 4: the
# ring waits for A from DRAM, and B's bytes do not bound it - a prefetch puts more of A in flight
# without shared memory.
# Binaries: bsr_bench (landed: a21f430's code) and bsr_bench_pf as p0 (off: the control),
# p2, p4, p8. A/B, two rounds, the skinny suite's 16 f16 cases (bsr_bench checks every result).
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w5; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=330 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
for pf in 0 2 4 8; do ab_variant p$pf bsr_bench_pf BSRFLOW_EXP_PF=$pf; done
ab_skinny_cases f16
ab_run 2 bsr_bench p0 p2 p4 p8
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w5
grep -v "^rc=0 " $W/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - - - -
