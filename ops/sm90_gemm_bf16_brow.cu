// Hopper BSR GEMM instantiations: bf16 inputs, row-major B (the list is in sm90_instances.cuh).
#include "bsrflow/ops/sm90_instantiate.cuh"

namespace bsrflow::sm90 {

std::span<const KernelEntry> kernels_bf16_brow() {
#define X(R, KC, SW, SWAP, COPY) make_entry<__nv_bfloat16, R, KC, SW, SWAP, false, COPY>(),
#define G(R, KC, SW, ROWS, ITEMS, COPY) make_entry<__nv_bfloat16, R, KC, SW, true, false, COPY, ROWS, ITEMS>(),
  static const KernelEntry table[] = {BSRFLOW_SM90_TUNED(X) BSRFLOW_SM90_TUNED_BROW(X) BSRFLOW_SM90_ROW_GROUPS(G)};
#undef X
#undef G
  return table;
}

}  // namespace bsrflow::sm90
