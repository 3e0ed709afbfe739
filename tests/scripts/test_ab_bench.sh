#!/usr/bin/env bash
# CPU test of tests/ab_bench.sh, the A/B helpers every GPU call script sources: with stand-ins for
# bsr_bench and ncu, each helper must run every case and binary, pass the environment and options
# through, and summarize what ran. A broken helper costs a whole device call (each session has 30
# minutes of GPU time), so it is checked here, where no GPU is needed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir bin

fail() { echo "FAIL: $*" >&2; exit 1; }

# bsr_bench stand-in: one record per system named by --systems; its ms is FAKE_MS (default 0.4);
# its arguments and FAKE_MS go to stderr (the .err file ab_run writes).
cat > bin/bench <<'EOF'
#!/usr/bin/env python3
import json, os, sys
a = sys.argv[1:]
print('argv', ' '.join(a), 'FAKE_MS=%s' % os.environ.get('FAKE_MS', '-'), file=sys.stderr)
systems = a[a.index('--systems') + 1].split(',')
ms = float(os.environ.get('FAKE_MS', '0.4'))
json.dump([{'system': s, 'ms': ms, 'status': 'ok', 'config': 'cfg_' + s} for s in systems],
          open(a[a.index('--json') + 1], 'w'))
EOF
# ncu stand-in: ncu's CSV (a log line first, which the parser must skip), its arguments and an
# environment variable on stderr.
cat > ncu <<'EOF'
#!/bin/sh
echo "args: $*" >&2
echo "FAKE_VAR=${FAKE_VAR:-unset}" >&2
echo '==PROF== Connected to process 1'
echo '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"'
echo '"0","1","bench","h","void bsr_gemm_kernel<T>(GemmParams)","1","7","(384,1,1)","(132,1,1)","0","9.0","Command line profiler metrics","dram__bytes_read.sum","byte","402,470,912"'
echo '"0","1","bench","h","void bsr_gemm_kernel<T>(GemmParams)","1","7","(384,1,1)","(132,1,1)","0","9.0","Command line profiler metrics","lts__throughput.avg.pct_of_peak_sustained_elapsed","%","89.6"'
EOF
chmod +x bin/bench ncu

# shellcheck source=../ab_bench.sh
source "$root/tests/ab_bench.sh"
AB_BIN_DIR=$work/bin
AB_NCU=$work/ncu

# ab_variant: a wrapper that runs the binary with its assignments (a value with a space survives).
ab_variant base bench
ab_variant fast bench FAKE_MS=0.2 "FAKE_NOTE=two words"
[ -x bin/fast ] || fail "ab_variant wrote no executable wrapper"
grep -q "FAKE_NOTE=two\\\\ words" bin/fast || fail "ab_variant did not quote an assignment: $(cat bin/fast)"

# ab_case / ab_run: every case by every binary in every round, the common options and the
# default systems unless a case names its own.
AB_COMMON="--m 64 --n 64 --k 64"
AB_SYSTEMS="--systems sysA,sysB"
ab_case u64 --block 64 --density 0.125
ab_case own --block 16 --systems sysC
ab_run 2 base fast
[ "$(grep -c '^rc=0 ' runs.txt)" = 8 ] || fail "ab_run: expected 8 runs with rc 0: $(cat runs.txt)"
for f in b_{u64,own}_{base,fast}_r{1,2}.json; do [ -s "$f" ] || fail "ab_run wrote no $f"; done
grep -q -- "--m 64 --n 64 --k 64 --systems sysA,sysB --block 64 --density 0.125 --json b_u64_fast_r2.json" \
  b_u64_fast_r2.err || fail "ab_run's options: $(cat b_u64_fast_r2.err)"
grep -q "FAKE_MS=0.2" b_u64_fast_r2.err || fail "the variant's environment did not reach the binary"
grep -q -- "sysA" b_own_base_r1.err && fail "a case with its own --systems also got AB_SYSTEMS"

# ab_summary: each binary's rounds per (case, system), and its gain against the first binary.
ab_summary > summary.txt
grep -Eq '^u64 +sysA +base +0\.4000 0\.4000  ok cfg_sysA' summary.txt || fail "ab_summary rows: $(cat summary.txt)"
grep -Eq '^u64 +sysB +fast +gain 2\.000 against base' summary.txt || fail "ab_summary gain: $(cat summary.txt)"
grep -Eq '^own +sysC +fast +gain 2\.000 against base' summary.txt || fail "ab_summary own systems: $(cat summary.txt)"

# The budget: runs past AB_BUDGET_S seconds of the call are skipped and logged, not run.
AB_BUDGET_S=-1 ab_run 1 base
grep -q "^skipped u64 base round 1" runs.txt || fail "ab_run ran past its budget: $(tail -2 runs.txt)"

# ab_ncu: ncu's options and the bench's, the environment before the call, one summary line of
# metric=value pairs (ncu's own log lines skipped) with the kernel's name.
FAKE_VAR=3 ab_ncu pl m1,m2 bench --block 64 --pattern powerlaw
grep -q -- "--clock-control none --kernel-name regex:bsr_gemm_kernel --launch-skip 2 --launch-count 1 --metrics m1,m2 --csv $work/bin/bench --block 64 --pattern powerlaw" \
  ncu_pl.err || fail "ab_ncu's options: $(cat ncu_pl.err)"
grep -q "FAKE_VAR=3" ncu_pl.err || fail "ab_ncu: the environment did not reach ncu"
[ "${FAKE_VAR:-unset}" = unset ] || fail "ab_ncu's caller kept the assignment"
AB_NCU_KERNEL=skinny_kernel AB_NCU_SKIP=0 ab_ncu pl2 m1,m2 bench --block 64
grep -q -- "--kernel-name regex:skinny_kernel --launch-skip 0 " ncu_pl2.err || fail "ab_ncu's settings: $(cat ncu_pl2.err)"
grep -q "^rc=0 ncu pl2 " runs.txt || fail "ab_ncu logged no run: $(tail -2 runs.txt)"
grep -Eq '^pl2 +dram__bytes_read\.sum=402,470,912byte lts__throughput\.avg%pk=89\.6% \| void bsr_gemm_kernel<T>' \
  ncu_summary.txt || fail "ab_ncu's summary: $(cat ncu_summary.txt)"
echo "ab_bench.sh helpers: all checks passed"
