#!/bin/bash
# Session 21 call 1 (H100): the tree with the tuner on
# random data. The touched tests ([tuning][gpu], [apps][gpu]); the tuner A/B (557aa4c's
# bsrflow-tune, constant 0x3C data, as .carry/bsrflow-tune_old, against this tree's, alternated
# twice); the standard suite + PyTorch peer; the skinny suite; ncu of one skinny case and of the
# plain streaming read of the same bytes (read_probe.cu, session 8).
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=$PWD/.carry; T=$C/bsrflow_tests
W=/tmp/w1; mkdir -p $W
nvidia-smi -L | tee $W/device.txt
nvidia-smi -q -d CLOCK,POWER > $W/clocks_before.txt
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
SECONDS=0
if [ "${TESTS:-1}" != 0 ]; then
  timeout 200 $T "[tuning][gpu]" > $W/tests_tuning.log 2>&1; echo "[tuning][gpu] rc=$? $(tail -2 $W/tests_tuning.log | head -1) (${SECONDS}s)" >> $W/summary.txt
  timeout 200 $T "[apps][gpu]" > $W/tests_apps.log 2>&1; echo "[apps][gpu] rc=$? $(tail -2 $W/tests_apps.log | head -1) (${SECONDS}s)" >> $W/summary.txt
fi
for r in 1 2; do for b in old new; do
  timeout 150 $C/bsrflow-tune_$b tune --suite standard --cache-dir $W/cache_${b}_$r > $W/tune_${b}_$r.log 2>&1
  echo "tune $b $r rc=$? (${SECONDS}s)" >> $W/summary.txt
  $C/bsrflow-tune_$b list --cache-dir $W/cache_${b}_$r > $W/list_${b}_$r.txt 2>&1
done; done
cd $W
timeout 260 $C/bsr_bench --suite standard --json $GPU.json --csv $GPU.csv > $GPU.md 2> bsr_bench.err
echo "bsr_bench standard rc=$? (${SECONDS}s)" >> summary.txt
timeout 100 python3 $C/torch_peer.py $GPU.json > torch_peer.log 2>&1
echo "torch_peer rc=$? (${SECONDS}s)" >> summary.txt
if [ "${SKINNY:-1}" != 0 ]; then
  timeout 200 $C/bsr_bench --suite skinny --json $GPU-skinny.json > $GPU-skinny.md 2> skinny.err
  echo "bsr_bench skinny rc=$? (${SECONDS}s)" >> summary.txt
  NCU=/usr/local/cuda/bin/ncu
  timeout 120 $NCU --clock-control none --kernel-name regex:skinny_gemm_kernel --launch-skip 5 --launch-count 1 --set full \
    -o skinny_32x32_25 $C/bsr_bench --m 4096 --n 16 --k 11008 --block 32 --density 0.25 --systems bsrflow_skinny > ncu_skinny.log 2>&1
  echo "ncu skinny rc=$? (${SECONDS}s)" >> summary.txt
  $NCU --import skinny_32x32_25.ncu-rep --page details --print-units base > ncu_skinny_details.txt 2>&1
  timeout 60 $NCU --clock-control none --kernel-name ldg_kernel --launch-skip 14 --launch-count 1 --set full \
    -o read_23mb $C/read_probe > ncu_read.log 2>&1
  echo "ncu read rc=$? (${SECONDS}s)" >> summary.txt
  $NCU --import read_23mb.ncu-rep --page details --print-units base > ncu_read_details.txt 2>&1
  timeout 60 $C/read_probe > read_probe.txt 2>&1
fi
nvidia-smi -q -d CLOCK,POWER > $W/clocks_after.txt
cd /tmp && tar czf $OUT/results.tgz w1
cat $W/summary.txt
for b in old new; do for r in 1 2; do echo "== $b $r"; cut -c1-80 $W/list_${b}_$r.txt | head -40; done; done
grep -E "Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Waves Per SM" $W/ncu_skinny_details.txt $W/ncu_read_details.txt | head -20
