#!/usr/bin/env bash
# SASS of bsrflow's kernels on a machine without a GPU or cuobjdump: NVIDIA publishes cuobjdump
# and nvdisasm as PyPI wheels (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm). The first run
# downloads them into .whl/cuda-tools (git-ignored); later runs reuse them.
#
#   bash tests/sass.sh summary OBJECT [KERNEL_REGEX]   # per kernel: SASS instructions, HGMMA by shape
#   bash tests/sass.sh dump OBJECT > kernels.sass      # the whole SASS listing
#
# OBJECT is an object file, library or executable with sm_90a code, e.g.
# build/ops/CMakeFiles/bsrflow_ops.dir/sm90_gemm_f16_brow.cu.o (the f16, row-major-B instantiations).
# KERNEL_REGEX filters the mangled kernel names, e.g. 'Li16ELi16ELi512ELb1ELb0ELb0ELi4E' for the
# f16 16 x 16 row-group kernels. Comparing two builds' summaries is how perf_log entries 50-51 read
# the consumer's size without spending device time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/.whl/cuda-tools
mode=${1:-}
object=${2:-}
if [ -z "$mode" ] || [ -z "$object" ] || { [ "$mode" != summary ] && [ "$mode" != dump ]; }; then
  sed -n '6,7p' "$0" | sed 's/^# *//' >&2
  exit 2
fi
[ -e "$object" ] || { echo "sass.sh: $object does not exist" >&2; exit 2; }

bin=$tools/nvidia/cu13/bin
if [ ! -x "$bin/cuobjdump" ] || [ ! -x "$bin/nvdisasm" ]; then
  # CUDA 13 tools (the build's nvcc is 13.0; the wheels' 13.x disassembles its sm_90a code).
  mkdir -p "$tools/wheels"
  python3 -m pip download --quiet --no-deps --dest "$tools/wheels" 'nvidia-cuda-cuobjdump>=13,<14' \
    'nvidia-cuda-nvdisasm>=13,<14' >&2
  for wheel in "$tools"/wheels/*.whl; do
    python3 -m zipfile -e "$wheel" "$tools" >&2
  done
  chmod +x "$bin"/* 2>/dev/null || true
fi
export PATH=$bin:$PATH

if [ "$mode" = dump ]; then
  cuobjdump -sass "$object"
  exit 0
fi
filter=${3:-.}
cuobjdump -sass "$object" | awk -v filter="$filter" '
  /Function :/ { fn = $3; next }
  fn !~ filter { next }
  /^ +\/\*[0-9a-f]+\*\// { n[fn]++ }
  /HGMMA/ { split($0, a, "HGMMA"); split(a[2], b, " "); h[fn] = h[fn] " " b[1]; c[fn " " b[1]]++ }
  END {
    for (f in n) {
      line = n[f] " instructions";
      split(h[f], shapes, " "); delete seen;
      for (i in shapes) if (shapes[i] != "" && !(shapes[i] in seen)) { seen[shapes[i]] = 1; line = line ", " c[f " " shapes[i]] " HGMMA" shapes[i] }
      print line "  " f
    }
  }' | sort -k4
