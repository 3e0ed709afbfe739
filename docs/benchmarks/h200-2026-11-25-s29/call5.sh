#!/bin/bash
# Session 29 call 5: the pair-aligned experiment (branch exp-pairs; patches/exp_pair_aligned.patch) against main (c0538ba):
# f16 16 x 16 row groups gather A pair-aligned (rows {0,1}, {2,3}, the absent row of a pair zero-filled) and run one
# m64n32k16 per pair and m-tile (3 pair masks instead of 15 row masks). bsr_bench 8192^3 16 x 16, the planner's plan,
# its probe, named _g4 and _g4x2, alternated x3: uniform 12.5%, power-law 12.5%, uniform 25%.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w5; mkdir -p $W; cd $W
nvidia-smi -L | tee device.txt
SECONDS=0
bench() {  # version tag density pattern round
  case $1 in main) B=$C/bsr_bench_main;; pairs) B=$C/bsr_bench;; esac
  timeout 60 $B --m 8192 --n 8192 --k 8192 --block 16 --density $3 --pattern $4 \
    --systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense --sm90-configs swath512_swap_g4,swath512_swap_g4x2 \
    --json b_$2_$1_r$5.json > /dev/null 2> b_$2_$1_r$5.err
  echo "rc=$? $1 $2 round $5 (${SECONDS}s)" >> runs.txt
}
for round in 1 2 3; do
  for v in main pairs; do bench $v u125 0.125 uniform $round; bench $v pl125 0.125 powerlaw $round; bench $v u25 0.25 uniform $round; done
done
python3 - > summary.txt <<'PY'
import json, glob
for f in sorted(glob.glob('b_*.json')):
    rs = json.load(open(f))
    cu = [r['eff_tflops'] for r in rs if r.get('system') == 'cublas_dense' and r.get('eff_tflops')]
    cu = cu[0] if cu else float('nan')
    for r in rs:
        if r['system'] == 'cublas_dense': continue
        ms = r.get('ms')
        print('%-18s %-34s %-46s %s %s' % (f[2:-5], r['system'][:34], r.get('config', '')[:46], '%8.4f ms %.3f of cuBLAS' % (ms, r['eff_tflops'] / cu) if ms else r.get('status'), r.get('correct')))
PY
cd /tmp && tar czf $OUT/results.tgz w5
cat $W/runs.txt | tail -3; cat $W/summary.txt
