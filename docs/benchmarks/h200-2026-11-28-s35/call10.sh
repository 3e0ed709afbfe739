#!/bin/bash
# Session 35 call 10 (H200, diagnosis): does the lane producer issue 32 x 32, N = 16 faster, and
# what binds it then? Experiment binary = 8a428cb + patches/exp_lane_timers.patch (call 9's timers;
# BSRFLOW_EXP_LANE=1 forces the lane producer with the stage box, 2 without it). Per-CTA timers of
# the last timed run (after an L2 flush); call 5 has these variants' bsr_bench times.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w10; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
run() {  # tag, lane variant, options
  local tag=$1 v=$2; shift 2
  BSRFLOW_EXP_LANE=$v BSRFLOW_EXP_TIMERS=$W/$tag.bin timeout 60 $C/bsr_bench --systems bsrflow_skinny --iters 5 "$@" \
    --json $W/$tag.json > $W/$tag.md 2> $W/$tag.err
  echo "$tag rc=$?"
}
for v in 0 1 2; do
  run u32d25v$v $v --m 4096 --n 16 --k 11008 --block 32 --density 0.25
  run w32d50v$v $v --m 11008 --n 16 --k 4096 --block 32 --density 0.5
done
cd $W && python3 $OLDPWD/docs/benchmarks/h200-2026-11-28-s35/skinny_timers.py u32d25v0.bin u32d25v1.bin u32d25v2.bin w32d50v0.bin w32d50v1.bin w32d50v2.bin > timers.txt
python3 - <<'PY' | tee issue.txt
import struct, statistics as st
def load(path):
    raw = open(path, 'rb').read(); n = len(raw) // 8; v = struct.unpack('<%dQ' % n, raw)
    return [v[i * 64:(i + 1) * 64] for i in range(n // 64)]
for f in ['u32d25v0', 'u32d25v1', 'u32d25v2', 'w32d50v0', 'w32d50v1', 'w32d50v2']:
    c = load(f + '.bin'); t0 = min(x[0] for x in c)
    iss = [st.median((x[2 + s] - t0) / 1000 for x in c if x[2 + s]) for s in range(6)]
    full = [st.median((x[26 + s] - t0) / 1000 for x in c if x[26 + s]) for s in range(6)]
    end = max((x[52] - t0) / 1000 for x in c if x[52])
    print(f, 'issue', ' '.join('%.2f' % v for v in iss), '| full', ' '.join('%.2f' % v for v in full), '| span %.2f' % end)
PY
cd /tmp && tar czf $OUT/results.tgz w10
