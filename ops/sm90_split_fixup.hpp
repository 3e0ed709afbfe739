// Reduction of split rows for the Hopper BSR GEMM: the pieces of each split (block row, swath
// group) left raw f32 partial tiles in the workspace; this sums them in piece order
// (deterministic), applies alpha and beta and writes C.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/ops/sm90_gemm_params.hpp"

namespace bsrflow::sm90 {

struct FixupParams {
  const SplitTile* tiles;
  int num_tiles;
  const float* partials;  // [partial tile][R][swath] f32 (SplitTile says which tiles)
  int R;
  int swath;    // swath width
  int cluster;  // CTAs per cluster: a group covers cluster * swath columns
  void* c;
  std::int64_t ldc;
  int c_col_major;
  DType out;
  int m;
  int n;
  float alpha;
  float beta;
};

// One thread per 4 columns of a row of a split tile (any cluster * swath that is a multiple of 4).
void launch_split_fixup(const FixupParams& params, cudaStream_t stream);

}  // namespace bsrflow::sm90
