// Producer warp of the Hopper BSR GEMM: walks the CTA's tiles and, for every stored block, loads
// the A block chunk and the matching (k_chunk x swath) slice of B into the next ring stage with
// TMA, at run-time coordinates taken from col_idx (the gather costs nothing extra).
#pragma once

#include "bsrflow/ops/sm90_gemm_params.hpp"
#include "bsrflow/ops/sm90_schedule.cuh"
#include "bsrflow/ops/sm90_tma.cuh"

namespace bsrflow::sm90 {

#if defined(__CUDACC__)

// The shared-memory ring: stage s holds A at a(s) and B at b(s); full[s] completes when TMA has
// delivered both, empty[s] when the consumer warpgroups of every CTA in the cluster have
// finished reading their stage s (the A chunk is multicast into all of them).
template <class K>
struct Ring {
  unsigned char* base;
  int stages;

  __device__ unsigned char* a(int s) const { return base + s * K::kStageBytes; }
  __device__ unsigned char* b(int s) const { return base + s * K::kStageBytes + K::kAStride; }
  // Epilogue staging buffer of consumer warpgroup `wg`.
  __device__ float* epi(int wg) const {
    return reinterpret_cast<float*>(base + stages * K::kStageBytes + wg * K::kEpiBytes);
  }
  __device__ std::uint64_t* full(int s) const {
    return reinterpret_cast<std::uint64_t*>(base + stages * K::kStageBytes + K::kConsumers * K::kEpiBytes) + s;
  }
  __device__ std::uint64_t* empty(int s) const { return full(K::kMaxStages + s); }
};

// The stored block at walk position k (kb_begin <= k < kb_end) of tile w: a tile marked reverse
// (short pieces on odd swath groups, TileWork::reverse) walks its piece backwards.
__device__ __forceinline__ int block_at(const TileWork& w, int k) {
  return w.reverse ? w.kb_begin + w.kb_end - 1 - k : k;
}
// Lane `lane`'s column index of the batch of up to 32 blocks starting at walk position `begin`
// (0 past the tile's end).
__device__ __forceinline__ int column_batch(const GemmParams& p, const TileWork& w, int begin, int lane) {
  return lane < w.kb_end - begin ? __ldg(p.col_idx + block_at(w, begin + lane)) : 0;
}

// Run by all 32 lanes of the producer warp; lane 0 issues. Lanes fetch 32 column indices at a
// time (one coalesced load, a batch ahead) and broadcast them, so the issuing thread never waits
// on a dependent global load per block.
//
// NOTES (perf_log entries 1-4, H100): the issue path of this one thread bounds small blocks
// (a 16x16 swath-512 stage is 9 boxes in ~0.5 us), so it is kept minimal: a fully unrolled box
// loop with compile-time box offsets. Three alternatives measured slower - issuing from a
// run-time loop (-50% at block 16), one box per lane (per-lane coordinates: ptxas loops over
// lanes to move them into the uniform registers UTMALDG reads; -20%), and dealing boxes to 2-4
// warps by a run-time box % warps (the divisions on the issuing thread: -40%, no gain from the
// extra instruction streams).
template <class K>
__device__ void produce(const GemmParams& p, const Ring<K>& ring, const TileLoop& loop, int lane) {
  int stage = 0;
  std::uint32_t phase = 0;
  TileWork next = loop.first < loop.end ? tile_work(p, loop, loop.first) : TileWork{};
  // Column indices are loaded one batch ahead - the batch after the current one, in this tile or
  // the next tile's first - so that a tile's first loads never wait for a dependent global load.
  // (perf_log entry 10: no measurable change, short rows included; what limits those is entry 11.)
  int pending = column_batch(p, next, next.kb_begin, lane);
  // A chunks and B slices are both re-read (A once per swath group, B by every block row with a
  // block in that column) while the output streams past: evict-last keeps them in L2 over C's
  // lines and whatever the previous kernel left (perf_log entry 20).
  const std::uint64_t policy = l2_load_policy(p.l2_evict_last ? L2Priority::evict_last : L2Priority::evict_normal);
  for (int t = loop.first; t < loop.end; ++t) {
    const TileWork w = next;
    next = next_tile_work(p, loop, t);
    if (w.kb_begin == w.kb_end) pending = column_batch(p, next, next.kb_begin, lane);  // empty piece
    const int n0 = w.swath * K::SW;
    for (int kb0 = w.kb_begin; kb0 < w.kb_end; kb0 += 32) {
      const int count = min(32, w.kb_end - kb0);
      const int my_col = pending;
      pending = kb0 + 32 < w.kb_end ? column_batch(p, w, kb0 + 32, lane) : column_batch(p, next, next.kb_begin, lane);
      for (int i = 0; i < count; ++i) {
        const int block_col = __shfl_sync(0xffffffffu, my_col, i);
        const int a_block = block_at(w, kb0 + i);
        for (int chunk = 0; chunk < p.chunks_per_block; ++chunk) {
          if (lane == 0) {
            // Wait until the consumers (of both CTAs of a pair) released this slot (first pass:
            // returns at once).
            mbar_wait(ring.empty(stage), phase ^ 1u);
            mbar_arrive_expect_tx(ring.full(stage), K::kTxBytes);
            // (KC, R) chunk of block a_block: coordinates (k within block, row, block). In a CTA
            // pair, rank 0 loads it into both CTAs; rank 1's full[] counts those bytes too.
            if (p.cluster == 1)
              tma_load_3d(ring.a(stage), &p.tmap_a, ring.full(stage), chunk * K::KC, 0, a_block, policy);
            else if (loop.rank == 0)
              tma_load_3d_multicast(ring.a(stage), &p.tmap_a, ring.full(stage), chunk * K::KC, 0, a_block, 0x3,
                                    policy);
            const int k0 = block_col * p.block_c + chunk * K::KC;  // first B row of this chunk
            if (!K::kBColMajor && p.b_one_box) {
              // All SW / 64 panels in one box: (column in panel, k, panel); the layout in shared
              // memory is the same as the per-panel boxes' ([panel][k][64 columns], swizzled).
              tma_load_3d(ring.b(stage), &p.tmap_b, ring.full(stage), 0, k0, n0 / 64, policy);
            } else {
#pragma unroll
              for (int box = 0; box < K::kBBoxes; ++box) {
                unsigned char* dst = ring.b(stage) + box * K::kBBoxBytes;
                if constexpr (K::kBColMajor)
                  tma_load_2d(dst, &p.tmap_b, ring.full(stage), k0, n0 + box * K::kBBoxCols, policy);  // (k, n)
                else
                  tma_load_2d(dst, &p.tmap_b, ring.full(stage), n0 + box * K::kBBoxCols, k0, policy);  // (n, k)
              }
            }
          }
          if (++stage == p.stages) {
            stage = 0;
            phase ^= 1u;
          }
        }
      }
    }
  }
}

#endif  // __CUDACC__

}  // namespace bsrflow::sm90
