#!/bin/bash
# Session 15 call 2: ncu DRAM bytes for KREV/PREV/CFIRST; interleaved timings
export LD_LIBRARY_PATH=$PWD/.carry/lib
T=$PWD/.carry/bsrflow_tests
W=/tmp/w; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
BSRFLOW_EXP_KREV=1 BSRFLOW_EXP_CFIRST=1 timeout 200 $T "[sm90][gpu]~[tuning]" > $W/tests_kc.log 2>&1; echo "tests K+C rc=$?" | tee -a $W/summary.txt
run() { # tag env...
  local tag=$1; shift
  env "$@" timeout 120 $T "[.sm90bench]" > $W/bench_$tag.log 2>&1
  echo "== $tag" >> $W/summary.txt
  grep -E "\[tuned\]|\[tuned, again\]|cublas" $W/bench_$tag.log | awk '{print $1,$2,$3,$(NF-6),$(NF-5),$(NF-4),$(NF-3),$NF}' >> $W/summary.txt
  grep -E "_copy" $W/bench_$tag.log | awk '{print "   probe", $2, $3, $(NF-4), $(NF-3)}' >> $W/summary.txt
}
B=BSRFLOW_SM90BENCH_BLOCKS
for i in 1 2 3; do
  run base$i $B=128,64
  run k$i $B=128,64 BSRFLOW_EXP_KREV=1
  run kc$i $B=128,64 BSRFLOW_EXP_KREV=1 BSRFLOW_EXP_CFIRST=1
  run c$i $B=128,64 BSRFLOW_EXP_CFIRST=1
done
run small_base $B=16,32
run small_k $B=16,32 BSRFLOW_EXP_KREV=1
run small_kp $B=16,32 BSRFLOW_EXP_KREV=1 BSRFLOW_EXP_PREV=1
run f32_base $B=128,64 BSRFLOW_SM90BENCH_OUT=f32
run f32_k $B=128,64 BSRFLOW_SM90BENCH_OUT=f32 BSRFLOW_EXP_KREV=1
run f32_kc $B=128,64 BSRFLOW_SM90BENCH_OUT=f32 BSRFLOW_EXP_KREV=1 BSRFLOW_EXP_CFIRST=1
# ncu: bytes of the tuned 128 kernel (launches 1-2) and its probe (launches 13-14)
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
echo "ncu: $NCU" >> $W/summary.txt
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum
for tag in base:A=0 k:BSRFLOW_EXP_KREV=1 kp:BSRFLOW_EXP_KREV=1,BSRFLOW_EXP_PREV=1 kc:BSRFLOW_EXP_KREV=1,BSRFLOW_EXP_CFIRST=1 c:BSRFLOW_EXP_CFIRST=1; do
  name=${tag%%:*}; envs=${tag#*:}; envs=${envs//,/ }
  for blk in 128 64; do
    env $envs BSRFLOW_SM90BENCH_BLOCKS=$blk BSRFLOW_SM90BENCH_REPS=1 timeout 150 $NCU --kernel-name regex:bsr_gemm_kernel --launch-count 14 --metrics $M --csv $T "[.sm90bench]" > $W/ncu_${name}_$blk.csv 2>$W/ncu_${name}_$blk.err
    echo "ncu $name $blk rc=$?" >> $W/summary.txt
    python3 - $W/ncu_${name}_$blk.csv >> $W/summary.txt <<'PY'
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
if not rows: print("  (no rows)"); sys.exit()
h=rows[0]; ID=h.index("ID"); MN=h.index("Metric Name"); MV=h.index("Metric Value"); MU=h.index("Metric Unit")
d=collections.OrderedDict()
for r in rows[1:]:
  d.setdefault(int(r[ID]),{})[r[MN]]=(r[MV],r[MU])
for i,m in d.items():
  if i in (1,13):
    print("  launch",i, " ".join(f"{k.split('__')[1]}={v[0]}{v[1]}" for k,v in m.items()))
PY
  done
done
cd /tmp && tar czf $OUT/results.tgz w
cat $W/summary.txt
