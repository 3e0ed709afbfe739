#!/usr/bin/env bash
# Runs bsrflow's GPU checks on a machine with an NVIDIA GPU, from binaries built elsewhere.
# Benchmarks: sm90bench (the hidden [.sm90bench] test), bsrflow-tune, convert_bench, spmv_bench (table in spmv_bench.md, progress in spmv_bench.log),
# cg_bench (table in cg_bench.md, progress in cg_bench.log), fem_solve (fem_solve_<i>.md / .log),
# gnn_layer (+ pyg_compare.py), bsr_bench.
#
#   bash tests/gpu_machine.sh pack [BUILD_DIR]   # here: the binaries, stripped and gzipped (+ Boost runtime), to .carry/
#   bash tests/gpu_machine.sh run  [TAGS]        # there: GPU tests, compute-sanitizer, benchmarks
#
# The device tool carries the working tree plus .carry in 64 MiB at most, and docs/ holds ~37 MiB:
# `pack` strips the binaries (no symbols; line tables are not built anyway) and gzips them
# (bsrflow_tests ~7 MB, bsr_bench ~2 MB), and `run` unpacks them into $BSRFLOW_GPU_BIN (default
# /tmp/bsrflow-carry). A call script of its own can do the same with `bash tests/gpu_machine.sh unpack`,
# which prints the directory.
#
# `run` writes full logs and results under $OUT (or ./gpu-out), packed into $OUT/results.tgz
# unless BSRFLOW_GPU_TAR=0, and prints a short table last (also in summary.txt inside the archive)
# (for bsr_bench: its exit code, its records per status and per speed-of-light source).
# Environment for `run`: BSRFLOW_GPU_SUITE (bsr_bench suite, default quick),
# BSRFLOW_GPU_SANITIZE (0 skips compute-sanitizer), BSRFLOW_GPU_SANITIZE_TAGS (what the
# sanitizers run; default: the GPU tests without the slow sm90 / apps / soak ones, plus the
# small sm90 test), BSRFLOW_GPU_BENCH (0 skips the benchmarks), BSRFLOW_GPU_BENCHES (a comma
# list of the programs to run, e.g. "fem_solve,gnn_layer"; default all), BSRFLOW_GPU_TESTS (0
# skips the bsrflow_tests run, for a call that only benchmarks).
#
# One device command is limited to 10 minutes: split the work over calls, e.g.
#   BSRFLOW_GPU_BENCH=0 bash tests/gpu_machine.sh run
#   BSRFLOW_GPU_SANITIZE=0 BSRFLOW_GPU_TESTS=0 BSRFLOW_GPU_BENCHES=convert_bench,spmv_bench,cg_bench,fem_solve,gnn_layer \
#     bash tests/gpu_machine.sh run
#   BSRFLOW_GPU_SANITIZE=0 BSRFLOW_GPU_TESTS=0 BSRFLOW_GPU_BENCHES=bsr_bench bash tests/gpu_machine.sh run
set -uo pipefail
mode=${1:-run}
root=$(cd "$(dirname "$0")/.." && pwd)
carry=$root/.carry

if [ "$mode" = pack ]; then
  build=${2:-$root/build}
  rm -rf "$carry" && mkdir -p "$carry/lib"
  cp "$build/tests/bsrflow_tests" "$carry/"
  for app in bsr_bench convert_bench spmv_bench cg_bench fem_solve gnn_layer bsrflow-tune; do
    [ -x "$build/apps/$app" ] && cp "$build/apps/$app" "$carry/"
  done
  cp "$root/apps/bsr_bench/torch_peer.py" "$carry/" 2>/dev/null
  cp "$root/apps/gnn_layer/pyg_compare.py" "$carry/" 2>/dev/null
  # The GPU machine has the CUDA libraries but not Boost.
  cp -L /usr/lib/x86_64-linux-gnu/libboost_program_options.so.1.74.0 "$carry/lib/"
  for f in "$carry"/bsrflow_tests "$carry"/{bsr_bench,convert_bench,spmv_bench,cg_bench,fem_solve,gnn_layer,bsrflow-tune}; do
    [ -f "$f" ] && strip "$f" && gzip -9 "$f"
  done
  du -sh "$carry"
  exit 0
fi

# The binaries: unpacked from .carry/*.gz (what `pack` writes) into $bin, or .carry itself for a
# pack of plain binaries.
bin=${BSRFLOW_GPU_BIN:-/tmp/bsrflow-carry}
if compgen -G "$carry/*.gz" >/dev/null; then
  mkdir -p "$bin"
  for f in "$carry"/*.gz; do
    name=$(basename "$f" .gz)
    gunzip -c "$f" >"$bin/$name" && chmod +x "$bin/$name"
  done
else
  bin=$carry
fi
if [ "$mode" = unpack ]; then
  echo "$bin"
  exit 0
fi

out=${OUT:-$root/gpu-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=$carry/lib:${LD_LIBRARY_PATH:-}
tags=${2:-[gpu]}
suite=${BSRFLOW_GPU_SUITE:-quick}
status=0
summary=()

nvidia-smi -L | tee "$out/device.txt"

if [ "${BSRFLOW_GPU_TESTS:-1}" != 0 ]; then
  "$bin/bsrflow_tests" "$tags" >"$out/gpu_tests.log" 2>&1
  rc=$?; status=$((status | rc))
  summary+=("gpu tests ($tags): rc=$rc $(tail -n 3 "$out/gpu_tests.log" | grep -E 'passed|failed' | tr -s ' ')")
fi

# Left out under the sanitizers by default: the full sm90 and apps sets and the 100,000-replay
# soak (too slow there; the small sm90 test covers every tuned block height and both epilogues),
# and the test that provokes CUDA API errors on purpose (illegal calls during capture).
# synccheck and racecheck also leave out the PCG tests ([pcg]) and the other tests whose graphs
# run real kernels in a conditional WHILE body ([conditional-loop]): under those two tools (CUDA
# 13.0, H100, 2026-11-23) synccheck reports "Divergent thread(s) in warp" at the SpMV kernel's first
# __syncthreads (a BAR.SYNC right after the warp's reconvergence point) and racecheck crashes the
# process, while the same kernels pass synccheck eagerly and in a host-checked graph, and memcheck
# passes the PCG tests as they are (docs/perf_log_pcg.md, entry 3). The skinny GEMM in such a body
# fares alike (H200, 2026-11-29: "overflow of tracked cuda::barrier structures" and a launch failure,
# or with --num-cuda-barriers 64 ~96,000 "Divergent thread(s)" reports, with or without PDL; clean
# under synccheck and racecheck in a host-checked loop; docs/perf_log.md entry 65 part 6).
sanitized='[gpu]~[sm90]~[apps]~[soak]~[provokes-api-errors]'
if [ "${BSRFLOW_GPU_SANITIZE:-1}" != 0 ]; then
  for tool in memcheck synccheck racecheck; do
    no_loops=$([ $tool = memcheck ] || echo '~[pcg]~[conditional-loop]')
    tool_tags=${BSRFLOW_GPU_SANITIZE_TAGS:-$sanitized$no_loops,[sm90small]}
    compute-sanitizer --tool $tool --error-exitcode 99 "$bin/bsrflow_tests" "$tool_tags" \
      >"$out/sanitize_$tool.log" 2>&1
    rc=$?; status=$((status | rc))
    summary+=("compute-sanitizer $tool: rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitize_$tool.log" | tail -n 1)")
  done
fi

run_benches=${BSRFLOW_GPU_BENCH:-1}
benches=${BSRFLOW_GPU_BENCHES:-}
# True when program $1 was packed and this call runs it.
bench_on() {
  local program=$1
  [ "$program" = sm90bench ] && program=bsrflow_tests  # a hidden test of the test binary
  [ "$run_benches" != 0 ] && [ -x "$bin/$program" ] && { [ -z "$benches" ] || [[ ",$benches," == *",$1,"* ]]; }
}
if bench_on convert_bench; then
  "$bin/convert_bench" --json "$out/convert_bench.json" >"$out/convert_bench.md" 2>&1
  rc=$?; status=$((status | rc)); summary+=("convert_bench: rc=$rc")
fi
if bench_on spmv_bench; then
  "$bin/spmv_bench" --json "$out/spmv_bench.json" >"$out/spmv_bench.md" 2>"$out/spmv_bench.log"
  rc=$?; status=$((status | rc)); summary+=("spmv_bench: rc=$rc")
fi
if bench_on cg_bench; then
  "$bin/cg_bench" --json "$out/cg_bench.json" >"$out/cg_bench.md" 2>"$out/cg_bench.log"
  rc=$?; status=$((status | rc))
  # Rows per status (any 'wrong' needs a look) and the two targets of bsrflow_graph_loop.
  cg_status=$(grep -o '"status": "[a-z_]*"' "$out/cg_bench.json" 2>/dev/null | sed 's/.*: "//; s/"//' | sort | uniq -c |
                awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}')
  cg_targets=$(grep -oE '(<= 8 us/iteration|>= 80% of copy bandwidth): (met|MISSED)' "$out/cg_bench.md" 2>/dev/null |
                 sort | uniq -c | awk '{$1 = $1 "x"; printf "%s%s", (NR > 1 ? "; " : ""), $0}')
  summary+=("cg_bench: rc=$rc; rows: ${cg_status:-none}; targets: ${cg_targets:-none}")
fi
if bench_on fem_solve; then
  # Verification tables (rates, true residual, iteration growth), f64 and f32, and the peer comparison at the
  # issue's sizes; summary: exit codes, PASSED/FAILED per table, speedup targets met/MISSED.
  fem_runs=("--problem poisson --n 32 --compare --steps 3 --vtk $out/fem_poisson_32.vtk --plot $out/fem_poisson_32.png"
            "--problem poisson --n 64 --compare --no-verify" "--problem poisson --n 128 --compare --no-verify"
            "--problem elasticity --n 32 --compare --steps 3 --refinements 4,8,16,32"
            "--problem elasticity --n 32 --precond block-jacobi --compare --no-verify"
            "--problem elasticity --n 64 --compare --no-verify"
            "--problem elasticity --n 32 --dtype f32 --compare --refinements 4,8,16,32")
  for i in "${!fem_runs[@]}"; do
    # shellcheck disable=SC2086  # the options are words
    "$bin/fem_solve" ${fem_runs[$i]} >"$out/fem_solve_$i.md" 2>"$out/fem_solve_$i.log"
    rc=$?; status=$((status | rc))
    fem_result=$(grep -ohE 'Verification (PASSED|FAILED)|faster per iteration than the peer: [0-9.]+x, (met|MISSED)' \
                   "$out/fem_solve_$i.md" 2>/dev/null | paste -sd ';' -)
    summary+=("fem_solve ${fem_runs[$i]%% --vtk*}: rc=$rc; ${fem_result:-no result}")
  done
fi
if bench_on gnn_layer; then
  # GCN forward on a community graph (SBM reordered by community: the >= 2x cuSPARSE target), on
  # R-MAT (poor block fill: the app must take the CSR path itself and say why), and on Zachary's
  # karate club dumped for pyg_compare.py (exit 3 there = torch_geometric not installed).
  gnn=$out/gnn_layer
  "$bin/gnn_layer" --gen sbm --nodes 262144 --communities 2048 --avg-degree 32 --intra 0.95 \
    --json "${gnn}_sbm.json" >"${gnn}_sbm.md" 2>"${gnn}_sbm.log"
  rc=$?; status=$((status | rc))
  gnn_target=$(grep -oE 'Target >= 2x.*: [0-9.]+x, (met|MISSED)' "${gnn}_sbm.md" | sed 's/.*: //')
  "$bin/gnn_layer" --gen rmat --scale 18 --edge-factor 16 --reorder rcm \
    --json "${gnn}_rmat.json" >"${gnn}_rmat.md" 2>"${gnn}_rmat.log"
  rc2=$?; status=$((status | rc2))
  gnn_path=$(grep -oE '^(BSR|CSR) path[^(,]*' "${gnn}_rmat.md" | head -n 1)
  "$bin/gnn_layer" --gen karate --in 16 --hidden 16 --out 8 --iters 3 --dump "${gnn}_karate" \
    >"${gnn}_karate.md" 2>&1
  rc3=$?; status=$((status | rc3))
  python3 "$carry/pyg_compare.py" "${gnn}_karate" >"$out/pyg_compare.log" 2>&1
  pyg_rc=$?
  if [ $pyg_rc = 1 ] || [ $pyg_rc = 2 ]; then status=$((status | 1)); fi
  summary+=("gnn_layer: sbm rc=$rc (target: ${gnn_target:-none}); rmat rc=$rc2 (${gnn_path:-no path line});"
            "  karate rc=$rc3; pyg_compare rc=$pyg_rc: $(tail -n 1 "$out/pyg_compare.log")")
fi
if bench_on sm90bench; then
  # The GEMM kernel's own timing case (hidden test [.sm90bench]: 8192^3 f16, blocks 16..128, vs cuBLAS).
  "$bin/bsrflow_tests" "[.sm90bench]" >"$out/sm90bench.log" 2>&1
  rc=$?; status=$((status | rc))
  summary+=("sm90bench: rc=$rc; $(grep -oE 'block +[0-9]+ +bsr_sm90[^ ]+ .*of cuBLAS  \[tuned\]' "$out/sm90bench.log" |
                                  awk '{printf "%s%s %s", (NR > 1 ? ", " : "of cuBLAS at block: "), $2, $(NF-3)}')")
fi
if bench_on bsrflow-tune; then
  # Ahead-of-time tuning of the quick suite into a fresh cache, then the cache's listing.
  tune_dir=$out/tuning_cache
  "$bin/bsrflow-tune" tune --suite quick --cache-dir "$tune_dir" >"$out/bsrflow_tune.log" 2>&1
  rc=$?; status=$((status | rc))
  "$bin/bsrflow-tune" list --cache-dir "$tune_dir" >>"$out/bsrflow_tune.log" 2>&1
  rc2=$?; status=$((status | rc2))
  summary+=("bsrflow-tune tune: rc=$rc, list: rc=$rc2; $(tail -n 1 "$out/bsrflow_tune.log")")
fi
if bench_on bsr_bench; then
  # Every Hopper configuration as its own system; the chart is drawn where gnuplot exists (else
  # later, here or on the build machine: bsr_bench --plot-from bsr_bench_$suite.json --plot X.png).
  bench=$out/bsr_bench_$suite
  "$bin/bsr_bench" --suite "$suite" --sm90-configs all --json "$bench.json" --csv "$bench.csv" --plot "$bench.png" \
    >"$bench.md" 2>"$bench.log"
  rc=$?; status=$((status | rc))
  # Records per status (any 'wrong' or 'error' needs a look) and per speed-of-light source.
  count() { grep -o "\"$1\": \"[a-z0-9_]*\"" "$bench.json" 2>/dev/null | sed 's/.*: "//; s/"//' | sort | uniq -c | \
              awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}'; }
  summary+=("bsr_bench --suite $suite --sm90-configs all: rc=$rc; records: $(count status); sol_source: $(count sol_source)")
  # Autotuned vs heuristic (the results page's 'Autotuning' section has the table).
  summary+=("bsr_bench autotuning: $(grep -oE 'geometric mean over [0-9]+ cases: [0-9.]+; slower beyond noise: [0-9]+' "$bench.md")")
fi

echo "== summary ($(head -n 1 "$out/device.txt"))"
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
# The device tool brings back only a handful of files per call: by default everything under $out
# becomes one results.tgz there (BSRFLOW_GPU_TAR=0 keeps the loose files).
if [ "${BSRFLOW_GPU_TAR:-1}" != 0 ]; then
  packed=$(mktemp /tmp/bsrflow-gpu-results.XXXXXX.tgz)
  if tar czf "$packed" -C "$out" --exclude=results.tgz .; then
    find "$out" -mindepth 1 -maxdepth 1 ! -name results.tgz -exec rm -rf {} + && mv "$packed" "$out/results.tgz"
  fi
fi
exit $status
