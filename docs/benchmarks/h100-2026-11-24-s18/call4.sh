#!/bin/bash
# Session 18 call 4: v2b of run-time tile claims (batch fix; staircase test): [sm90][gpu] tests,
# sanitizers, A/B against main 21d9d6f (bsr_bench_old) with experiment switches: RR (round-robin
# claims through the same queue, no atomic), CTA_WAIT (queue waits acquire.cta), CLAIM/PUBLISH 16/8.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
timeout 260 $T "[sm90][gpu]" > $W/tests_sm90.log 2>&1; echo "[sm90][gpu] rc=$? $(tail -2 $W/tests_sm90.log | head -1) (${SECONDS}s)" >> $W/summary.txt
CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 150 $CS --tool $tool --error-exitcode 9 $T "[sm90small]" > $W/san_$tool.log 2>&1
  echo "$tool [sm90small] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$tool.log | tail -1) (${SECONDS}s)" >> $W/summary.txt
done
run() {  # name bin block pattern systems
  timeout 60 $2 --m 8192 --n 8192 --k 8192 --block $3 --density 0.125 --pattern $4 --systems $5 > $W/ab/$1.md 2>$W/ab/$1.err
  echo "$1: $(grep -E '\| bsrflow_sm90' $W/ab/$1.md | awk -F'|' '{printf "%s %s %s;", $3, $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do for v in old new rr ctaw c16; do
  bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
  unset BSRFLOW_EXP_RR BSRFLOW_EXP_CTA_WAIT BSRFLOW_EXP_CLAIM BSRFLOW_EXP_PUBLISH
  [ $v = rr ] && export BSRFLOW_EXP_RR=1
  [ $v = ctaw ] && export BSRFLOW_EXP_CTA_WAIT=1
  [ $v = c16 ] && export BSRFLOW_EXP_CLAIM=16 BSRFLOW_EXP_PUBLISH=8
  for c in "128 powerlaw" "128 uniform" "64 powerlaw" "64 uniform" "32 powerlaw" "16 powerlaw"; do
    set -- $c; sys=bsrflow_sm90; [ $1 = 128 ] && sys=bsrflow_sm90,bsrflow_sm90_copy_probe
    run ${v}_$1_$2_$i $bin $1 $2 $sys
  done
done; done
unset BSRFLOW_EXP_RR BSRFLOW_EXP_CTA_WAIT BSRFLOW_EXP_CLAIM BSRFLOW_EXP_PUBLISH
for v in def rr; do for pat in uniform powerlaw; do
  [ $v = rr ] && export BSRFLOW_EXP_RR=1
  BSRFLOW_EXP_PROF=6 BSRFLOW_EXP_PROF_FILE=$W/t_${v}_128_${pat}.csv timeout 60 $C/bsr_bench_prof --m 8192 --n 8192 --k 8192 --block 128 --density 0.125 --pattern $pat --systems bsrflow_sm90 > $W/p_${v}_${pat}.txt 2>&1
  echo "prof $v 128 $pat: $(head -1 $W/t_${v}_128_${pat}.csv) (${SECONDS}s)" >> $W/summary.txt
done; done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
