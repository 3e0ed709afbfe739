// The plain-data parameter block of the skinny BSR GEMM kernel (skinny_kernel.cuh), shared by
// the host side that fills it (skinny_gemm.cu) and the device side. No owning types.
#pragma once

#include <cuda.h>  // CUtensorMap (types only)

#include <cstdint>

#include "bsrflow/ops/sm90_gemm_params.hpp"  // Piece, SplitRow: the same piece lists as the Hopper kernel

namespace bsrflow::skinny {

struct Params {
  // TMA maps (encoded on the host for each run, skinny_gemm.cu):
  // - A's values as (C, R, nnzb), box (min(C, 64), R, 1): one block, or half of a 128-wide one;
  // - B row-major as (N, K), box (width, C): the slice under one block; column-major as (K, N),
  //   box (min(C, 64), width). Past K and N the boxes read zeros.
  // Each box lands with the swizzle of its row (32, 64 or 128 bytes). With a_rows_packed /
  // b_rows_packed (tuning_skinny.hpp) the maps read 128-byte rows instead, 128-byte swizzle: A as
  // (64, R * C / 64, nnzb) (bsr_values_rows128_map; a block is still box (0, 0, block)), packed B
  // as (64, K * width / 64) (rows128_map; the slice under block row k0 starts at row k0 >> shift).
  CUtensorMap tmap_a;
  CUtensorMap tmap_b;
  // With lane_producer (tuning_skinny.hpp): each lane of the producer warp issues one block's
  // boxes, and a full stage's A blocks load as one box of this map, (C, R, blocks_per_stage) (or
  // blocks_per_stage blocks of 128-byte rows).
  CUtensorMap tmap_a_stage;
  int lane_producer;
  int a_rows_packed;
  int b_rows_packed;
  // A: block columns and the pieces of block rows, one CTA each (sm90::build_pieces: longest
  // first; a row longer than the plan's limit is cut into pieces with partial-sum slots).
  const int* col_idx;
  const sm90::Piece* pieces;
  int R;
  int C;
  int blocks_per_stage;  // stored blocks per pipeline stage (small blocks share a stage)
  int stage_a_bytes;     // ring stage layout (tuning_skinny.hpp): A blocks, then B slices
  int stage_bytes;
  // Split rows: piece slot s belongs to split row split_of_slot[s]; its pieces write raw f32
  // partial tiles [slot][R][width] and the last one to finish (counters, reset by that CTA)
  // sums them in slot order - deterministic - and writes C.
  const int* split_of_slot;
  const sm90::SplitRow* split_rows;
  int* counters;
  float* partials;
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
