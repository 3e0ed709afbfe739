// Device side of the persistent schedule: which tile a CTA works on next, and where a tile's
// stored blocks are. The producer and both consumer warpgroups walk the same sequence, so no
// tile index is ever communicated between them.
#pragma once

#include "bsrflow/ops/sm90_gemm_params.hpp"

namespace bsrflow::sm90 {

#if defined(__CUDACC__)

struct TileWork {
  int row;       // block row
  int kb_begin;  // first stored block (index into col_idx / values)
  int kb_end;
  int slot;      // >= 0: write f32 partials to this workspace slot instead of C
  int swath;     // which swath of N
};

// Static round-robin over tiles (t = blockIdx.x, + gridDim.x, ...): deterministic and needs no
// atomics or per-run reset, so a run is a single capturable launch. Tiles are swath-major:
// the CTAs resident at one time all read the same B swath (it stays in L2), and inside a swath
// the longest rows come first so the short ones fill the tail.
__device__ __forceinline__ TileWork tile_work(const GemmParams& p, int t) {
  const int swath = t / p.num_pieces;
  const Piece piece = p.pieces[t - swath * p.num_pieces];
  return {piece.row, piece.kb_begin, piece.kb_end, piece.slot, swath};
}

#endif  // __CUDACC__

}  // namespace bsrflow::sm90
