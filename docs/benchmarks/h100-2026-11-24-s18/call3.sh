#!/bin/bash
# Session 18 call 3: v2 of run-time tile claims (claim when CLAIM stages of the current tile are
# left, publish at PUBLISH; consumers take during the last stage): [sm90][gpu] tests, sanitizers,
# A/B against main 21d9d6f (bsr_bench_old) alternated twice, a (claim, publish) sweep, per-tile timers.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
timeout 240 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 150 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
  echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
done
run() {  # name bin block pattern systems
  timeout 60 $2 --m 8192 --n 8192 --k 8192 --block $3 --density 0.125 --pattern $4 --systems $5 > $W/ab/$1.md 2>$W/ab/$1.err
  echo "$1: $(grep -E '\| bsrflow_sm90' $W/ab/$1.md | awk -F'|' '{printf "%s %s %s;", $3, $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do for v in old new; do
  bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
  for c in "128 powerlaw" "128 uniform" "64 powerlaw" "64 uniform" "32 powerlaw" "32 uniform" "16 powerlaw" "16 uniform"; do
    set -- $c; sys=bsrflow_sm90; [ $1 = 128 ] && sys=bsrflow_sm90,bsrflow_sm90_copy_probe
    run ${v}_$1_$2_$i $bin $1 $2 $sys
  done
done; done
for cp in "16 8" "12 4" "6 2" "32 8" "8 4"; do set -- $cp
  for c in "128 powerlaw" "128 uniform" "64 powerlaw" "64 uniform"; do set -- $cp $c
    BSRFLOW_EXP_CLAIM=$1 BSRFLOW_EXP_PUBLISH=$2 run sweep_c$1_p$2_$3_$4 $C/bsr_bench $3 $4 bsrflow_sm90
  done
done
for b in 128 64; do for pat in uniform powerlaw; do for sys in bsrflow_sm90 bsrflow_sm90_copy_probe; do
  [ $b = 64 ] && [ $sys = bsrflow_sm90_copy_probe ] && continue
  BSRFLOW_EXP_PROF=6 BSRFLOW_EXP_PROF_FILE=$W/t_${b}_${pat}_${sys}.csv timeout 60 $C/bsr_bench_prof --m 8192 --n 8192 --k 8192 --block $b --density 0.125 --pattern $pat --systems $sys > $W/p_${b}_${pat}_${sys}.txt 2>&1
  echo "prof $b $pat $sys: $(head -1 $W/t_${b}_${pat}_${sys}.csv) (${SECONDS}s)" >> $W/summary.txt
done; done; done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
