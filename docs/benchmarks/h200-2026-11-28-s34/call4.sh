#!/bin/bash
# Session 34 call 4 (H200): where the ~8 us that 128 power-law spends after the GEMM's last CTA
# go (perf_log entry 55: the run ends 11-13 us after it, uniform rows 3-4 us). bsr_bench_exp = main
# + patches/exp_fixup_timer.patch: session 33's per-tile timers without the event between the two
# launches (the fix-up starts beside the GEMM, as in a real run), plus %globaltimer in the fix-up
# per item (ready seen, done) and per CTA (start, loop end, exit after griddepcontrol.wait); the
# 5th run of the plan, L2 flushed; read with patches/fixup_tail.py.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
TREE=$PWD
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w4; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
prof() {  # tag i [bsr_bench options]
  local tag=$1 i=$2; shift 2
  BSRFLOW_EXP_PROF=5 BSRFLOW_EXP_PROF_FILE=prof_${tag}_$i.csv timeout 40 $C/bsr_bench_exp --m 8192 --n 8192 --k 8192 \
    --density 0.125 --systems bsrflow_sm90 "$@" --json b_${tag}_$i.json > /dev/null 2> b_${tag}_$i.err
  echo "rc=$? $tag $i (${SECONDS}s)" >> runs.txt
}
for i in 1 2 3; do
  prof u128 $i --block 128; prof pl128 $i --block 128 --pattern powerlaw; prof pl64 $i --block 64 --pattern powerlaw
done
python3 $TREE/docs/benchmarks/h200-2026-11-28-s34/patches/fixup_tail.py prof_*.csv > tail.txt 2>&1
gzip prof_*.csv
cd /tmp && tar czf $OUT/results.tgz w4
cat $W/runs.txt | grep -v "^rc=0 "
cat $W/tail.txt
