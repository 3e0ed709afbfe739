// The skinny BSR x dense GEMM kernel: C = alpha * A_bsr * B + beta * C for N <= 64 (a tile of
// 16, 32 or 64 columns covers all of N), where the product is bound by streaming A's blocks, not
// by math. One CTA of kWarps = 8 warps per piece of a block row (sm90::build_pieces):
//
// - Loads: every thread issues 16-byte cp.async copies of the piece's A blocks and, for each
//   block, the C x width slice of B under its block column (zero-filled past K and N) into a
//   kStages-deep ring; small blocks share a stage (blocks_per_stage). Tiles are swizzled in
//   128-byte lines (sm80::swizzled_chunk) so ldmatrix reads them without bank conflicts.
// - Math: mma.sync m16n8k16 (f16/bf16 in, f32 accumulate). A warp owns one 16-row strip of the
//   block row times the whole width; the kWarps / (R / 16) warps of a strip split its k16 steps
//   round-robin and add their accumulators through shared memory in warp order afterwards
//   (deterministic). Eight warps: the kernel is bound by how many loads are in flight and by
//   instruction latency, not by math, so it wants threads.
// - Output: a whole row writes C directly; pieces of a split row write raw f32 partial tiles,
//   and the CTA that finishes its row last (a ticket counter, which it resets) sums them in slot
//   order and writes C. One launch, no atomics on values: runs are bitwise reproducible.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "bsrflow/ops/mma_sm80.cuh"
#include "bsrflow/ops/skinny_params.hpp"
#include "bsrflow/ops/tuning_skinny.hpp"

namespace bsrflow::skinny {

template <class T>
__device__ __forceinline__ float to_float(T v) {
  if constexpr (std::is_same_v<T, float>) return v;
  else if constexpr (std::is_same_v<T, __half>) return __half2float(v);
  else return __bfloat162float(v);
}
template <class T>
__device__ __forceinline__ T from_float(float v) {
  if constexpr (std::is_same_v<T, float>) return v;
  else if constexpr (std::is_same_v<T, __half>) return __float2half_rn(v);
  else return __float2bfloat16_rn(v);
}

__device__ __forceinline__ int log2_of(int power_of_two) { return 31 - __clz(power_of_two); }

template <class TOut>
__device__ __forceinline__ void store_c(const Params& p, int row, int col, float acc) {
  TOut* c = static_cast<TOut*>(p.c);
  const std::int64_t at = p.c_col_major ? static_cast<std::int64_t>(col) * p.ldc + row
                                        : static_cast<std::int64_t>(row) * p.ldc + col;
  float v = p.alpha * acc;
  if (p.beta != 0.0f) v += p.beta * to_float(c[at]);  // C is not read when beta == 0
  c[at] = from_float<TOut>(v);
}

template <class TIn, class TOut, bool BColMajor, int NT>
__global__ void __launch_bounds__(kThreads, min_ctas_per_sm(NT)) skinny_gemm_kernel(const __grid_constant__ Params p) {
  constexpr int W = NT * 8;  // tile width
  constexpr int kLogW8 = NT == 2 ? 1 : NT == 4 ? 2 : 3;
  static_assert(NT == 2 || NT == 4 || NT == 8, "tile widths 16, 32, 64");
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ int last_of_row;

  const int tid = static_cast<int>(threadIdx.x), warp = tid >> 5, lane = tid & 31;
  const sm90::Piece piece = p.pieces[blockIdx.x];
  const int R = p.R, C = p.C, bps = p.blocks_per_stage;
  const int log_c8 = log2_of(C) - 3;               // 16-byte chunks per A row: C / 8
  const int log_a_chunks = log2_of(R) + log_c8;    // per A block
  const int log_b_chunks = log2_of(C) + kLogW8;    // per B slice (C x W either way)
  const std::uint32_t a_bytes = static_cast<std::uint32_t>(R * C * 2);
  const std::uint32_t b_bytes = static_cast<std::uint32_t>(C * W * 2);
  const std::uint32_t stage_bytes = static_cast<std::uint32_t>(bps) * (a_bytes + b_bytes);
  const std::uint32_t ring = sm80::smem_addr(smem);
  const TIn* values = static_cast<const TIn*>(p.values);
  const TIn* B = static_cast<const TIn*>(p.b);
  const int nstages = (piece.kb_end - piece.kb_begin + bps - 1) / bps;

  auto load_stage = [&](int s) {
    const int first = piece.kb_begin + s * bps;
    const int count = min(bps, piece.kb_end - first);
    const std::uint32_t a_base = ring + static_cast<std::uint32_t>(s % kStages) * stage_bytes;
    const std::uint32_t b_base = a_base + static_cast<std::uint32_t>(bps) * a_bytes;
    // The stage's blocks are consecutive in `values`: one contiguous range.
    const TIn* a_src = values + static_cast<std::int64_t>(first) * (R * C);
    const int a_mask = (1 << log_a_chunks) - 1;
    for (int i = tid; i < (count << log_a_chunks); i += kThreads) {
      const std::uint32_t q = static_cast<std::uint32_t>(i & a_mask);
      sm80::cp_async_16(a_base + (i >> log_a_chunks) * a_bytes + sm80::swizzled_chunk(q, log_c8), a_src + i * 8, 16);
    }
    const int b_mask = (1 << log_b_chunks) - 1;
    for (int i = tid; i < (count << log_b_chunks); i += kThreads) {
      const int blk = i >> log_b_chunks;
      const std::uint32_t q = static_cast<std::uint32_t>(i & b_mask);
      const int k0 = __ldg(p.col_idx + first + blk) * C;
      const TIn* src = B;  // any valid address when nothing is read
      int bytes = 0;
      std::uint32_t offset;
      if constexpr (BColMajor) {  // slice = W columns of C contiguous k
        const int n = static_cast<int>(q >> log_c8);
        const int k = k0 + static_cast<int>((q & ((1u << log_c8) - 1)) << 3);
        if (n < p.n && k < p.k) {
          bytes = min(16, (p.k - k) * 2);
          src = B + static_cast<std::int64_t>(n) * p.ldb + k;
        }
        offset = sm80::swizzled_chunk(q, log_c8);
      } else {  // slice = C rows of W contiguous columns
        const int k = k0 + static_cast<int>(q >> kLogW8);
        const int n = static_cast<int>((q & ((1u << kLogW8) - 1)) << 3);
        if (k < p.k && n < p.n) {  // N % 8 == 0: a chunk is all in or all out
          bytes = 16;
          src = B + static_cast<std::int64_t>(k) * p.ldb + n;
        }
        offset = sm80::swizzled_chunk(q, kLogW8);
      }
      sm80::cp_async_16(b_base + blk * b_bytes + offset, src, bytes);
    }
  };

  // Warp roles: one strip of 16 rows each; the warps of a strip (k-groups) split its k16 steps.
  static_assert(kWarps == 8, "R <= 128: at most eight strips, one per warp");
  const int strips = R >> 4;
  const int kgroups = kWarps / strips;
  const int strip = warp % strips;
  const int kgroup = warp / strips;
  // ldmatrix lane addressing: row within a 16-row (or 16-k) group, and which 8-wide half.
  const int lane_row = (lane & 7) + ((lane >> 3) & 1) * 8;
  const int lane_half = lane >> 4;
  const int lane_n = (lane & 7) + (lane >> 4) * 8;  // column-major B: n row within a tile pair
  const int lane_khalf = (lane >> 3) & 1;
  const int ksteps = C >> 4;

  float acc[NT][4];
#pragma unroll
  for (int j = 0; j < NT; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e) acc[j][e] = 0.0f;

  auto compute_stage = [&](int s) {
    const int first = piece.kb_begin + s * bps;
    const int count = min(bps, piece.kb_end - first);
    const std::uint32_t stage = ring + static_cast<std::uint32_t>(s % kStages) * stage_bytes;
    for (int blk = 0; blk < count; ++blk) {
      const std::uint32_t a_base = stage + blk * a_bytes;
      const std::uint32_t b_base = stage + static_cast<std::uint32_t>(bps) * a_bytes + blk * b_bytes;
      // This warp's k16 steps: those whose index along the piece is kgroup modulo kgroups.
      const int step0 = (first - piece.kb_begin + blk) * ksteps;
      for (int ks = (kgroup - step0) & (kgroups - 1); ks < ksteps; ks += kgroups) {
        // A fragment first, then B two n-tiles at a time: few fragment registers live at once.
        const std::uint32_t qa = (static_cast<std::uint32_t>(strip * 16 + lane_row) << log_c8) + ks * 2 + lane_half;
        std::uint32_t a[4];
        sm80::ldmatrix_x4(a, a_base + sm80::swizzled_chunk(qa, log_c8));
#pragma unroll
        for (int pair = 0; pair < NT / 2; ++pair) {
          std::uint32_t b[4];  // b0, b1 of n-tile 2 * pair, then of 2 * pair + 1
          if constexpr (BColMajor) {
            const std::uint32_t q = (static_cast<std::uint32_t>(pair * 16 + lane_n) << log_c8) + ks * 2 + lane_khalf;
            sm80::ldmatrix_x4(b, b_base + sm80::swizzled_chunk(q, log_c8));
          } else {
            const std::uint32_t q = (static_cast<std::uint32_t>(ks * 16 + lane_row) << kLogW8) + pair * 2 + lane_half;
            sm80::ldmatrix_x4_trans(b, b_base + sm80::swizzled_chunk(q, kLogW8));
          }
          sm80::mma_m16n8k16<std::is_same_v<TIn, __nv_bfloat16>>(acc[2 * pair], a, b[0], b[1]);
          sm80::mma_m16n8k16<std::is_same_v<TIn, __nv_bfloat16>>(acc[2 * pair + 1], a, b[2], b[3]);
        }
      }
    }
  };

  // The ring: one commit group per stage (empty ones too, so the wait count stays fixed).
#pragma unroll 1
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < nstages) load_stage(s);
    sm80::cp_async_commit();
  }
#pragma unroll 1
  for (int s = 0; s < nstages; ++s) {
    sm80::cp_async_wait<kStages - 2>();
    __syncthreads();  // stage s has landed for every thread; stage s - 1 is free again
    compute_stage(s);
    if (s + kStages - 1 < nstages) load_stage(s + kStages - 1);
    sm80::cp_async_commit();
  }
  sm80::cp_async_wait<0>();
  __syncthreads();  // the ring is free for the reduction

  // Warps that split the k16 steps: k-groups 1.. hand their sums to k-group 0, added in order.
  float* red = reinterpret_cast<float*>(smem);
  constexpr int kFrag = NT * 4 * 32;  // one warp's accumulators of one strip
  if (kgroups > 1) {
    if (kgroup > 0) {
      float* dst = red + ((kgroup - 1) * strips + strip) * kFrag;
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) dst[(j * 4 + e) * 32 + lane] = acc[j][e];
    }
    __syncthreads();
    if (kgroup == 0)
      for (int g = 1; g < kgroups; ++g) {
        const float* src = red + ((g - 1) * strips + strip) * kFrag;
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[j][e] += src[(j * 4 + e) * 32 + lane];
      }
  }

  // Accumulator (j, e) of lane: local row strip * 16 + lane / 4 + 8 * (e / 2), column
  // j * 8 + 2 * (lane % 4) + e % 2.
  const int row0 = piece.row * R;
  if (piece.slot < 0) {
    if (kgroup != 0) return;
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int row = row0 + strip * 16 + (lane >> 2) + (e >> 1) * 8;
        const int col = j * 8 + (lane & 3) * 2 + (e & 1);
        if (row < p.m && col < p.n) store_c<TOut>(p, row, col, acc[j][e]);
      }
    return;
  }

  float* part = p.partials + static_cast<std::int64_t>(piece.slot) * (R * W);
  if (kgroup == 0) {
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int lr = strip * 16 + (lane >> 2) + (e >> 1) * 8;
        part[lr * W + j * 8 + (lane & 3) * 2 + (e & 1)] = acc[j][e];
      }
  }
  __threadfence();  // the partial tile is visible device-wide before the ticket is taken
  __syncthreads();
  const int split = p.split_of_slot[piece.slot];
  const sm90::SplitRow sr = p.split_rows[split];
  if (tid == 0) last_of_row = atomicAdd(p.counters + split, 1) == sr.count - 1;
  __syncthreads();
  if (!last_of_row) return;
  __threadfence();
  const float* first = p.partials + static_cast<std::int64_t>(sr.first_slot) * (R * W);
  for (int idx = tid; idx < R * W; idx += kThreads) {
    const int row = row0 + idx / W, col = idx % W;
    if (row >= p.m || col >= p.n) continue;
    float sum = __ldcg(first + idx);
    for (int q = 1; q < sr.count; ++q) sum += __ldcg(first + static_cast<std::int64_t>(q) * (R * W) + idx);
    store_c<TOut>(p, row, col, sum);
  }
  if (tid == 0) p.counters[split] = 0;  // ready for the next run
}

// Launches (or, with grid == 0, only prepares: raises the shared-memory limit) the instantiation
// for TIn, output f32 or TIn, B layout and tile width.
template <class TIn>
void launch_for(const Params& p, bool out_f32, bool b_col_major, int width, int grid, int smem, cudaStream_t stream);
// CTAs of that instantiation one SM holds at once with `smem` bytes of dynamic shared memory.
template <class TIn>
int resident_per_sm(bool out_f32, bool b_col_major, int width, int smem);

}  // namespace bsrflow::skinny
