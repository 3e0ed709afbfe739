#!/usr/bin/env bash
# Session 17 call 2: direct-store epilogue (exp 2) against the TMA-store epilogue (exp 0) and no epilogue (exp 1).
export LD_LIBRARY_PATH=$PWD/.carry/lib
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
T=.carry/bsrflow_tests
bench() {  # tag experiment blocks density [out]
  BSRFLOW_EXPERIMENT=$2 BSRFLOW_SM90BENCH_BLOCKS=$3 BSRFLOW_SM90BENCH_DENSITY=$4 BSRFLOW_SM90BENCH_OUT=${5:-f16} $T "[.sm90bench]" > $W/$1.log 2>&1
  echo "== $1 (exp $2)"; grep -E "\[tuned|cublas dense" $W/$1.log | sed -e 's/plan *[0-9.]* ms//' -e 's/bsr_sm90_f16_//'
}
for r in 1 2 3; do
  for e in 0 2 1; do bench e${e}_r$r $e 64,128 0.125; done
done
bench e0_d50 0 128 0.5; bench e2_d50 2 128 0.5
bench e0_d3 0 128 0.03125; bench e2_d3 2 128 0.03125
for r in 1 2; do for e in 0 2; do
  for pat in uniform powerlaw; do
    BSRFLOW_EXPERIMENT=$e .carry/bsr_bench --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern $pat \
      --systems bsrflow_sm90,cublas_dense > $W/bb_${pat}_e${e}_r$r.txt 2>&1
    echo "bsr_bench $pat exp $e r$r: $(grep -E '^\| 8192.*bsrflow_sm90 ' $W/bb_${pat}_e${e}_r$r.txt | awk -F'|' '{print $5, $6, $8}')"
  done
done; done
BSRFLOW_EXPERIMENT=2 timeout 300 $T "[sm90][gpu]" > $W/tests_e2.log 2>&1; echo "tests exp2 rc=$? $(tail -n 3 $W/tests_e2.log | tr -s ' ' | tr '\n' ' ')"
BSRFLOW_EXPERIMENT=2 compute-sanitizer --tool memcheck $T "[sm90small]" > $W/memcheck_e2.log 2>&1; echo "memcheck exp2 rc=$? $(grep -E 'ERROR SUMMARY' $W/memcheck_e2.log)"
cd $W && tar czf $OUT/results.tgz .
