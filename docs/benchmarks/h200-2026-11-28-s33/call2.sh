#!/bin/bash
# Session 33 call 2 (H200): per-tile timers on c060fa8 (patches/exp_tile_timer.patch, session 18's
# tile_timer.patch ported): %globaltimer per (tile, rank) after the main loop and after the
# epilogue, one thread per CTA, on the 5th run of the plan (L2 flushed before each run), written
# to prof_<case>_<i>.csv. bsr_bench 8192^3 12.5% f16, the plan only, two processes per case:
# 128 x 128 uniform and power-law, 64 x 64 uniform and power-law. Read with
# docs/benchmarks/h100-2026-11-24-s18/patches/tile_timers.py.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w2; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
prof() {  # tag i [bsr_bench options]
  local tag=$1 i=$2; shift 2
  BSRFLOW_EXP_PROF=5 BSRFLOW_EXP_PROF_FILE=prof_${tag}_$i.csv timeout 40 $C/bsr_bench_exp --m 8192 --n 8192 --k 8192 \
    --density 0.125 --systems bsrflow_sm90 "$@" --json b_${tag}_$i.json > /dev/null 2> b_${tag}_$i.err
  echo "rc=$? $tag $i (${SECONDS}s)" >> runs.txt
}
for i in 1 2; do
  prof u128 $i --block 128; prof pl128 $i --block 128 --pattern powerlaw
  prof u64 $i --block 64; prof pl64 $i --block 64 --pattern powerlaw
done
for f in prof_*.csv; do
  head -1 $f
  for m in ends simulate costs; do python3 $OLDPWD/docs/benchmarks/h100-2026-11-24-s18/patches/tile_timers.py $m $f; done
done > timers.txt 2>&1
gzip -k prof_*.csv
cd /tmp && tar czf $OUT/results.tgz w2
cat $W/runs.txt | grep -v "^rc=0 "
cat $W/timers.txt
