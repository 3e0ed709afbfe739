// Hopper BSR GEMM instantiations: f16 inputs, column-major B (the list is in sm90_instances.cuh).
#include "bsrflow/ops/sm90_instantiate.cuh"

namespace bsrflow::sm90 {

std::span<const KernelEntry> kernels_f16_bcol() {
#define X(R, KC, SW, SWAP, COPY) make_entry<__half, R, KC, SW, SWAP, true, COPY>(),
#define G(R, KC, SW, ROWS, ITEMS, COPY) make_entry<__half, R, KC, SW, true, true, COPY, ROWS, ITEMS>(),
  static const KernelEntry table[] = {BSRFLOW_SM90_TUNED(X) BSRFLOW_SM90_TUNED_PROBES(X) BSRFLOW_SM90_ROW_GROUPS(G) BSRFLOW_SM90_ROW_GROUP_PROBES(G)};
#undef X
#undef G
  return table;
}

}  // namespace bsrflow::sm90
