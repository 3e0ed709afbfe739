#!/bin/bash
# Session 19 call 4: does "fewer clusters, no idle slots in the last wave" hold off the bench's
# power-of-two shapes? Each case at the SM count (132) and at the CTA counts whose last wave is
# full (BSRFLOW_EXP_MAXCTAS, patches/exp_env.patch). Model: time ~ ceil(tiles / c) * c.
export LD_LIBRARY_PATH=$PWD/.carry/lib
B=$PWD/.carry/bsr_bench
W=/tmp/w4; mkdir -p $W/ab
nvidia-smi -L | tee $W/device.txt
SECONDS=0
run() {  # name m n k block density ctas
  local name=$1_c$7
  BSRFLOW_EXP_MAXCTAS=$7 timeout 60 $B --m $2 --n $3 --k $4 --block $5 --density $6 --systems bsrflow_sm90 > $W/ab/$name.md 2>$W/ab/$name.err
  echo "$name: $(grep -E '\| bsrflow_sm90' $W/ab/$name.md | awk -F'|' '{printf "%s %s;", $5, $6}') (${SECONDS}s)" >> $W/summary.txt
}
for i in 1 2; do
  for c in 132 128 124; do run a128_m7936_$i 7936 8192 8192 128 0.125 $c; done   # 992 tiles: slots 1056 / 1024 / 992
  for c in 132 128 120; do run b128_n7680_$i 8192 7680 8192 128 0.125 $c; done   # 960 tiles: 990 / 960 / 960
  for c in 132 128 116; do run c64_n6144_$i 8192 6144 8192 64 0.125 $c; done     # 1536 tiles: 1584 / 1536 / 1566
  for c in 132 128; do run d32_m6144_$i 6144 8192 8192 32 0.125 $c; done         # 3072 tiles: 3168 / 3072
  for c in 132 128 112; do run e16_m4096_$i 4096 8192 8192 16 0.125 $c; done     # 256 rows x 8 = 2048: 2112 / 2048 / 2128
done
cd /tmp && tar czf $OUT/results.tgz w4
cat $W/summary.txt
