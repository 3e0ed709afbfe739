# A/B timing of bsr_bench binaries on the GPU machine: every case run by every binary, alternated
# within each round, for several rounds, so that two builds are compared in one process on one
# GPU (figures from different calls or units are not comparable: perf_log entries 20, 45). Sourced
# by a call script (docs/benchmarks/<gpu>-<date>-s<session>/callN.sh) after it has unpacked the
# binaries (tests/gpu_machine.sh unpack):
#
#   source tests/ab_bench.sh
#   AB_BIN_DIR=$C                                   # where the binaries are
#   ab_case u128 --block 128 --density 0.125        # tag (no underscores), then the case's options
#   ab_case pl128 --block 128 --density 0.125 --pattern powerlaw
#   ab_skinny_cases f16                             # or the skinny suite's 16 cases (AB_COMMON="")
#   ab_run 3 bsr_bench_main bsr_bench               # rounds, then the binaries
#   ab_summary > summary.txt                        # per case, system and binary: ms per round
#
# Where the call compares variants of one experiment binary (environment switches of a patch),
# each variant is a wrapper named like a binary, and the call records its GPU first:
#   ab_variant p75 bsr_bench_exp BSRFLOW_EXP_FINAL_PERCENT=75   # $AB_BIN_DIR/p75 runs the binary so
#   ab_device > device.txt                                      # nvidia-smi's unit, clocks, power
#
# The same call's GPU tests and sanitizers, from the repository root, before any cd (session 36's
# call scripts wrote this out five times):
#   ab_gpu_checks $W "[skinny]" "[skinnysmall]"   # log in $W/checks.log, results in $W/checks/
#
# One kernel launch under Nsight Compute, at the GPU's own clocks (sessions 45-46 wrote this out
# in each call script); the environment before the call reaches the binary:
#   BSRFLOW_EXP_SPLIT_LIMIT=64 ab_ncu pl_L64 "$M1" bsr_bench_exp --block 64 --pattern powerlaw ...
#   # ncu_pl_L64.csv / .err, a line in runs.txt, a line of metric=value pairs in ncu_summary.txt
#
# Each run writes b_<tag>_<binary>_r<round>.json (and .err) in the current directory and a line
# "rc=<code> <tag> <binary> round <r> (<s>s)" to runs.txt. Settings: AB_COMMON, options every case
# gets (default 8192^3; bsr_bench refuses an option given twice, so cases do not repeat them);
# AB_SYSTEMS, the systems of a case that names none (the plan, its copy-only probe, cuBLAS dense);
# AB_TIMEOUT_S per run (40); AB_BUDGET_S, the seconds of the call after which further runs are
# skipped and logged as such (240). bsr_bench checks each result against its reference.

AB_COMMON=${AB_COMMON:-"--m 8192 --n 8192 --k 8192"}
AB_SYSTEMS=${AB_SYSTEMS:-"--systems bsrflow_sm90,bsrflow_sm90_copy_probe,cublas_dense"}
AB_TIMEOUT_S=${AB_TIMEOUT_S:-40}
AB_BUDGET_S=${AB_BUDGET_S:-240}
AB_TAGS=()
declare -A AB_OPTS

ab_variant() {  # name binary [VAR=value ...]: $AB_BIN_DIR/name runs $AB_BIN_DIR/binary with them
  local name=$1 binary=$2
  shift 2
  local vars=""
  [ $# -gt 0 ] && vars=$(printf '%q ' "$@")  # each assignment quoted for the wrapper's shell
  printf '#!/bin/sh\nexec env %s"%s/%s" "$@"\n' "$vars" "$AB_BIN_DIR" "$binary" > "$AB_BIN_DIR/$name"
  chmod +x "$AB_BIN_DIR/$name"
}

ab_device() {  # the GPU this call got (figures compare only within one unit)
  nvidia-smi -L
  nvidia-smi --query-gpu=uuid,name,clocks.max.sm,power.limit --format=csv
}

ab_gpu_checks() {  # out_dir test_tags sanitize_tags: GPU tests, then memcheck / racecheck / synccheck
  local out=$1 tags=$2 sanitize=$3 rc
  BSRFLOW_GPU_BIN=${BSRFLOW_GPU_BIN:-/tmp/carry} BSRFLOW_GPU_BENCH=0 BSRFLOW_GPU_TAR=0 \
    BSRFLOW_GPU_SANITIZE_TAGS="$sanitize" OUT="$out/checks" timeout "${AB_CHECKS_TIMEOUT_S:-240}" \
    bash tests/gpu_machine.sh run "$tags" > "$out/checks.log" 2>&1
  rc=$?
  echo "checks rc=$rc (${SECONDS}s)"
  grep -A6 "== summary" "$out/checks.log"
}

# Settings: AB_NCU (ncu's path; default: the one on PATH, else the toolkit's), AB_NCU_KERNEL (a
# regex of the kernel's name), AB_NCU_SKIP (launches of it skipped first: 2 passes a bench run of
# --warmup 1 --reference-iters 1, whose third launch is the timed one), AB_NCU_TIMEOUT_S (100).
ab_ncu() {  # tag metrics binary [bsr_bench options]
  local tag=$1 metrics=$2 binary=$3 t0=$SECONDS
  shift 3
  local ncu=${AB_NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
  timeout "${AB_NCU_TIMEOUT_S:-100}" "$ncu" --clock-control none --kernel-name "regex:${AB_NCU_KERNEL:-bsr_gemm_kernel}" \
    --launch-skip "${AB_NCU_SKIP:-2}" --launch-count 1 --metrics "$metrics" --csv "$AB_BIN_DIR/$binary" "$@" \
    > "ncu_$tag.csv" 2> "ncu_$tag.err"
  echo "rc=$? ncu $tag ($((SECONDS - t0))s)" >> runs.txt
  python3 - "ncu_$tag.csv" "$tag" >> ncu_summary.txt <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]  # ncu's own log lines have fewer fields
if not rows:
    print(sys.argv[2], '(no rows)')
    sys.exit()
h = rows[0]
name, value, unit, kernel = (h.index(k) for k in ('Metric Name', 'Metric Value', 'Metric Unit', 'Kernel Name'))
print('%-12s %s | %s' % (sys.argv[2], ' '.join('%s=%s%s' % (r[name].replace('.pct_of_peak_sustained_elapsed', '%pk'),
                                                         r[value], r[unit]) for r in rows[1:]), rows[1][kernel][:60]))
PY
}

ab_case() {  # tag [bsr_bench options]
  local tag=$1
  shift
  AB_TAGS+=("$tag")
  AB_OPTS[$tag]="$*"
}

# The skinny suite's 16 cases of one dtype (bsr_bench --suite skinny: M x N x K in 4096 x N x 11008
# and 11008 x N x 4096, N 16 / 64, 32 x 32 and 64 x 64 blocks, 25% and 50%), tagged m<M>n<N>b<R>d<%>
# (+ the dtype unless f16). Set AB_COMMON="" first: these cases give their own sizes.
ab_skinny_cases() {  # [dtype]
  local dtype=${1:-f16} suffix="" n mk b d
  [ "$dtype" = f16 ] || suffix=$dtype
  for n in 16 64; do
    for mk in "4096 11008" "11008 4096"; do
      for b in 32 64; do
        for d in 25 50; do
          ab_case "m${mk% *}n${n}b${b}d${d}${suffix}" --m "${mk% *}" --n $n --k "${mk#* }" --block $b \
            --density 0.$d --dtype "$dtype"
        done
      done
    done
  done
}

ab_run() {  # rounds binary...
  local rounds=$1 round tag bin
  shift
  for round in $(seq 1 "$rounds"); do
    for tag in "${AB_TAGS[@]}"; do
      for bin in "$@"; do
        if [ "$SECONDS" -gt "$AB_BUDGET_S" ]; then
          echo "skipped $tag $bin round $round (${SECONDS}s)" >> runs.txt
          continue
        fi
        local systems=$AB_SYSTEMS
        [[ " ${AB_OPTS[$tag]} " == *" --systems "* ]] && systems=
        # shellcheck disable=SC2086
        timeout "$AB_TIMEOUT_S" "$AB_BIN_DIR/$bin" $AB_COMMON $systems ${AB_OPTS[$tag]} \
          --json "b_${tag}_${bin}_r${round}.json" > /dev/null 2> "b_${tag}_${bin}_r${round}.err"
        echo "rc=$? $tag $bin round $round (${SECONDS}s)" >> runs.txt
      done
    done
  done
}

# One line per (case, system, binary): the ms of each round, the status, the configuration; then,
# per case and system, each binary's median against the first binary's (> 1: faster).
ab_summary() {
  python3 - "${AB_TAGS[@]}" <<'PY'
import collections, glob, json, statistics, sys
tags = sys.argv[1:]
rows = collections.defaultdict(list)
bins = []
for tag in tags:
    for f in sorted(glob.glob('b_%s_*.json' % tag)):
        binary = f[len('b_%s_' % tag):-len('.json')].rsplit('_r', 1)[0]
        if binary not in bins:
            bins.append(binary)
        for r in json.load(open(f)):
            if r.get('ms') is not None:
                rows[(tag, r['system'], binary)].append((r['ms'], r.get('status', ''), r.get('config', '')))
for tag in tags:
    systems = sorted({s for (t, s, _) in rows if t == tag})
    for system in systems:
        for binary in bins:
            v = rows.get((tag, system, binary))
            if v:
                print('%-8s %-26s %-16s %s  %s %s' % (tag, system[:26], binary[:16], ' '.join('%.4f' % x[0] for x in v),
                                                      ','.join(sorted({x[1] for x in v})), v[0][2][:44]))
        base = rows.get((tag, system, bins[0])) if bins else None
        for binary in bins[1:]:
            v = rows.get((tag, system, binary))
            if base and v:
                gain = statistics.median(x[0] for x in base) / statistics.median(x[0] for x in v)
                print('%-8s %-26s %-16s gain %.3f against %s' % (tag, system[:26], binary[:16], gain, bins[0]))
PY
}
