// Consumer warpgroups of the Hopper BSR GEMM: for each tile, wait for ring stages, run the wgmma
// of that stage on tensor cores (one group in flight, so a stage is released one stage late),
// then hand the f32 accumulators to the epilogue.
#pragma once

#include <cstdint>

#include "bsrflow/ops/sm90_epilogue.cuh"
#include "bsrflow/ops/sm90_gemm_params.hpp"
#include "bsrflow/ops/sm90_producer.cuh"
#include "bsrflow/ops/sm90_schedule.cuh"
#include "bsrflow/ops/sm90_tma.cuh"
#include "bsrflow/ops/sm90_wgmma.cuh"

namespace bsrflow::sm90 {

#if defined(__CUDACC__)

template <class K>
__device__ __forceinline__ void fence_accumulators(float (&acc)[K::kMTiles][K::kAccPerTile]) {
#pragma unroll
  for (int mt = 0; mt < K::kMTiles; ++mt) fence_operands(acc[mt]);
}

// Issues the wgmma of one stage for consumer warpgroup `wg` (0 or 1): KC / 16 k-steps.
template <class K>
__device__ __forceinline__ void mma_stage(float (&acc)[K::kMTiles][K::kAccPerTile], const Ring<K>& ring, int stage,
                                          int wg) {
  const std::uint32_t a_base = smem_addr(ring.a(stage));  // (R, KC) A chunk, K-major
  const std::uint32_t b_base = smem_addr(ring.b(stage));  // (KC, SW) B slice
#pragma unroll
  for (int ks = 0; ks < K::KC / 16; ++ks) {
    if constexpr (!K::kSwap) {
      // (64, wg cols) += (64, 16) A rows x (16, wg cols) B
      const int row_off = K::R == 128 ? wg * 64 : 0;
      const int col_off = K::R == 128 ? 0 : wg * K::kWgCols;
      const std::uint64_t da = K::desc_k_major(a_base + row_off * K::kRowBytesK + ks * 32);
      const std::uint32_t b_addr = b_base + K::b_offset(col_off, ks);
      const std::uint64_t db = K::kBColMajor ? K::desc_k_major(b_addr) : K::desc_mn_major(b_addr);
      mma_m64k16<K::kBf16, K::kMmaN, 0, K::kTransB>(acc[0], da, db, 1);
    } else {
      // (64 swath cols, R) += (64, 16) B^T x (16, R) A^T, per 64-column m-tile
      const std::uint64_t db = K::desc_k_major(a_base + ks * 32);  // A chunk read K-major as wgmma-B
#pragma unroll
      for (int mt = 0; mt < K::kMTiles; ++mt) {
        const std::uint32_t b_addr = b_base + K::b_offset(wg * K::kWgCols + mt * 64, ks);
        const std::uint64_t da = K::kBColMajor ? K::desc_k_major(b_addr) : K::desc_mn_major(b_addr);
        mma_m64k16<K::kBf16, K::kMmaN, K::kTransB, 0>(acc[mt], da, db, 1);
      }
    }
  }
}

// Releases stage s: one arrival per warpgroup on empty[s] of every CTA in the cluster (the peer's
// producer multicasts A into this CTA's stage s too).
__device__ __forceinline__ void release_stage(std::uint64_t* empty, int cluster, int rank) {
  mbar_arrive(empty);
  if (cluster == 2) mbar_arrive_cluster(empty, static_cast<std::uint32_t>(rank ^ 1));
}

// Tells the fix-up kernel that this warpgroup's part of a partial tile of split tile `split` is in
// global memory (split_ready[split] += 1, release). Run by all 128 threads of the warpgroup: their
// own stores (the general epilogue) and the issuer's TMA stores are complete first.
__device__ __forceinline__ void signal_split(const GemmParams& p, int split, int wg, bool issuer) {
  __threadfence();
  named_barrier_sync(1 + wg, 128);
  if (issuer) {
    bulk_wait_group<0>();  // the TMA stores have written global memory, not only read the buffers
    fence_proxy_async_global();
    __threadfence();
    atomicAdd(p.split_ready + split, 1);
  }
}

// Run by the 128 threads of consumer warpgroup `wg`; `warp` is the warp within the warpgroup.
template <class K>
__device__ void consume(const GemmParams& p, const Ring<K>& ring, const TileLoop& loop, int wg, int warp, int lane) {
  const bool releaser = warp == 0 && lane == 0;  // one arrival per warpgroup on empty[]
  int stage = 0;
  std::uint32_t phase = 0;
  float acc[K::kMTiles][K::kAccPerTile];  // (64 x wgmma-N) f32 per m-tile, this warpgroup's part
  int epi_count = 0;                       // epilogue chunks stored so far (double-buffer parity)
  int pending_split = -1;                  // split tile of the previous tile's partials, not yet signalled
  TileWork next = loop.first < loop.end ? tile_work(p, loop, loop.first) : TileWork{};
  for (int t = loop.first; t < loop.end; ++t) {
    const TileWork w = next;
    next = next_tile_work(p, loop, t);
    const int iters = (w.kb_end - w.kb_begin) * p.chunks_per_block;
    // Loaded now, used a tile later: its latency stays off the path.
    const int split_here = (!K::kCopyOnly && w.slot >= 0 && p.split_ready != nullptr) ? p.split_of_slot[w.slot] : -1;
#pragma unroll
    for (int mt = 0; mt < K::kMTiles; ++mt)
#pragma unroll
      for (int i = 0; i < K::kAccPerTile; ++i) acc[mt][i] = 0.0f;

    int prev_stage = 0;
    for (int it = 0; it < iters; ++it) {
      mbar_wait(ring.full(stage), phase);
      if constexpr (!K::kCopyOnly) {
        fence_accumulators<K>(acc);
        wgmma_fence();
        mma_stage<K>(acc, ring, stage, wg);
        wgmma_commit();
        fence_accumulators<K>(acc);
        wgmma_wait<1>();  // the previous stage's group has retired: its smem may be reused
        fence_accumulators<K>(acc);
      }
      if (it > 0 && releaser) release_stage(ring.empty(prev_stage), p.cluster, loop.rank);
      prev_stage = stage;
      if (++stage == p.stages) {
        stage = 0;
        phase ^= 1u;
      }
    }
    if constexpr (!K::kCopyOnly) {
      wgmma_wait<0>();
      fence_accumulators<K>(acc);
    }
    if (iters > 0 && releaser) release_stage(ring.empty(prev_stage), p.cluster, loop.rank);
    // The previous tile's partial tile (if it was a split piece) has had this tile's main loop to
    // reach global memory: waiting for it costs nothing now. Signalling a few stages into the loop
    // instead stalled the MMAs and measured slower (perf_log entry 35).
    if (pending_split >= 0) {
      signal_split(p, pending_split, wg, releaser);
      pending_split = -1;
    }
    // A phantom swath (past N, odd swath count in a CTA pair) kept the pair in step; no output.
    if constexpr (!K::kCopyOnly)
      if (w.swath < p.num_swaths)
        epilogue<K>(p, w, acc, reinterpret_cast<unsigned char*>(ring.epi(wg)), wg, warp, lane, epi_count);
    pending_split = split_here;  // a phantom swath's piece counts too: the fix-up waits for every rank
  }
  if (pending_split >= 0) signal_split(p, pending_split, wg, releaser);
  // TMA stores still reading the staging buffers must finish before the CTA's shared memory goes.
  if (releaser) bulk_wait_group<0>();
}

#endif  // __CUDACC__

}  // namespace bsrflow::sm90
