// The per-entry rules of A_hat's construction in f32, shared by the GPU kernels (gcn_device.cu)
// and their host emulation (gcn_adjacency_f32), so that the two compute the same bits: the
// emulation runs in the CPU tests, the GPU tests compare the device's A_hat with it exactly.
// PyG's semantics are described in gcn_norm.hpp.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>

#include "bsrflow/core/host_device.hpp"

namespace bsrflow::gnn::rules {

// Value of edge e (src -> dst) in the matrix COO. When loops are re-added an input loop enters
// as 0: the diagonal entry exists anyway, and 0 + (its loop value, appended later) is exact.
BSRFLOW_HD inline float edge_value(int src, int dst, const float* weight, std::int64_t e, bool replace_loops) {
  if (replace_loops && src == dst) return 0.0f;
  return weight != nullptr ? weight[e] : 1.0f;
}

// Value of node i's loop: the last input loop's weight (`last` = its edge index, -1 if none),
// else the fill value.
BSRFLOW_HD inline float loop_value(int last, const float* weight, float fill) {
  if (last < 0) return fill;
  return weight != nullptr ? weight[last] : 1.0f;
}

// deg^-1/2 with PyG's inf -> 0 (deg == 0); negative deg gives NaN, as torch's pow(-0.5) does.
BSRFLOW_HD inline float inverse_sqrt_degree(float deg) {
  const float r = 1.0f / sqrtf(deg);
  return r > FLT_MAX ? 0.0f : r;  // +inf only (NaN compares false); the same test on host and device
}

// PyG's order of the products: deg^-1/2[source] * w * deg^-1/2[target].
BSRFLOW_HD inline float normalised(float dis_source, float w, float dis_target) { return dis_source * w * dis_target; }

}  // namespace bsrflow::gnn::rules
