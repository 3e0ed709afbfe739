#!/bin/bash
# Session 28 call 2: old (main) / v1 (call 1: one-add descriptors, one-row masks first) / v2 (v1 + stages
# in batches of 32, no batch bookkeeping per stage) bsr_bench alternated twice at 16 and 32 (row groups),
# old / v2 at 64 and 128; the sm90 and row-group GPU tests and memcheck on v2; ncu (source counters) of
# v2's 16 x 16 row-group kernel.
export LD_LIBRARY_PATH=$PWD/.carry/lib
C=/tmp/carry; mkdir -p $C; for f in bsrflow_tests bsr_bench bsr_bench_old bsr_bench_v1; do gunzip -c $PWD/.carry/$f.gz > $C/$f; chmod +x $C/$f; done
W=/tmp/w2; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
bench() {  # version block round
  case $1 in old) B=$C/bsr_bench_old;; v1) B=$C/bsr_bench_v1;; v2) B=$C/bsr_bench;; esac
  extra=""; [ $2 = 32 ] && extra="--sm90-configs swath256_swap_g4"
  timeout 60 $B --m 8192 --n 8192 --k 8192 --block $2 --density 0.125 \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense $extra --json b$2_$1_$3.json > /dev/null 2> b$2_$1_$3.err
  echo "rc=$? $1 b$2 round $3 (${SECONDS}s)" >> runs.txt
}
for round in 1 2; do
  for v in old v1 v2; do for b in 16 32; do bench $v $b $round; done; done
  for v in old v2; do for b in 64 128; do bench $v $b $round; done; done
done
timeout 300 $C/bsrflow_tests "[sm90][gpu]~[tuning],[rowgroup]" > tests.log 2>&1
echo "rc=$? tests (${SECONDS}s): $(tail -n 3 tests.log | grep -E 'passed|failed' | tr -s ' ')" >> runs.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $C/bsrflow_tests "[sm90small]" > san_memcheck.log 2>&1
echo "rc=$? sanitizer memcheck (${SECONDS}s): $(grep -E 'ERROR SUMMARY' san_memcheck.log | tail -1)" >> runs.txt
G16='_ZN7bsrflow4sm9015bsr_gemm_kernelINS0_12KernelTraitsI6__halfLi16ELi16ELi512ELb1ELb0ELb0ELi4EEEEEvNS0_10GemmParamsE'
NCU=/usr/local/cuda/bin/ncu
BSRFLOW_SM90BENCH_BLOCKS=16 BSRFLOW_SM90BENCH_REPS=1 timeout 200 $NCU --set detailed --import-source no \
  --kernel-name-base mangled --section SourceCounters --section WarpStateStats --kernel-name "$G16" \
  --launch-count 1 -o ncu_g16 -f $C/bsrflow_tests "[.sm90bench]" > ncu_g16.log 2>&1
echo "rc=$? ncu (${SECONDS}s)" >> runs.txt
$NCU -i ncu_g16.ncu-rep --page details > ncu_g16_details.txt 2>&1
$NCU -i ncu_g16.ncu-rep --page source --csv --print-source sass > ncu_g16_sass.csv 2>&1
rm -f ncu_g16.ncu-rep
python3 - > summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('b*.json'), key=lambda f: (int(f.split('_')[0][1:]), f)):
    rs = json.load(open(f))
    cu = [r['eff_tflops'] for r in rs if r.get('system') == 'cublas_dense' and r.get('eff_tflops')]
    cu = cu[0] if cu else float('nan')
    for r in rs:
        if r.get('ms') is None or r['system'] == 'cublas_dense': continue
        print('%-14s %-24s %-44s %8.4f ms %6.1f TF %.3f of cuBLAS' % (f[:-5], r['system'][:24], r.get('config', '')[:44], r['ms'], r['eff_tflops'], r['eff_tflops'] / cu))
PY
cd /tmp && tar czf $OUT/results.tgz w2
cat $W/summary.txt; grep -E "FAILED" -A3 $W/tests.log | head -30; cat $W/runs.txt
