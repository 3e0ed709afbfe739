#!/bin/bash
# Session 18 call 10: B3 = main with 272 more bytes of shared memory per CTA (v4's barrier region), against main and v4.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
run() {  # name bin block pattern systems
  timeout 60 $2 --m 8192 --n 8192 --k 8192 --block $3 --density 0.125 --pattern $4 --systems $5 > $W/ab/$1.md 2>$W/ab/$1.err
  echo "$1: $(grep -E '\| bsrflow_sm90' $W/ab/$1.md | awk -F'|' '{printf "%s %s %s;", $3, $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do for v in old v4 b3; do
  for c in "128 uniform" "128 powerlaw" "64 uniform" "32 uniform"; do
    set -- $c; run ${v}_$1_$2_$i $C/bsr_bench_$v $1 $2 bsrflow_sm90,bsrflow_sm90_copy_probe
  done
done; done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
