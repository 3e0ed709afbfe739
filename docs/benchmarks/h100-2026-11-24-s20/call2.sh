#!/bin/bash
# Session 20 call 2 (.carry/bsr_bench = 7ae9f34, main): (a) every instantiated configuration of the swap-AB kernels on blocks wider
# than tall (16x32 ... 32x128; f16 / bf16, row / column-major B, uniform / power-law), two rounds:
# do 16- / 32-deep chunks (6 stages, swath 1024 at R = 16) beat the heuristic's 64-deep chunks
# (3 stages) beyond the two suite shapes where the tuner picked them? (b) ncu DRAM bytes: the
# cluster trim (7ae9f34 default 64 pairs vs BSRFLOW_EXP_NOTRIM=1, 66 pairs; .carry/bsr_bench_exp2
# = main + patches/exp_notrim_env.patch) and the end-group LPT of call 1 (.carry/bsr_bench_exp,
# BSRFLOW_EXP_LPT = 0 / 4 at 128 and 0 / 3 at 16 power-law).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry
W=/tmp/w2; mkdir -p $W/cfg $W/ncu
nvidia-smi -L | tee $W/device.txt
SECONDS=0
for i in 1 2; do
  for c in "16x32 f16 row uniform" "16x64 f16 row uniform" "16x128 f16 row uniform" "32x64 f16 row uniform" "32x128 f16 row uniform" \
           "16x64 bf16 row uniform" "32x128 bf16 row uniform" "16x64 f16 col uniform" "32x128 f16 col uniform" "32x64 f16 col uniform" \
           "16x64 f16 row powerlaw" "32x128 f16 row powerlaw"; do
    set -- $c; name=$1_$2_$3_$4_$i
    timeout 90 $C/bsr_bench --m 8192 --n 8192 --k 8192 --block $1 --dtype $2 --b-layout $3 --pattern $4 --density 0.125 --systems bsrflow_sm90 --sm90-configs all > $W/cfg/$name.md 2>$W/cfg/$name.err
    echo "$name rc=$? (${SECONDS}s)" >> $W/summary.txt
    grep -E '\| (bsrflow_sm90|bsr_sm90)' $W/cfg/$name.md | awk -F'|' '{printf "   %-45s %s %s\n", $3, $5, $6}' >> $W/summary.txt
  done
done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum
prof() {  # name bin block pattern env...
  local name=$1 bin=$2 block=$3 pattern=$4; shift 4
  env "$@" timeout 120 $NCU --clock-control none --kernel-name regex:bsr_gemm_kernel --launch-count 3 --metrics $M --csv \
    $bin --m 8192 --n 8192 --k 8192 --block $block --density 0.125 --pattern $pattern --systems bsrflow_sm90 --iters 2 --warmup 0 --reference-iters 1 > $W/ncu/$name.csv 2>$W/ncu/$name.err
  echo "ncu $name rc=$? (${SECONDS}s)" >> $W/summary.txt
  python3 - $W/ncu/$name.csv >> $W/summary.txt <<'PY'
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
if not rows: print("  (no rows)"); sys.exit()
h=rows[0]; ID=h.index("ID"); MN=h.index("Metric Name"); MV=h.index("Metric Value"); MU=h.index("Metric Unit")
d=collections.OrderedDict()
for r in rows[1:]: d.setdefault(int(r[ID]),{})[r[MN]]=(r[MV],r[MU])
for i,m in d.items(): print("  launch %d: " % i + "; ".join("%s %s %s" % (k.split('.')[0].replace('__','.'), v[0], v[1]) for k,v in m.items()))
PY
}
prof u128_trim $C/bsr_bench 128 uniform
prof u128_notrim $C/bsr_bench_exp2 128 uniform BSRFLOW_EXP_NOTRIM=1
prof p128_lpt0 $C/bsr_bench_exp 128 powerlaw BSRFLOW_EXP_LPT=0
prof p128_lpt4 $C/bsr_bench_exp 128 powerlaw BSRFLOW_EXP_LPT=4
prof p16_lpt0 $C/bsr_bench_exp 16 powerlaw BSRFLOW_EXP_LPT=0
prof p16_lpt3 $C/bsr_bench_exp 16 powerlaw BSRFLOW_EXP_LPT=3
cd /tmp && tar czf $OUT/results.tgz w2
cat $W/summary.txt
