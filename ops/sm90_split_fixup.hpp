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
  int R;                  // rows of a partial tile: row_group block rows
  int row_group;          // block rows per split tile: 1 (SplitTile::row is the block row) or a group's
  const int* group_rows;  // row_group > 1: group g's block rows (RowGroups::rows; -1: none)
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
  // Overlap with the GEMM kernel (programmatic dependent launch): the fix-up starts on the SMs the
  // GEMM's CTAs leave and sums a split tile once split_ready[tile] reaches count * ready_per_piece
  // (the GEMM kernel's signals). Work items are handed out in list order through next_item; the
  // last CTA, after the GEMM grid has completed, resets split_ready, next_item and finished for
  // the next run. All three live in the plan's workspace, zero between runs.
  int* split_ready;
  int* next_item;
  int* finished;
  int ready_per_piece;  // signals per piece: CTAs per cluster x consumer warpgroups
  int max_ctas;         // the grid: at most this many CTAs (a few per SM)
};

// One thread per 4 columns of a row of a split tile (any cluster * swath that is a multiple of 4).
// Launched with programmatic stream serialization right after the GEMM kernel.
void launch_split_fixup(const FixupParams& params, cudaStream_t stream);

}  // namespace bsrflow::sm90
