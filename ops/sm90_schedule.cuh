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
  int slot = -1;     // >= 0: write f32 partials to this workspace tile instead of C
  int swath = 0;     // which swath of N
  // Walk the piece's blocks from the last to the first (Tile::reverse: short pieces on odd swath
  // groups). A row's tile on the next group starts about one wave after this one, when A's chunks
  // read early in this tile are the first to leave L2: walking back reads the freshest first
  // (-18% DRAM reads and +2-4% at 128, perf_log entry 31). Only the producer follows it; the sum
  // order differs between swaths, never between runs.
  bool reverse = false;
};

// A cluster's own list of tiles, fixed at plan time (sm90_schedule_build.hpp: balanced by
// longest-processing-time in swath-major order, so the clusters finish together and move through
// the swaths of B together, keeping them in L2). Deterministic, no atomics, no per-run reset: a
// run is a single capturable launch. Both CTAs of a cluster walk the same list.
struct TileLoop {
  int first;  // this cluster's first tile
  int end;    // one past its last
  int rank;   // this CTA's rank in its cluster: its swath within a group
};
__device__ __forceinline__ TileLoop tile_loop(const GemmParams& p, int rank) {
  const int c = static_cast<int>(blockIdx.x) / p.cluster;
  return {p.cluster_begin[c], p.cluster_begin[c + 1], rank};
}
__device__ __forceinline__ TileWork tile_work(const GemmParams& p, const TileLoop& l, int t) {
  const Tile tile = p.tiles[t];
  return {tile.row, tile.kb_begin, tile.kb_end, tile.slot < 0 ? -1 : tile.slot + l.rank,
          tile.group * p.cluster + l.rank, tile.reverse != 0};
}

// The tile after t, loaded one tile ahead: the tile record is a global load (~1 us from L2), so
// reading it when the tile starts would put that latency between every two tiles.
__device__ __forceinline__ TileWork next_tile_work(const GemmParams& p, const TileLoop& l, int t) {
  return t + 1 < l.end ? tile_work(p, l, t + 1) : TileWork{};
}

#endif  // __CUDACC__

}  // namespace bsrflow::sm90
