// Reduction of split rows for the Hopper BSR GEMM: each split block row's pieces left raw f32
// partial tiles in the workspace; this sums them in slot order (deterministic), applies alpha and
// beta and writes C.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/ops/sm90_gemm_params.hpp"

namespace bsrflow::sm90 {

struct FixupParams {
  const SplitRow* rows;
  int num_rows;
  const float* partials;  // [slot][swath][R][swath_width] f32
  int R;
  int swath;
  int num_swaths;
  void* c;
  std::int64_t ldc;
  int c_col_major;
  DType out;
  int m;
  int n;
  float alpha;
  float beta;
};

// Grid: one CTA row per (split row, row within block); n / 256 CTA columns (n <= 65535 * 256).
void launch_split_fixup(const FixupParams& params, cudaStream_t stream);

}  // namespace bsrflow::sm90
