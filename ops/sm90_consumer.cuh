// Consumer warpgroups of the Hopper BSR GEMM: for each tile, wait for ring stages, run the wgmma
// of that stage on tensor cores (one group in flight, so a stage is released one stage late),
// then hand the f32 accumulators to the epilogue. Direct kernels with 16-bit row-major output hold
// a tile's output in registers and store it a chunk per stage of the next tile (HeldOutput).
// Row-group kernels keep one accumulator set per row of the group and run, per item (two per stage
// at 16 x 16), the wgmma of the rows it carries.
#pragma once

#include <bit>
#include <cstdint>

#include "bsrflow/ops/sm90_epilogue.cuh"
#include "bsrflow/ops/sm90_gemm_params.hpp"
#include "bsrflow/ops/sm90_producer.cuh"
#include "bsrflow/ops/sm90_schedule.cuh"
#include "bsrflow/ops/sm90_tma.cuh"
#include "bsrflow/ops/sm90_wgmma.cuh"

namespace bsrflow::sm90 {

#if defined(__CUDACC__)

// A consumer warpgroup's accumulators: one (64 x wgmma-N) f32 set per m-tile, per row of a group.
template <class K>
using Accumulators = float[K::G][K::kMTiles][K::kAccPerTile];

template <class K>
__device__ __forceinline__ void fence_accumulators(Accumulators<K>& acc) {
#pragma unroll
  for (int r = 0; r < K::G; ++r)
#pragma unroll
    for (int mt = 0; mt < K::kMTiles; ++mt) fence_operands(acc[r][mt]);
}

// Low words (start address / 16, leading byte offset) of this warpgroup's wgmma descriptors for
// ring stage 0 at k-step 0: the A chunk (direct: the warpgroup's 64 rows at R = 128) and the B
// slice at the warpgroup's first column. A stage, a row group's block and a k-step only move the
// start address, so every descriptor of the main loop is one of these plus an offset / 16 in its
// low word, beside a constant high word (stride offset, swizzle). Shared addresses stay below 2^18,
// so the start-address field (bits 0-13) never carries into the leading offset.
struct StageDescriptors {
  std::uint32_t a_lo;
  std::uint32_t b_lo;
};

template <class K>
__device__ __forceinline__ StageDescriptors stage_descriptors(const Ring<K>& ring, int wg) {
  const std::uint32_t a_base = smem_addr(ring.a(0));  // (R, KC) A chunk, K-major
  const std::uint32_t b_base = smem_addr(ring.b(0));  // (KC, SW) B slice
  const int a_row = (!K::kSwap && K::R == 128) ? wg * 64 : 0;
  const int b_col = (!K::kSwap && K::R == 128) ? 0 : wg * K::kWgCols;
  return {static_cast<std::uint32_t>(K::desc_k_major(a_base + a_row * K::kRowBytesK)),
          static_cast<std::uint32_t>(K::desc_b(b_base + K::b_offset(b_col, 0)))};
}

// Issues the wgmma of one stage for a consumer warpgroup: KC / 16 k-steps, against the A chunk
// `a_offset` bytes into the stage's A area (row groups: the item's block of this row).
// `stage_step` is the stage's byte offset / 16 (stage * kStageBytes / 16). Building descriptors
// from addresses in 64 bits took ~10 uniform instructions per wgmma, which bounded the row-group
// consumers (perf_log entries 49-50); here each descriptor is one 32-bit add.
// Row groups: `Slot` is the item's place in its stage (KernelTraits::kItemsPerStage).
template <class K, std::uint32_t a_offset = 0, int Slot = 0>
__device__ __forceinline__ void mma_stage(float (&acc)[K::kMTiles][K::kAccPerTile], StageDescriptors d,
                                          std::uint32_t stage_step) {
  constexpr std::uint32_t a_hi = K::kDescHiK;
  constexpr std::uint32_t b_hi = K::kDescHiB;
  constexpr std::uint32_t a_slot = Slot * K::kItemABytes;
  constexpr std::uint32_t b_slot = Slot * K::kItemBBytes / 16;
#pragma unroll
  for (int ks = 0; ks < K::KC / 16; ++ks) {
    const std::uint64_t desc_a_chunk = desc_from_words(d.a_lo + stage_step + (a_slot + a_offset + ks * 32) / 16, a_hi);
    if constexpr (!K::kSwap) {
      // (64, wg cols) += (64, 16) A rows x (16, wg cols) B
      const std::uint64_t db = desc_from_words(d.b_lo + stage_step + K::b_offset(0, ks) / 16, b_hi);
      mma_m64k16<K::kBf16, K::kMmaN, 0, K::kTransB>(acc[0], desc_a_chunk, db, 1);
    } else {
      // (64 swath cols, R) += (64, 16) B^T x (16, R) A^T, per 64-column m-tile; the A chunk is
      // read K-major as wgmma-B.
#pragma unroll
      for (int mt = 0; mt < K::kMTiles; ++mt) {
        const std::uint64_t da = desc_from_words(d.b_lo + stage_step + b_slot + K::b_offset(mt * 64, ks) / 16, b_hi);
        mma_m64k16<K::kBf16, K::kMmaN, K::kTransB, 0>(acc[mt], da, desc_a_chunk, 1);
      }
    }
  }
}

// A row group's item with row mask M (compile time) in slot Slot of its stage: the wgmma sets of the
// rows present, against the item's blocks in row order, then the commit - in one straight-line block.
// ptxas closes a hardware wgmma group at every branch, so conditional per-row sets followed by
// one commit left 2-5 groups per item and wait<1> then waited for the item's own sets: every item
// ran its wgmma to completion before the next (ncu, session 27 call 3: the row-group kernel
// consumer-bound at 1.17 ms against its 0.90 ms probe).
template <class K, unsigned M, int Slot, int r = 0>
__device__ __forceinline__ void mma_item_rows(Accumulators<K>& acc, StageDescriptors d, std::uint32_t stage_step) {
  if constexpr (r == K::G) {
    wgmma_commit();
    fence_accumulators<K>(acc);
  } else {
    // Row r's block follows the blocks of the rows below it that the item carries.
    if constexpr ((M >> r) & 1u)
      mma_stage<K, std::popcount(M & ((1u << r) - 1u)) * K::kBlockBytes, Slot>(acc[r], d, stage_step);
    mma_item_rows<K, M, Slot, r + 1>(acc, d, stage_step);
  }
}
// The i-th non-empty row mask of a g-row group, fewest rows first.
constexpr unsigned mask_by_rows(int i, int g) {
  for (int rows = 1; rows <= g; ++rows)
    for (unsigned m = 1; m < (1u << g); ++m)
      if (std::popcount(m) == rows && i-- == 0) return m;
  return 0;
}
// Every non-empty mask once, fewest rows first: a mask left out would skip its items' wgmma silently.
constexpr bool masks_enumerated(int g) {
  for (int i = 0; i < (1 << g) - 1; ++i) {
    const unsigned m = mask_by_rows(i, g);
    if (m == 0 || (i > 0 && std::popcount(m) < std::popcount(mask_by_rows(i - 1, g)))) return false;
    for (int j = 0; j < i; ++j)
      if (mask_by_rows(j, g) == m) return false;
  }
  return true;
}
// Dispatches a run-time row mask (never 0) to its straight-line block, testing one-row masks
// first: on uniform rows at 12.5% density 81% of the items carry one row.
template <class K, int Slot, int i = 0>
__device__ __forceinline__ void mma_item(Accumulators<K>& acc, StageDescriptors d, std::uint32_t stage_step,
                                         unsigned mask) {
  static_assert(i > 0 || masks_enumerated(K::G), "the dispatch must reach every row mask");
  if constexpr (i < (1 << K::G) - 1) {
    constexpr unsigned M = mask_by_rows(i, K::G);
    if (mask == M) mma_item_rows<K, M, Slot>(acc, d, stage_step);
    else mma_item<K, Slot, i + 1>(acc, d, stage_step, mask);
  }
}
// A row-group stage: its items' wgmma, one group each (a second slot may be empty at a tile's end),
// then the wait that retires the previous stage's groups.
template <class K>
__device__ __forceinline__ void mma_items(Accumulators<K>& acc, StageDescriptors d, std::uint32_t stage_step,
                                          unsigned mask0, unsigned mask1) {
  mma_item<K, 0>(acc, d, stage_step, mask0);
  if constexpr (K::kItemsPerStage == 2) {
    if (mask1 != 0) {
      mma_item<K, 1>(acc, d, stage_step, mask1);
      wgmma_wait<2>();
      return;
    }
  }
  wgmma_wait<1>();
}

// Row groups: lane `lane`'s item row mask of the batch of up to 32 items from walk position `begin`
// of tile `w` (0 past its end). Fetched a batch ahead, like the producer's records, so that no
// item waits on a dependent global load.
__device__ __forceinline__ int mask_batch(const GemmParams& p, const TileWork& w, int begin, int lane) {
  return lane < w.kb_end - begin ? __ldg(&p.items[block_at(w, begin + lane)].mask) : 0;
}

// Row groups: the block row of group row `lane` of tile `w` (lanes < G; -1 for none), fetched a
// tile ahead like the item masks.
template <class K>
__device__ __forceinline__ int group_rows_of(const GemmParams& p, const TileWork& w, int lane) {
  return lane < K::G ? __ldg(p.group_rows + w.row * K::G + lane) : -1;
}

// Row r of row group tile `w`, block row `block_row`: its partial tile when the piece is split
// (each schedule slot holds G partial tiles of R rows, row r's at slot * G + r).
template <class K>
__device__ __forceinline__ TileWork group_row(const TileWork& w, int r, int block_row) {
  TileWork row = w;
  row.row = block_row;
  row.slot = w.slot < 0 ? -1 : w.slot * K::G + r;
  return row;
}

// Releases stage s: one arrival per warpgroup on empty[s] of every CTA in the cluster (the peer's
// producer multicasts A into this CTA's stage s too).
__device__ __forceinline__ void release_stage(std::uint64_t* empty, int cluster, int rank) {
  mbar_arrive(empty);
  if (cluster == 2) mbar_arrive_cluster(empty, static_cast<std::uint32_t>(rank ^ 1));
}

// Tells the fix-up kernel that this warpgroup's part of a partial tile of split tile `split` is in
// global memory (split_ready[split] += 1, release at GPU scope). Called by all 128 threads of the
// warpgroup. TMA-stored partials (`tma_partials`) are the issuer's bulk groups: its wait for their
// completion and the proxy fence order them before its release, and no other thread wrote any.
// Partials stored by every thread (the generic and swap-AB epilogues) are ordered before it by the
// warpgroup's barrier (release is cumulative over what the barrier ordered). One release by one
// thread: a __threadfence by each thread, a barrier and a second fence measured 0.3% slower at 128
// power-law and 1.7% at 4096^3 (perf_log entry 63).
__device__ __forceinline__ void signal_split(const GemmParams& p, int split, int wg, bool issuer, bool tma_partials) {
  if (!tma_partials) named_barrier_sync(1 + wg, 128);
  if (issuer) {
    bulk_wait_group<0>();  // the TMA stores have written global memory, not only read the buffers
    fence_proxy_async_global();
    red_add_release_gpu(p.split_ready + split, 1);
  }
}

// Run by the 128 threads of consumer warpgroup `wg`; `warp` is the warp within the warpgroup.
template <class K>
__device__ void consume(const GemmParams& p, const Ring<K>& ring, const TileLoop& loop, int wg, int warp, int lane) {
  const bool releaser = warp == 0 && lane == 0;  // one arrival per warpgroup on empty[]
  const bool tma_partials = K::kTmaPartials && p.tma_partials != 0;  // split pieces' partials: TMA stores
  int stage = 0;
  std::uint32_t phase = 0;
  Accumulators<K> acc;                    // this warpgroup's part of the tile (per group row)
  const StageDescriptors descs = stage_descriptors<K>(ring, wg);
  int epi_count = 0;                       // epilogue chunks stored so far (double-buffer parity)
  unsigned char* const epi_bufs = reinterpret_cast<unsigned char*>(ring.epi(wg));
  HeldOutput<K> held;                      // direct, 16-bit row-major C: the previous tile's part
  int pending_split = -1;                  // split tile of the previous tile's partials, not yet signalled
  TileWork next = loop.first < loop.end ? tile_work(p, loop, loop.first) : TileWork{};
  int next_masks = 0;  // row groups: the next tile's first batch of item masks
  int next_rows = -1;  // row groups: the next tile's block rows, one per lane < G
  if constexpr (K::kRowGroups) {
    next_masks = mask_batch(p, next, next.kb_begin, lane);
    if (loop.first < loop.end) next_rows = group_rows_of<K>(p, next, lane);
  }
  for (int t = loop.first; t < loop.end; ++t) {
    const TileWork w = next;
    next = next_tile_work(p, loop, t);
    const int iters = (w.kb_end - w.kb_begin) * p.chunks_per_block;
    int masks = 0, later_masks = 0;  // row groups: this batch of item masks, and the one after it
    int rows = -1;                   // row groups: this tile's block rows, one per lane < G
    if constexpr (K::kRowGroups) {
      masks = next_masks;
      rows = next_rows;
      later_masks = mask_batch(p, w, w.kb_begin + 32, lane);
      next_masks = mask_batch(p, next, next.kb_begin, lane);
      if (t + 1 < loop.end) next_rows = group_rows_of<K>(p, next, lane);
    }
    // Loaded now, used a tile later: its latency stays off the path.
    const int split_here = (!K::kCopyOnly && w.slot >= 0 && p.split_ready != nullptr) ? p.split_of_slot[w.slot] : -1;
#pragma unroll
    for (int r = 0; r < K::G; ++r)
#pragma unroll
      for (int mt = 0; mt < K::kMTiles; ++mt)
#pragma unroll
        for (int i = 0; i < K::kAccPerTile; ++i) acc[r][mt][i] = 0.0f;

    int prev_stage = 0;
    // Stages in batches of 32 blocks or items (row groups: one item mask per lane, two items per
    // stage), so that the per-stage path holds no batch bookkeeping.
    for (int batch = 0; batch < iters; batch += 32) {
      if constexpr (K::kRowGroups) {
        if (batch > 0) {
          masks = later_masks;
          later_masks = mask_batch(p, w, w.kb_begin + batch + 32, lane);
        }
      }
      const int batch_count = iters - batch < 32 ? iters - batch : 32;
      for (int j = 0; j < batch_count; j += K::kItemsPerStage) {
        // Row groups: the rows of this stage's items (0 for an empty second slot; j + 1 < 32).
        unsigned mask0 = 0, mask1 = 0;
        if constexpr (K::kRowGroups) mask0 = static_cast<unsigned>(__shfl_sync(0xffffffffu, masks, j));
        if constexpr (K::kItemsPerStage == 2) mask1 = static_cast<unsigned>(__shfl_sync(0xffffffffu, masks, j + 1));
        mbar_wait(ring.full(stage), phase);
        if constexpr (!K::kCopyOnly) {
          fence_accumulators<K>(acc);
          wgmma_fence();
          const std::uint32_t stage_step = static_cast<std::uint32_t>(stage) * (K::kStageBytes / 16);
          if constexpr (K::kRowGroups) {
            mma_items<K>(acc, descs, stage_step, mask0, mask1);
          } else {
            mma_stage<K>(acc[0], descs, stage_step);
            wgmma_commit();
            fence_accumulators<K>(acc);
            // The previous tile's held output, a chunk per stage while this stage's wgmma run.
            if constexpr (!K::kSwap) {
              if (held.left > 0) store_held_chunk<K>(p, held, epi_bufs, wg, warp, lane, epi_count);
            }
            // One stage's wgmma in flight while the next stage is awaited: once the previous
            // stage's group has retired, its shared memory may be reused. (Two stages in flight,
            // for row groups, measured 1-3% slower: perf_log entry 49; a two-item row-group stage
            // is two groups, one per item, so mma_items waits with wait_group 2 instead.)
            wgmma_wait<1>();
          }
          fence_accumulators<K>(acc);
        }
        if ((batch | j) != 0 && releaser) release_stage(ring.empty(prev_stage), p.cluster, loop.rank);
        prev_stage = stage;
        if (++stage == p.stages) {
          stage = 0;
          phase ^= 1u;
        }
      }
    }
    if constexpr (!K::kCopyOnly) {
      wgmma_wait<0>();
      fence_accumulators<K>(acc);
    }
    if (iters > 0 && releaser) release_stage(ring.empty(prev_stage), p.cluster, loop.rank);
    // What the previous tile's held output did not store under this tile's stages.
    if constexpr (!K::kSwap && !K::kCopyOnly) store_held<K>(p, held, epi_bufs, wg, warp, lane, epi_count);
    // The previous tile's partial tile (if it was a split piece) has had this tile's main loop to
    // reach global memory: waiting for it costs nothing now. Signalling a few stages into the loop
    // instead stalled the MMAs and measured slower (perf_log entry 35).
    if (pending_split >= 0) {
      signal_split(p, pending_split, wg, releaser, tma_partials);
      pending_split = -1;
    }
    // A phantom swath (past N, odd swath count in a CTA pair) kept the pair in step; no output.
    if constexpr (!K::kCopyOnly) {
      if (w.swath < p.num_swaths) {
        if constexpr (K::kRowGroups) {
#pragma unroll
          for (int r = 0; r < K::G; ++r) {  // the last group may be partial (rows of -1)
            const int block_row = __shfl_sync(0xffffffffu, rows, r);
            if (block_row >= 0)
              epilogue<K>(p, group_row<K>(w, r, block_row), acc[r], epi_bufs, wg, warp, lane, epi_count, held);
          }
        } else {
          epilogue<K>(p, w, acc[0], epi_bufs, wg, warp, lane, epi_count, held);
        }
      }
    }
    pending_split = split_here;  // a phantom swath's piece counts too: the fix-up waits for every rank
  }
  if constexpr (!K::kSwap && !K::kCopyOnly) store_held<K>(p, held, epi_bufs, wg, warp, lane, epi_count);
  if (pending_split >= 0) signal_split(p, pending_split, wg, releaser, tma_partials);
  // TMA stores still reading the staging buffers must finish before the CTA's shared memory goes.
  if (releaser) bulk_wait_group<0>();
}

#endif  // __CUDACC__

}  // namespace bsrflow::sm90
