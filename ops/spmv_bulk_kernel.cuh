// The bulk SpMV kernel (device code; chosen and launched by spmv.cu, instantiated in
// spmv_bulk.cu): y = alpha * A x + beta * y, optionally *dot_result = w . y_out, on sm_90.
//
// The plan cuts the block rows into tiles (partition_block_rows: consecutive block rows of at
// most bulk_values(R, C, sizeof(T)) values and kBulkRows element rows) and records each tile's
// first / end block row and first / end block. A persistent grid takes tiles t = blockIdx.x,
// + gridDim.x, ... Per CTA, lane 0 of the producer warp copies each tile's slices of row_ptr,
// col_idx and values into a ring of kBulkStages shared-memory stages with cp.async.bulk
// (evict-first: each byte is read once), completing on the stage's full barrier; the 8 consumer
// warps wait on it and compute one element row per thread, reading the row's blocks from shared
// memory and gathering x through the read-only path, then release the stage (one arrival per
// warp on its empty barrier).
//
// Why: the team kernel's loads wait on row_ptr and then on each other per warp, and reach 77% /
// 71% of the copy bandwidth on the 1x1 Poisson matrix (f64 / f32, H100); a producer that runs a
// ring ahead keeps ~50 KiB per CTA in flight with one thread's instructions (probe: 88% / 83%,
// tuning_spmv.hpp).
//
// Alignment: a bulk copy moves 16-byte-aligned, whole 16-byte pieces. Each slice lands in a
// "window" whose element 0 sits at the 128-byte boundary at or below the slice's first element
// (kWindowAlign), so consumers find element g of the array at window[g - first + head], head =
// (address of element first mod 128) / element size. The copy covers the slice rounded out to 16 bytes, but
// never past the array's own 16-byte-aligned interior; the elements outside it (under 16 bytes at
// either end of an array whose start or end is not 16-byte aligned) are copied by the producer
// lane itself before it arrives. So any element-aligned pointers work and nothing outside the
// arrays is read.
//
// Arithmetic: each thread sums its element row's products by fma in block order, then column
// order (skipping columns past A.cols), then y_out = alpha * sum (+ beta * y): depends only on the
// pattern, bitwise reproducible; the fused dot through grid_sum over the plan's fixed grid.
#pragma once

#include <cstdint>

#include "bsrflow/ops/sm90_tma.cuh"
#include "bsrflow/ops/spmv_kernel.cuh"
#include "bsrflow/ops/tuning_spmv.hpp"

namespace bsrflow::spmv_detail {

// A window starts at the 128-byte boundary at or below its slice, so that each bulk copy lands at
// the same offset in a 128-byte line as it has in global memory (measured, H100, session 11:
// windows at arbitrary 16-byte offsets ran the f64 1x1 SpMV at 80% of copy, 128-byte-aligned
// windows at 85%).
constexpr int kWindowAlign = 128;

// One stage of the ring. Each window holds its slice, up to 127 bytes before it and 15 after.
template <class T, int R, int C>
struct alignas(kWindowAlign) BulkStage {
  static constexpr int kBlocks = spmv_tuning::bulk_values(R, C, sizeof(T)) / (R * C);  // a tile's blocks at most
  static constexpr int kBlockRows = spmv_tuning::kBulkRows / R;  // a tile's block rows at most
  static constexpr int slack(int element_bytes) { return (kWindowAlign + 16) / element_bytes; }
  alignas(kWindowAlign) T values[kBlocks * R * C + slack(sizeof(T))];
  alignas(kWindowAlign) int cols[kBlocks + slack(4)];
  alignas(kWindowAlign) int row_ptr[kBlockRows + 1 + slack(4)];
  alignas(16) int tile[4];  // first block row, end block row, first block, end block
};

template <class T, int R, int C>
constexpr std::size_t bulk_smem_bytes() {
  return sizeof(BulkStage<T, R, C>) * spmv_tuning::kBulkStages;
}

// Elements [first, last) of `array` (n elements) into `window` (see the header): the part inside
// the array's 16-byte-aligned interior is returned as a bulk copy to issue (after the producer's
// arrive.expect_tx), the rest is stored now with plain loads.
struct BulkCopy {
  std::uintptr_t src = 0;
  unsigned char* dst = nullptr;
  std::uint32_t bytes = 0;
  bool plain = false;  // some elements were stored by plain stores
};

template <class E>
__device__ __forceinline__ BulkCopy stage_window(E* window, const E* array, std::int64_t first, std::int64_t last,
                                                 std::int64_t n) {
  BulkCopy copy;
  if (first >= last) return copy;
  const std::uintptr_t s = reinterpret_cast<std::uintptr_t>(array + first);
  const std::uintptr_t e = reinterpret_cast<std::uintptr_t>(array + last);
  const std::uintptr_t base = s & ~std::uintptr_t{kWindowAlign - 1};
  const std::uintptr_t lo = max(s & ~std::uintptr_t{15}, (reinterpret_cast<std::uintptr_t>(array) + 15) & ~std::uintptr_t{15});
  const std::uintptr_t hi = min((e + 15) & ~std::uintptr_t{15}, reinterpret_cast<std::uintptr_t>(array + n) & ~std::uintptr_t{15});
  unsigned char* const w = reinterpret_cast<unsigned char*>(window);
  if (hi > lo) copy = BulkCopy{lo, w + (lo - base), static_cast<std::uint32_t>(hi - lo), false};
  copy.plain = s < lo || e > hi;
  // Outside [lo, hi): under 16 bytes at the array's start and end (when hi <= lo the whole slice
  // is under 32 bytes; the two loops may then store an element twice, with the same value).
  for (std::uintptr_t a = s; a < min(e, lo); a += sizeof(E)) *reinterpret_cast<E*>(w + (a - base)) = *reinterpret_cast<const E*>(a);
  for (std::uintptr_t a = max(s, hi); a < e; a += sizeof(E)) *reinterpret_cast<E*>(w + (a - base)) = *reinterpret_cast<const E*>(a);
  return copy;
}

// Index of element `first` inside its window.
template <class E>
__device__ __forceinline__ int window_head(const E* array, std::int64_t first) {
  return static_cast<int>((reinterpret_cast<std::uintptr_t>(array + first) & (kWindowAlign - 1)) / sizeof(E));
}

// Producer lane: fills the ring with this CTA's tiles.
template <class T, int R, int C>
__device__ __forceinline__ void bulk_produce(const Params<T>& p, BulkStage<T, R, C>* stages, std::uint64_t* full,
                                             std::uint64_t* empty) {
  constexpr int kStages = spmv_tuning::kBulkStages;
  const std::uint64_t policy = sm90::l2_load_policy(sm90::L2Priority::evict_first);
  const int tiles = p.groups;
  const int stride = static_cast<int>(gridDim.x);
  auto record = [&](int t) { return __ldg(reinterpret_cast<const int4*>(p.tiles) + t); };
  int4 next = static_cast<int>(blockIdx.x) < tiles ? record(static_cast<int>(blockIdx.x)) : int4{};
  unsigned edges_stored = 0;  // bit s: the last fill of stage s stored window elements by plain stores
  int i = 0;
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += stride, ++i) {
    const int4 tile = next;
    if (t + stride < tiles) next = record(t + stride);  // one tile ahead
    const int s = i % kStages;
    if (i >= kStages) sm90::mbar_wait(&empty[s], ((i / kStages) - 1) & 1);
    BulkStage<T, R, C>& st = stages[s];
    // Window elements the last fill stored by plain stores (array edges: the first and last tiles
    // only) are ordered before the async proxy writes the windows again.
    if (edges_stored & (1u << s)) sm90::fence_proxy_async_smem();
    st.tile[0] = tile.x;
    st.tile[1] = tile.y;
    st.tile[2] = tile.z;
    st.tile[3] = tile.w;
    const BulkCopy copies[3] = {
        stage_window(st.row_ptr, p.row_ptr, tile.x, static_cast<std::int64_t>(tile.y) + 1,
                     static_cast<std::int64_t>(p.block_rows) + 1),
        stage_window(st.cols, p.col_idx, tile.z, tile.w, p.nnzb),
        stage_window(st.values, p.values, static_cast<std::int64_t>(tile.z) * (R * C),
                     static_cast<std::int64_t>(tile.w) * (R * C), p.nnzb * (R * C))};
    const bool plain = copies[0].plain || copies[1].plain || copies[2].plain;
    edges_stored = plain ? edges_stored | (1u << s) : edges_stored & ~(1u << s);
    sm90::mbar_arrive_expect_tx(&full[s], copies[0].bytes + copies[1].bytes + copies[2].bytes);
    for (const BulkCopy& c : copies)
      if (c.bytes > 0) sm90::bulk_load(c.dst, reinterpret_cast<const void*>(c.src), c.bytes, &full[s], policy);
  }
}

// Consumer threads (0 .. kBulkConsumerWarps * 32 - 1): their element rows of this CTA's tiles;
// returns this thread's dot terms.
template <class T, int R, int C, class Rows>
__device__ __forceinline__ T bulk_consume(const Params<T>& p, const Rows& rows, const BulkStage<T, R, C>* stages,
                                          std::uint64_t* full, std::uint64_t* empty) {
  constexpr int kStages = spmv_tuning::kBulkStages;
  constexpr int kConsumers = spmv_tuning::kBulkConsumerWarps * 32;
  constexpr int kBatch = spmv_tuning::bulk_batch(C);  // blocks whose x gathers are in flight together
  const int tiles = p.groups;
  const int stride = static_cast<int>(gridDim.x);
  T dot_terms = T(0);
  int i = 0;
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += stride, ++i) {
    const int s = i % kStages;
    sm90::mbar_wait(&full[s], (i / kStages) & 1);
    const BulkStage<T, R, C>& st = stages[s];
    const int first_row = st.tile[0], end_row = st.tile[1], first_block = st.tile[2];
    const int head_rp = window_head(p.row_ptr, first_row);
    const int head_col = window_head(p.col_idx, first_block);
    const int head_val = window_head(p.values, static_cast<std::int64_t>(first_block) * (R * C));
    // Element rows of the tile, the last block row clipped at A.rows.
    const int element_rows =
        static_cast<int>(min(static_cast<std::int64_t>(end_row - first_row) * R,
                             static_cast<std::int64_t>(p.rows) - static_cast<std::int64_t>(first_row) * R));
    for (int j = static_cast<int>(threadIdx.x); j < element_rows; j += kConsumers) {
      const int local_row = j / R, r = j - local_row * R;
      const int begin = st.row_ptr[head_rp + local_row] - first_block;
      const int end = st.row_ptr[head_rp + local_row + 1] - first_block;
      T acc = T(0);
      for (int k0 = begin; k0 < end; k0 += kBatch) {
        // Unused slots hold v = -0 and x = +0, whose product -0 leaves any sum unchanged (also -0
        // and NaN), so the fmas need no predicate and the compiler issues every gather of the
        // batch before the first fma. Predicated fmas let it put each fma right behind its own
        // gather; measured (H100, session 11, spmv_bench, % of copy) that costs 2x2 / 3x3 / 4x4
        // 1-10 points and the f64 1x1 fused dot 7, but gains f32 1x1 ~1 (82.9 vs 81.8 with the
        // 128-byte windows, perf_log_spmv.md entry 4): kept there.
        constexpr bool kPredicatedFma = sizeof(T) == 4 && R * C == 1;
        T v[kBatch][C], xv[kBatch][C];
        bool use[kBatch][C];
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
          const bool in_row = k0 + b < end;
          const int col = in_row ? st.cols[head_col + k0 + b] : -1;
#pragma unroll
          for (int c = 0; c < C; ++c) {
            // As the team kernel: 32-bit column arithmetic, anything >= cols (padding, an
            // invalid block column) contributes nothing.
            const unsigned xi = static_cast<unsigned>(col) * C + c;
            use[b][c] = in_row && xi < static_cast<unsigned>(p.cols);
            v[b][c] = use[b][c] ? st.values[head_val + (k0 + b) * (R * C) + r * C + c] : T(-0.0);
            xv[b][c] = use[b][c] ? rows.x(xi) : T(0);
          }
        }
#pragma unroll
        for (int b = 0; b < kBatch; ++b)
#pragma unroll
          for (int c = 0; c < C; ++c)
            if (!kPredicatedFma || use[b][c]) acc = fma(v[b][c], xv[b][c], acc);
      }
      dot_terms += rows.finish(static_cast<std::int64_t>(first_row) * R + j, acc);
    }
    __syncwarp();
    if ((threadIdx.x & 31) == 0) sm90::mbar_arrive(&empty[s]);
  }
  return dot_terms;
}

// kFusedDot: the same, then grid_sum of the dot terms (every thread of every CTA arrives there).
template <class T, int R, int C, bool kFusedDot>
__global__ void __launch_bounds__(spmv_tuning::kBulkThreads, spmv_tuning::bulk_min_ctas_per_sm(sizeof(T)))
    spmv_bulk_kernel(const Params<T> p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // cp.async.bulk: never launched there (choose_spmv_config)
#else
  using Stage = BulkStage<T, R, C>;
  constexpr int kStages = spmv_tuning::kBulkStages;
  extern __shared__ __align__(kWindowAlign) unsigned char bulk_smem[];
  __shared__ std::uint64_t full[kStages], empty[kStages];
  Stage* const stages = reinterpret_cast<Stage*>(bulk_smem);
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      sm90::mbar_init(&full[s], 1);
      sm90::mbar_init(&empty[s], spmv_tuning::kBulkConsumerWarps);
    }
    sm90::mbar_fence_init();
  }
  __syncthreads();
  const PlainRows<T> rows{p, p.alpha.get(), p.beta.get()};
  T dot_terms = T(0);
  if (threadIdx.x / 32 == spmv_tuning::kBulkConsumerWarps) {
    if (threadIdx.x % 32 == 0) bulk_produce<T, R, C>(p, stages, full, empty);
  } else {
    dot_terms = bulk_consume<T, R, C>(p, rows, stages, full, empty);
  }
  if constexpr (kFusedDot) {
    const T mine[1] = {dot_terms};
    T total[1];
    if (grid_sum<spmv_tuning::kBulkThreads, 1>(mine, p.dot_ws, total) && threadIdx.x == 0) *p.dot_result = total[0];
  }
#endif
}

}  // namespace bsrflow::spmv_detail
