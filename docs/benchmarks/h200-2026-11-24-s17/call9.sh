#!/bin/bash
# Session 17 call 9: where the split signal goes. old = 0f568a7 (fix-up after the kernel);
# a = signal 4 stages into the next tile (a84567d); b = signal after the next tile's main loop.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; W=/tmp/w; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
for i in 1 2; do for v in old a b; do
  for c in "128 powerlaw" "128 uniform" "64 powerlaw" "64 uniform" "16 uniform"; do set -- $c
    timeout 60 $C/bsr_bench_$v --m 8192 --n 8192 --k 8192 --block $1 --density 0.125 --pattern $2 --systems bsrflow_sm90 > $W/ab/${v}_$1_$2_$i.md 2>&1
    echo "${v} $1 $2 $i: $(grep -E '\| bsrflow_sm90 ' $W/ab/${v}_$1_$2_$i.md | awk -F'|' '{print $5, $6}')" | tee -a $W/summary.txt
  done
done; done
cd /tmp && tar czf $OUT/results.tgz w
