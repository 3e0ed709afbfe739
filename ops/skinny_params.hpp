// The plain-data parameter block of the skinny BSR GEMM kernel (skinny_kernel.cuh), shared by
// the host side that fills it (skinny_gemm.cu) and the device side. No owning types.
#pragma once

#include <cstdint>

#include "bsrflow/ops/sm90_gemm_params.hpp"  // Piece, SplitRow: the same piece lists as the Hopper kernel

namespace bsrflow::skinny {

struct Params {
  // A: values of the stored R x C blocks (row-major inside a block), block columns, and the
  // pieces of block rows, one CTA each (sm90::build_pieces: longest first; a row longer than the
  // plan's limit is cut into pieces with partial-sum slots).
  const void* values;
  const int* col_idx;
  const sm90::Piece* pieces;
  int R;
  int C;
  int blocks_per_stage;  // stored blocks per pipeline stage (small blocks share a stage)
  // Split rows: piece slot s belongs to split row split_of_slot[s]; its pieces write raw f32
  // partial tiles [slot][R][width] and the last one to finish (counters, reset by that CTA)
  // sums them in slot order - deterministic - and writes C.
  const int* split_of_slot;
  const sm90::SplitRow* split_rows;
  int* counters;
  float* partials;
  // B: K x N, row- or column-major (the layout is a template parameter), ld in elements.
  const void* b;
  std::int64_t ldb;
  int k;
  // C: M x N, C = alpha * A B + beta * C, C not read when beta == 0.
  void* c;
  std::int64_t ldc;
  int m;
  int n;
  int c_col_major;
  float alpha;
  float beta;
};

}  // namespace bsrflow::skinny
