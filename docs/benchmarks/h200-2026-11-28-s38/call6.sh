#!/bin/bash
# Session 38 call 6 (H200, diagnosis): what the skinny ring waits for at N = 64, 32 x 32 (entry 60:
# neither B's bytes nor A's latency alone). Experiment binary = the landed tree +
# patches/exp_skinny_timers.patch (session 35's per-CTA %globaltimer stamps, same slot layout:
# docs/benchmarks/h200-2026-11-28-s35/skinny_timers.py). Stamps of the last timed run (after an L2
# flush). Per stage s: I(s) the producer past its empty wait, W(s) consumer warp 0 past its full
# wait; W(s) - I(s) is issue to data, I(s + 4) - W(s) is the ring slot's time with the consumers.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
W=/tmp/w6; mkdir -p $W
(cd $W && nvidia-smi -L > device.txt; cat device.txt)
run() {  # tag, options
  local tag=$1; shift
  BSRFLOW_EXP_TIMERS=$W/$tag.bin timeout 60 $C/bsr_bench_timers --systems bsrflow_skinny --iters 5 "$@" \
    --json $W/$tag.json > $W/$tag.md 2> $W/$tag.err
  echo "$tag rc=$?"
}
run w32d50 --m 11008 --n 64 --k 4096 --block 32 --density 0.5
run w32d25 --m 11008 --n 64 --k 4096 --block 32 --density 0.25
run u32d50 --m 4096 --n 64 --k 11008 --block 32 --density 0.5
run w64d50 --m 11008 --n 64 --k 4096 --block 64 --density 0.5
run n32d50 --m 11008 --n 16 --k 4096 --block 32 --density 0.5
cd $W && python3 $OLDPWD/docs/benchmarks/h200-2026-11-28-s35/skinny_timers.py w32d50.bin w32d25.bin u32d50.bin w64d50.bin n32d50.bin > timers.txt
python3 - <<'PY' | tee stages.txt
import struct, statistics as st
def load(path):
    raw = open(path, 'rb').read(); n = len(raw) // 8; v = struct.unpack('<%dQ' % n, raw)
    return [v[i * 64:(i + 1) * 64] for i in range(n // 64)]
for f in ['w32d50', 'w32d25', 'u32d50', 'w64d50', 'n32d50']:
    c = load(f + '.bin'); t0 = min(x[0] for x in c)
    n = min(min(x[54] for x in c), 24)
    iss = [st.median((x[2 + s] - t0) / 1000 for x in c if x[2 + s]) for s in range(min(n, 8))]
    full = [st.median((x[26 + s] - t0) / 1000 for x in c if x[26 + s]) for s in range(min(n, 8))]
    lat = [(x[26 + s] - x[2 + s]) / 1000 for x in c for s in range(4, n) if x[26 + s] and x[2 + s]]
    use = [(x[2 + s + 4] - x[26 + s]) / 1000 for x in c for s in range(4, n - 4) if x[26 + s] and x[2 + s + 4]]
    end = max((x[52] - t0) / 1000 for x in c if x[52])
    print(f, 'stages', n, '| issue', ' '.join('%.2f' % v for v in iss), '| full', ' '.join('%.2f' % v for v in full))
    print('   issue->data (s>=4) median %.2f p90 %.2f | data->next issue of the slot median %.2f p90 %.2f | span %.2f us' % (
        st.median(lat), sorted(lat)[int(.9 * len(lat))], st.median(use) if use else -1, sorted(use)[int(.9 * len(use))] if use else -1, end))
PY
cd /tmp && tar czf $OUT/results.tgz w6
cat $W/timers.txt | grep -E "bin:|stage period|issue ->|span|first full|main loop"
