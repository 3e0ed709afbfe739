#!/bin/bash
# On the build machine, before call1.sh: builds its binary, bsr_bench_exp = this checkout's HEAD +
# ../h100-2026-12-06-s45/exp_split_limit.patch, in a throw-away git worktree (the checkout's own
# files stay as they are), and packs it as call1.sh expects: .carry/bsr_bench_exp.gz and the Boost
# library the GPU machine lacks in .carry/lib/. ~3 minutes on 2 cores. Then: device call with
# carry [".carry"], command `bash docs/benchmarks/h100-2026-12-07-s46/call1.sh`.
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
wt=${1:-/tmp/bsrflow-exp-s46}
export PATH=/usr/local/cuda/bin:$PATH
git -C "$root" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
git -C "$root" worktree add --detach "$wt" HEAD
git -C "$wt" apply "$root/docs/benchmarks/h100-2026-12-06-s45/exp_split_limit.patch"
cmake -S "$wt" -B "$wt/build" > "$wt/cmake.log"
cmake --build "$wt/build" -j"$(nproc)" --target bsr_bench > "$wt/build.log"
mkdir -p "$root/.carry/lib"
cp "$wt/build/apps/bsr_bench" "$root/.carry/bsr_bench_exp"
strip "$root/.carry/bsr_bench_exp"
gzip -9f "$root/.carry/bsr_bench_exp"
cp -L /usr/lib/x86_64-linux-gnu/libboost_program_options.so.1.74.0 "$root/.carry/lib/"
git -C "$root" worktree remove --force "$wt"
du -sh "$root/.carry"
