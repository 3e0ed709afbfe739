// Producer warp of the Hopper BSR GEMM: walks the CTA's tiles and, for every stored block, loads
// the A block chunk and the matching (k_chunk x swath) slice of B into the next ring stage with
// TMA, at run-time coordinates taken from col_idx (the gather costs nothing extra).
#pragma once

#include <type_traits>

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
    return reinterpret_cast<float*>(base + stages * K::kStageBytes + wg * K::kEpiStride);
  }
  __device__ std::uint64_t* full(int s) const {
    return reinterpret_cast<std::uint64_t*>(base + stages * K::kStageBytes + K::kBarrierOffset) + s;
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
// Row-group kernels: lane `lane`'s item of the batch of up to 32 items starting at walk position
// `begin` (an empty item past the tile's end).
__device__ __forceinline__ RowGroupItem item_batch(const GemmParams& p, const TileWork& w, int begin, int lane) {
  if (lane >= w.kb_end - begin) return RowGroupItem{0, 0, 0, 0};
  const int4 v = __ldg(reinterpret_cast<const int4*>(p.items) + block_at(w, begin + lane));
  return RowGroupItem{v.x, v.y, v.z, v.w};
}
// What the producer fetches per stage record: a column index, or a row group's item.
template <class K>
using StageRecord = std::conditional_t<K::kRowGroups, RowGroupItem, int>;
template <class K>
__device__ __forceinline__ StageRecord<K> record_batch(const GemmParams& p, const TileWork& w, int begin, int lane) {
  if constexpr (K::kRowGroups) return item_batch(p, w, begin, lane);
  else return column_batch(p, w, begin, lane);
}

// The (KC, SW) B slice from B row k0, swath column n0, into `dst` (one item's B area).
template <class K>
__device__ __forceinline__ void load_b_slice(const GemmParams& p, unsigned char* dst, std::uint64_t* full, int k0,
                                             int n0, std::uint64_t policy) {
  if (!K::kBColMajor && p.b_one_box) {
    // All SW / 64 panels in one box: (column in panel, k, panel); the layout in shared memory is
    // the same as the per-panel boxes' ([panel][k][64 columns], swizzled).
    tma_load_3d(dst, &p.tmap_b, full, 0, k0, n0 / 64, policy);
  } else {
#pragma unroll
    for (int box = 0; box < K::kBBoxes; ++box) {
      if constexpr (K::kBColMajor)
        tma_load_2d(dst + box * K::kBBoxBytes, &p.tmap_b, full, k0, n0 + box * K::kBBoxCols, policy);  // (k, n)
      else
        tma_load_2d(dst + box * K::kBBoxBytes, &p.tmap_b, full, n0 + box * K::kBBoxCols, k0, policy);  // (n, k)
    }
  }
}

// Row groups: item slot `slot` of stage `stage`: its `a_bytes` of blocks from gathered block
// `first`, contiguous and pre-swizzled in the gathered copy of A, as one bulk copy (one request per
// block sank entry 26; perf_log entry 48), and the B slice of block column `col`.
template <class K>
__device__ __forceinline__ void load_item(const GemmParams& p, const Ring<K>& ring, int stage, int slot, int first,
                                          std::uint32_t a_bytes, int col, int n0, std::uint64_t policy) {
  const auto* gathered = static_cast<const unsigned char*>(p.a_gathered);
  bulk_load(ring.a(stage) + slot * K::kItemABytes, gathered + static_cast<std::int64_t>(first) * K::kBlockBytes,
            a_bytes, ring.full(stage), policy);
  load_b_slice<K>(p, ring.b(stage) + slot * K::kItemBBytes, ring.full(stage), col * p.block_c, n0, policy);
}

// Run by all 32 lanes of producer warp `warp` (of K::kProducerWarps); its lane 0 issues the stages
// whose sequence number is `warp` modulo kProducerWarps. Every producer warp walks every stage (the
// same stage / phase state), so the ring order is unchanged; only the issuing is dealt out. Lanes
// fetch 32 column indices (row groups: items) at a time (one coalesced load, a batch ahead) and
// broadcast them, so the issuing thread never waits on a dependent global load per block.
//
// NOTES (perf_log entries 1-4, H100): the issue path of this one thread bounds small blocks
// (a 16x16 swath-512 stage is 9 boxes in ~0.5 us), so it is kept minimal: a fully unrolled box
// loop with compile-time box offsets. Three alternatives measured slower - issuing from a
// run-time loop (-50% at block 16), one box per lane (per-lane coordinates: ptxas loops over
// lanes to move them into the uniform registers UTMALDG reads; -20%), and dealing boxes to 2-4
// warps by a run-time box % warps (the divisions on the issuing thread: -40%, no gain from the
// extra instruction streams).
template <class K>
__device__ void produce(const GemmParams& p, const Ring<K>& ring, const TileLoop& loop, int warp, int lane) {
  int stage = 0;
  std::uint32_t phase = 0;
  int turn = 0;  // which producer warp issues the current stage
  TileWork next = loop.first < loop.end ? tile_work(p, loop, loop.first) : TileWork{};
  // Column indices are loaded one batch ahead - the batch after the current one, in this tile or
  // the next tile's first - so that a tile's first loads never wait for a dependent global load.
  // (perf_log entry 10: no measurable change, short rows included; what limits those is entry 11.)
  StageRecord<K> pending = record_batch<K>(p, next, next.kb_begin, lane);
  // A chunks and B slices are both re-read (A once per swath group, B by every block row with a
  // block in that column) while the output streams past: evict-last keeps them in L2 over C's
  // lines and whatever the previous kernel left (perf_log entry 20).
  const std::uint64_t policy = l2_load_policy(p.l2_evict_last ? L2Priority::evict_last : L2Priority::evict_normal);
  for (int t = loop.first; t < loop.end; ++t) {
    const TileWork w = next;
    next = next_tile_work(p, loop, t);
    if (w.kb_begin == w.kb_end) pending = record_batch<K>(p, next, next.kb_begin, lane);  // empty piece
    const int n0 = w.swath * K::SW;
    for (int kb0 = w.kb_begin; kb0 < w.kb_end; kb0 += 32) {
      const int count = min(32, w.kb_end - kb0);
      const StageRecord<K> mine = pending;
      pending = kb0 + 32 < w.kb_end ? record_batch<K>(p, w, kb0 + 32, lane) : record_batch<K>(p, next, next.kb_begin, lane);
      for (int i = 0; i < count; i += K::kItemsPerStage) {
        // A's source: block a_block of the values, or a row group's a_blocks gathered blocks from a_block.
        // Row groups: slot 1 holds the next item, if the batch has one (a_blocks1 = 0 if not).
        int block_col, a_block;
        int a_blocks = 0, block_col1 = 0, a_block1 = 0, a_blocks1 = 0;  // row groups only
        if constexpr (K::kRowGroups) {
          block_col = __shfl_sync(0xffffffffu, mine.col, i);
          a_block = __shfl_sync(0xffffffffu, mine.first, i);
          a_blocks = __popc(__shfl_sync(0xffffffffu, mine.mask, i));
          if constexpr (K::kItemsPerStage == 2) {
            block_col1 = __shfl_sync(0xffffffffu, mine.col, i + 1);  // i + 1 < 32: batches are even
            a_block1 = __shfl_sync(0xffffffffu, mine.first, i + 1);
            a_blocks1 = i + 1 < count ? __popc(__shfl_sync(0xffffffffu, mine.mask, i + 1)) : 0;
          }
        } else {
          block_col = __shfl_sync(0xffffffffu, mine, i);
          a_block = block_at(w, kb0 + i);
        }
        for (int chunk = 0; chunk < p.chunks_per_block; ++chunk) {
          if (lane == 0 && turn == warp) {
            // Wait until the consumers (of both CTAs of a pair) released this slot (first pass:
            // returns at once).
            mbar_wait(ring.empty(stage), phase ^ 1u);
            if constexpr (K::kRowGroups) {  // single CTAs only
              const std::uint32_t a_bytes = static_cast<std::uint32_t>(a_blocks) * K::kBlockBytes;
              const std::uint32_t a_bytes1 = static_cast<std::uint32_t>(a_blocks1) * K::kBlockBytes;
              mbar_arrive_expect_tx(ring.full(stage), K::kItemBBytes * (a_blocks1 > 0 ? 2 : 1) + a_bytes + a_bytes1);
              load_item<K>(p, ring, stage, 0, a_block, a_bytes, block_col, n0, policy);
              if (a_blocks1 > 0) load_item<K>(p, ring, stage, 1, a_block1, a_bytes1, block_col1, n0, policy);
            } else {
              mbar_arrive_expect_tx(ring.full(stage), K::kTxBytes);
              // (KC, R) chunk of block a_block: coordinates (k within block, row, block). In a CTA
              // pair, rank 0 loads it into both CTAs; rank 1's full[] counts those bytes too.
              if (p.cluster == 1)
                tma_load_3d(ring.a(stage), &p.tmap_a, ring.full(stage), chunk * K::KC, 0, a_block, policy);
              else if (loop.rank == 0)
                tma_load_3d_multicast(ring.a(stage), &p.tmap_a, ring.full(stage), chunk * K::KC, 0, a_block, 0x3,
                                      policy);
              load_b_slice<K>(p, ring.b(stage), ring.full(stage), block_col * p.block_c + chunk * K::KC, n0, policy);
            }
          }
          if (++stage == p.stages) {
            stage = 0;
            phase ^= 1u;
          }
          if (++turn == K::kProducerWarps) turn = 0;
        }
      }
    }
  }
}

#endif  // __CUDACC__

}  // namespace bsrflow::sm90
