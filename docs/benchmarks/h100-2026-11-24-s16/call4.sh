#!/bin/bash
# Session 16 call 4: clock64 profile of the in-kernel split reduction (EXP_PROF build): per launch, CTA lifetime and cycles in partial writes / tickets / reductions
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
for cfg in "128 powerlaw" "128 powerlaw BSRFLOW_EXP_SPLIT_LIMIT=16" "64 powerlaw"; do
  set -- $cfg
  timeout 60 env $3 $C/bsr_bench_prof --m 8192 --n 8192 --k 8192 --block $1 --density 0.125 --pattern $2 --systems bsrflow_sm90 > $W/prof_$1_$3.md 2>$W/prof_$1_$3.err
  echo "== $cfg: $(grep -E '\| bsrflow_sm90 ' $W/prof_$1_$3.md | awk -F'|' '{print $5, $6}')" >> $W/summary.txt
  grep PROF $W/prof_$1_$3.md $W/prof_$1_$3.err | tail -3 >> $W/summary.txt
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
