#!/usr/bin/env bash
# Session 17 call 6: the split fix-up overlapped with the GEMM kernel (programmatic dependent
# launch, per-tile readiness): GPU tests, sanitizers, A/B against 0f568a7's bsr_bench.
export LD_LIBRARY_PATH=$PWD/.carry/lib
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
T=.carry/bsrflow_tests
ab() {
  for r in 1 2 3; do for bin in old new; do
    B=.carry/bsr_bench; [ $bin = old ] && B=.carry/bsr_bench_old
    for c in "128 powerlaw" "128 uniform" "64 powerlaw" "32 powerlaw"; do set -- $c
      $B --m 8192 --n 8192 --k 8192 --block $1 --density 0.125 --pattern $2 --systems bsrflow_sm90 > $W/ab_$1_$2_${bin}_r$r.txt 2>&1
      echo "$1 $2 $bin r$r: $(grep -E '^\| 8192' $W/ab_$1_$2_${bin}_r$r.txt | awk -F'|' '{print $4, $5, $6}')"
    done
  done; done
}
ab | tee $W/ab.txt
timeout 420 $T "[sm90][gpu]" > $W/tests.log 2>&1; echo "sm90 tests rc=$? $(tail -n 3 $W/tests.log | tr -s ' \n' ' ')"
for tool in memcheck synccheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool $T "[sm90small]" > $W/$tool.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/$tool.log | head -2 | tr '\n' ' ')"
done
cd $W && tar czf $OUT/results.tgz .
