// Device side of the persistent schedule: which tile a CTA works on next, and where a tile's
// stored blocks are. The producer and both consumer warpgroups walk the same sequence, so no
// tile index is ever communicated between them.
#pragma once

#include "bsrflow/ops/sm90_gemm_params.hpp"

namespace bsrflow::sm90 {

#if defined(__CUDACC__)

struct TileWork {
  int row = 0;       // block row
  int kb_begin = 0;  // first stored block (index into col_idx / values)
  int kb_end = 0;
  int slot = -1;     // >= 0: write f32 partials to this workspace slot instead of C
  int swath = 0;     // which swath of N
};

// Static round-robin over tile groups (g = cluster index, + number of clusters, ...):
// deterministic and needs no atomics or per-run reset, so a run is a single capturable launch.
// Groups are swath-major: the CTAs resident at one time all read the same B swaths (they stay in
// L2), and inside a swath the longest rows come first so the short ones fill the tail. The CTAs
// of a cluster walk the same groups, hence the same pieces, stages and ring phases.
struct TileLoop {
  int first;  // this cluster's first group
  int step;   // clusters in the grid
  int rank;   // this CTA's rank in its cluster: its swath within a group
};
__device__ __forceinline__ TileLoop tile_loop(const GemmParams& p, int rank) {
  return {static_cast<int>(blockIdx.x) / p.cluster, static_cast<int>(gridDim.x) / p.cluster, rank};
}
__device__ __forceinline__ TileWork tile_work(const GemmParams& p, const TileLoop& l, int g) {
  const int swath_group = g / p.num_pieces;
  const Piece piece = p.pieces[g - swath_group * p.num_pieces];
  return {piece.row, piece.kb_begin, piece.kb_end, piece.slot, swath_group * p.cluster + l.rank};
}

// The group after g, loaded one tile ahead: the piece record is a global load (~1 us from L2),
// so reading it when the tile starts would put that latency between every two tiles. Valid
// only when g + step < num_groups.
__device__ __forceinline__ TileWork next_tile_work(const GemmParams& p, const TileLoop& l, int g) {
  return g + l.step < p.num_groups ? tile_work(p, l, g + l.step) : TileWork{};
}

#endif  // __CUDACC__

}  // namespace bsrflow::sm90
