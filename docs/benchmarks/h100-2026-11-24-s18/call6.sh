#!/bin/bash
# Session 18 call 6: where v3's uniform loss comes from: round-robin tile order with the queue used
# by everyone (RR=1), by the producers only (RR=2, consumers compute the index), by nobody (RR=3).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
run() {  # name bin block pattern systems
  timeout 60 $2 --m 8192 --n 8192 --k 8192 --block $3 --density 0.125 --pattern $4 --systems $5 > $W/ab/$1.md 2>$W/ab/$1.err
  echo "$1: $(grep -E '\| bsrflow_sm90' $W/ab/$1.md | awk -F'|' '{printf "%s %s %s;", $3, $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do for v in old new rr1 rr2 rr3; do
  bin=$C/bsr_bench; [ $v = old ] && bin=$C/bsr_bench_old
  unset BSRFLOW_EXP_RR
  case $v in rr1) export BSRFLOW_EXP_RR=1;; rr2) export BSRFLOW_EXP_RR=2;; rr3) export BSRFLOW_EXP_RR=3;; esac
  for c in "128 uniform" "64 uniform"; do
    set -- $c; run ${v}_$1_$2_$i $bin $1 $2 bsrflow_sm90,bsrflow_sm90_copy_probe
  done
done; done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
