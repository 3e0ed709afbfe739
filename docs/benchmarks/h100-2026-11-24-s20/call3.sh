#!/bin/bash
# Session 20 call 3: swap-AB blocks wider than tall (R = 16 / 32, C > R): the heuristic's chunks
# (min(C, 64) deep, swath 512: 3 stages at C >= 64) against R-deep chunks (6 stages) and, at
# R = 16, swath 1024 with 16-deep chunks (the 16 x 16 kernel's configuration), named through
# --sm90-configs; 7ae9f34's bsr_bench (.carry/bsr_bench); two rounds. NEW=1 also runs
# .carry/bsr_bench_new (the heuristic change) on the same cases.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w3; mkdir -p $W/cfg
nvidia-smi -L | tee $W/device.txt
SECONDS=0
CFGS=swath512_swap,swath512_swap_kc16,swath512_swap_kc32,swath1024_swap_kc16
for i in 1 2; do
  for c in "16x32 f16 row uniform 8192" "16x64 f16 row uniform 8192" "16x128 f16 row uniform 8192" "32x64 f16 row uniform 8192" "32x128 f16 row uniform 8192" \
           "16x64 bf16 row uniform 8192" "32x128 bf16 row uniform 8192" "16x32 f16 col uniform 8192" "16x64 f16 col uniform 8192" "32x64 f16 col uniform 8192" "32x128 f16 col uniform 8192" \
           "16x64 f16 row powerlaw 8192" "32x128 f16 row powerlaw 8192" "16x64 f16 row uniform 512" "32x128 f16 row uniform 512" "16x64 f16 row uniform 2048"; do
    set -- $c; name=$1_$2_$3_$4_n$5_$i
    timeout 90 $C/bsr_bench --m 8192 --n $5 --k 8192 --block $1 --dtype $2 --b-layout $3 --pattern $4 --density 0.125 --systems bsrflow_sm90 --sm90-configs $CFGS > $W/cfg/$name.md 2>$W/cfg/$name.err
    echo "$name rc=$? (${SECONDS}s)" >> $W/summary.txt
    grep -E '\| (bsrflow_sm90|bsr_sm90)' $W/cfg/$name.md | awk -F'|' '{printf "   %-48s %s %s\n", $3, $5, $6}' >> $W/summary.txt
    if [ "${NEW:-0}" = 1 ]; then
      timeout 90 $C/bsr_bench_new --m 8192 --n $5 --k 8192 --block $1 --dtype $2 --b-layout $3 --pattern $4 --density 0.125 --systems bsrflow_sm90 > $W/cfg/new_$name.md 2>$W/cfg/new_$name.err
      grep -E '\| bsrflow_sm90' $W/cfg/new_$name.md | awk -F'|' '{printf "   NEW %-44s %s %s\n", $3, $5, $6}' >> $W/summary.txt
    fi
  done
done
cd /tmp && tar czf $OUT/results.tgz w3
cat $W/summary.txt
