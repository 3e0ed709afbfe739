// Epilogue of the Hopper BSR GEMM: a consumer warpgroup's f32 accumulators -> C (alpha, beta,
// dtype conversion, row- or column-major C, edge clipping), or raw f32 partial sums for the
// pieces of a split row.
//
// The accumulators leave in chunks through a small per-warpgroup shared-memory area:
// - beta == 0, not a split piece, direct orientation (any output dtype) or swap-AB (16-bit
//   output): each chunk is written in the output dtype and C's layout into one of two buffers and
//   TMA-stored (the store clips at the M / N edges); 16-bit output of the direct orientation into
//   row-major C is held in registers as 16-bit pairs and staged in twice-wide swizzled chunks,
//   one per ring stage of the next tile's main loop (HeldOutput), swap-AB's 16-bit chunks
//   are stmatrix-staged whole m-tiles (epilogue_tma_swap). The warpgroup waits only until a
//   buffer's previous store has *read* it, so global writes overlap the next tile's main loop.
// - direct orientation, split pieces: the same, f32 chunks into the workspace tile. Written by
//   the consumer threads instead, a 64 KiB partial part took ~7 us per warpgroup at 128 x 128
//   (clock64 profile, perf_log entry 32), a stall on every split piece. f32 rows and 16-bit
//   columns are staged with the TMA swizzle of their width (stage_rows_f32, stage_cols16), free of
//   the bank conflicts of plain rows (perf_log entry 55).
// - swap-AB, split pieces: straight from the accumulators into the workspace tile, one scalar
//   store per accumulator (epilogue_partials_swap).
// - otherwise (beta != 0, swap-AB with f32 output, or TMA stores switched off): an
//   f32 chunk with a padded pitch, then copy_out, a small loop that reads C for beta and writes
//   4-element vectors along whichever dimension of C is contiguous.
//
// NOTES:
// - C is never read when beta == 0 (it may hold NaN), matching the reference kernel.
// - Only the fragment -> buffer step is unrolled per instantiation (6 dtype/layout variants for
//   the TMA path, tiny shared-memory stores); the general path's global stores live in one
//   non-unrolled loop with a run-time dtype switch. Six unrolled global-store variants per kernel
//   cost ~16 s of compile time for the 128-accumulator configurations.
// - Vector stores need 4-element alignment: the plan requires ldc % 8 == 0 and a 16-byte
//   aligned C; N % 8 == 0 keeps column vectors whole at the N edge. Rows at the M edge of a
//   column-major C fall back to scalar stores.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/ops/sm90_gemm_params.hpp"
#include "bsrflow/ops/sm90_schedule.cuh"
#include "bsrflow/ops/sm90_tma.cuh"
#include "bsrflow/ops/sm90_wgmma.cuh"
#include "bsrflow/ops/tma_swizzle.hpp"

namespace bsrflow::sm90 {

#if defined(__CUDACC__)

// ---- Element conversions ------------------------------------------------------------------------

__device__ __forceinline__ float load_as_float(const void* base, std::int64_t i, DType t) {
  switch (t) {
    case DType::f32: return static_cast<const float*>(base)[i];
    case DType::f16: return __half2float(static_cast<const __half*>(base)[i]);
    default: return __bfloat162float(static_cast<const __nv_bfloat16*>(base)[i]);
  }
}
__device__ __forceinline__ void store_from_float(void* base, std::int64_t i, DType t, float v) {
  switch (t) {
    case DType::f32: static_cast<float*>(base)[i] = v; break;
    case DType::f16: static_cast<__half*>(base)[i] = __float2half_rn(v); break;
    default: static_cast<__nv_bfloat16*>(base)[i] = __float2bfloat16_rn(v); break;
  }
}
// Four consecutive elements at base[i], i a multiple of 4 (16-byte f32 / 8-byte 16-bit vectors).
__device__ __forceinline__ float4 load4_as_float(const void* base, std::int64_t i, DType t) {
  switch (t) {
    case DType::f32: return reinterpret_cast<const float4*>(static_cast<const float*>(base) + i)[0];
    case DType::f16: {
      const __half2* h = reinterpret_cast<const __half2*>(static_cast<const __half*>(base) + i);
      const float2 a = __half22float2(h[0]), b = __half22float2(h[1]);
      return make_float4(a.x, a.y, b.x, b.y);
    }
    default: {
      const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(static_cast<const __nv_bfloat16*>(base) + i);
      const float2 a = __bfloat1622float2(h[0]), b = __bfloat1622float2(h[1]);
      return make_float4(a.x, a.y, b.x, b.y);
    }
  }
}
__device__ __forceinline__ void store4_from_float(void* base, std::int64_t i, DType t, float4 v) {
  switch (t) {
    case DType::f32: reinterpret_cast<float4*>(static_cast<float*>(base) + i)[0] = v; break;
    case DType::f16: {
      __half2* h = reinterpret_cast<__half2*>(static_cast<__half*>(base) + i);
      h[0] = __floats2half2_rn(v.x, v.y);
      h[1] = __floats2half2_rn(v.z, v.w);
      break;
    }
    default: {
      __nv_bfloat162* h = reinterpret_cast<__nv_bfloat162*>(static_cast<__nv_bfloat16*>(base) + i);
      h[0] = __floats2bfloat162_rn(v.x, v.y);
      h[1] = __floats2bfloat162_rn(v.z, v.w);
      break;
    }
  }
}

// C's update where beta may be non-zero: v + beta * what is at base[i] (read only when beta != 0),
// stored there in dtype t - one element, or four consecutive ones (i a multiple of 4).
__device__ __forceinline__ void update_from_float(void* base, std::int64_t i, DType t, float v, float beta) {
  if (beta != 0.0f) v += beta * load_as_float(base, i, t);
  store_from_float(base, i, t, v);
}
__device__ __forceinline__ void update4_from_float(void* base, std::int64_t i, DType t, float4 v, float beta) {
  if (beta != 0.0f) {
    const float4 old = load4_as_float(base, i, t);
    v.x += beta * old.x, v.y += beta * old.y, v.z += beta * old.z, v.w += beta * old.w;
  }
  store4_from_float(base, i, t, v);
}

// Where a staged chunk goes: element (r, c) of the chunk is (row0 + r, col0 + c) of a matrix
// of `rows` x `cols` stored at `ptr` with leading dimension `ld`.
struct OutTarget {
  void* ptr;
  std::int64_t ld;
  std::int64_t row0;
  std::int64_t col0;
  std::int64_t rows;
  std::int64_t cols;
  DType dtype;
  bool col_major;
  float alpha;
  float beta;  // 0: the target is not read
};

// Buffer (chunk_rows x chunk_cols f32, row pitch `pitch`) -> target, by the 128 threads of a
// warpgroup. chunk_rows and chunk_cols are multiples of 4; cols of the target a multiple of 4.
__device__ __forceinline__ void copy_out(const float* buf, int pitch, int chunk_rows, int chunk_cols,
                                      const OutTarget& o, int tid) {
  if (!o.col_major) {  // 4 consecutive columns of one row per step
    const int per_row = chunk_cols / 4;
    for (int u = tid; u < chunk_rows * per_row; u += 128) {
      const int r = u / per_row, c = (u - r * per_row) * 4;
      const std::int64_t gr = o.row0 + r, gc = o.col0 + c;
      if (gr >= o.rows || gc >= o.cols) continue;
      const float* s = buf + r * pitch + c;
      float4 v = make_float4(o.alpha * s[0], o.alpha * s[1], o.alpha * s[2], o.alpha * s[3]);
      update4_from_float(o.ptr, gr * o.ld + gc, o.dtype, v, o.beta);
    }
  } else {  // 4 consecutive rows of one column per step
    const int per_col = chunk_rows / 4;
    for (int u = tid; u < chunk_cols * per_col; u += 128) {
      const int c = u / per_col, r = (u - c * per_col) * 4;
      const std::int64_t gr = o.row0 + r, gc = o.col0 + c;
      if (gr >= o.rows || gc >= o.cols) continue;
      const float* s = buf + r * pitch + c;
      float4 v = make_float4(o.alpha * s[0], o.alpha * s[pitch], o.alpha * s[2 * pitch], o.alpha * s[3 * pitch]);
      const std::int64_t off = gc * o.ld + gr;
      if (gr + 3 < o.rows) {
        update4_from_float(o.ptr, off, o.dtype, v, o.beta);
      } else {  // the M edge cuts this vector
        const float e[4] = {v.x, v.y, v.z, v.w};
        for (int q = 0; q < 4 && gr + q < o.rows; ++q) update_from_float(o.ptr, off + q, o.dtype, e[q], o.beta);
      }
    }
  }
}

// ---- Accumulators -> chunks ---------------------------------------------------------------------

// Calls fn(r, c, v0, v1) for every accumulator pair of chunk J that this thread holds: (r, c) is
// the first value's place in the kEpiRows x kEpiCols chunk (C orientation), its partner sits at
// (r, c + 1) in the direct orientation and at (r + 1, c) with swap-AB.
template <class K, int J, class Fn>
__device__ __forceinline__ void for_each_pair(const float (&acc)[K::kMTiles][K::kAccPerTile], int warp, int lane,
                                              Fn&& fn) {
  if constexpr (K::kSwap) {
    // m-tile J: wgmma (m, n) = (swath column in the chunk, block row).
#pragma unroll
    for (int i = 0; i < K::kAccPerTile; i += 2) {
      const FragCoord f = frag_coord(i, warp, lane);
      fn(f.col, f.row, acc[J][i], acc[J][i + 1]);
    }
  } else {
    // columns [kEpiCols J, +kEpiCols) of the warpgroup's part: accumulators [kEpiCols J / 2, +kEpiCols / 2).
#pragma unroll
    for (int i = J * K::kEpiCols / 2; i < (J + 1) * K::kEpiCols / 2; i += 2) {
      const FragCoord f = frag_coord(i, warp, lane);
      fn(f.row, f.col - J * K::kEpiCols, acc[0][i], acc[0][i + 1]);
    }
  }
}

// for_each_pair<K, j> for a run-time j: the chunk loop stays a loop (one copy of what follows
// the staging) while every accumulator index stays a compile-time constant (registers, no local
// memory).
template <class K, int J = 0, class Fn>
__device__ __forceinline__ void for_each_pair_at(int j, const float (&acc)[K::kMTiles][K::kAccPerTile], int warp,
                                                 int lane, Fn&& fn) {
  if constexpr (J < K::kEpiChunks) {
    if (j == J) for_each_pair<K, J>(acc, warp, lane, fn);
    else for_each_pair_at<K, J + 1>(j, acc, warp, lane, fn);
  }
}

// Origin of the warpgroup's part of the (R, SW) tile, tile-local.
template <class K>
__device__ __forceinline__ int part_row(int wg) { return (!K::kSwap && K::R == 128) ? wg * 64 : 0; }
template <class K>
__device__ __forceinline__ int part_col(int wg) { return (!K::kSwap && K::R == 128) ? 0 : wg * K::kWgCols; }

// ---- beta == 0: chunks staged in the output dtype, stored by TMA ------------------------------

__device__ __forceinline__ void st_shared_v2(std::uint32_t addr, float a, float b) {
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(addr), "f"(a), "f"(b) : "memory");
}
__device__ __forceinline__ void st_shared_u16(std::uint32_t addr, std::uint16_t v) {
  asm volatile("st.shared.u16 [%0], %1;\n" ::"r"(addr), "h"(v) : "memory");
}

// A float rounded to the 16-bit output type, as its bits.
template <class TOut>
__device__ __forceinline__ std::uint16_t to_bits16(float v) {
  if constexpr (std::is_same_v<TOut, __half>) return __half_as_ushort(__float2half_rn(v));
  else return __bfloat16_as_ushort(__float2bfloat16_rn(v));
}

// The staging of a direct TMA-store chunk in the layout of its tensor map's swizzle
// (swizzled_offset of the contiguous dimension's width; epilogue_swizzle_bytes). Unswizzled, the 8
// rows of a fragment store fell into the same banks: 8-way conflicts on 128-byte f32 rows, 4-way on
// 16-bit columns. The key that XORs a value's 16-byte unit depends only on the lane (and, for
// columns, on the value's column parity), so each store is a per-lane base plus a compile-time
// offset and one XOR. The stagers read the lane index afresh (as stage_rows16 does): the held output
// leaves no registers to keep addresses live in.

// Where accumulator pair i (i even, of the chunk's kEpiCols / 2 accumulators) of lane `lane` in warp
// `warp` goes in a chunk of f32 rows of row_bytes = 64 or 128 (8 bytes). The pair is C (row, column)
// = (warp * 16 + lane / 4 + 8 ((i / 2) % 2), 8 (i / 4) + 2 (lane % 4)): 16-byte unit 2 (i / 4) +
// (lane / 2) % 2 of its row, whose key ((row * row_bytes) >> 7) & (units - 1) is lane / 4 (128-byte
// rows) or lane / 8 (64-byte rows) whatever the warp and i. Tested against swizzled_offset.
BSRFLOW_SM90_HD constexpr std::uint32_t staged_f32_pair(int row_bytes, int warp, int lane, int i) {
  const auto t = static_cast<std::uint32_t>(((lane >> 1) & 1) ^ (row_bytes == 128 ? lane >> 2 : lane >> 3));
  const auto base = static_cast<std::uint32_t>((warp * 16 + (lane >> 2)) * row_bytes + (lane & 1) * 8);
  return base + static_cast<std::uint32_t>(((i >> 1) & 1) * 8 * row_bytes) +
         ((static_cast<std::uint32_t>(2 * (i >> 2)) ^ t) << 4);
}
// Where value e (0, 1) of pair i goes in a chunk of 16-bit columns of 64 rows (128 bytes): column
// 8 (i / 4) + 2 (lane % 4) + e, 16-byte unit (row / 8) ^ key = (2 warp + h) ^ (2 (lane % 4) + e),
// h = (i / 2) % 2, byte 2 (lane / 4) within it.
BSRFLOW_SM90_HD constexpr std::uint32_t staged_col16_value(int warp, int lane, int i, int e) {
  const auto u = static_cast<std::uint32_t>((2 * warp) ^ (2 * (lane & 3)));
  const auto line = static_cast<std::uint32_t>((8 * (i >> 2) + 2 * (lane & 3) + e) * 128 + (lane >> 2) * 2);
  return line + ((u ^ static_cast<std::uint32_t>(((i >> 1) & 1) ^ e)) << 4);
}

// Chunk J (columns [J kEpiCols, +kEpiCols) of the warpgroup's part) as f32 rows, alpha applied.
template <class K, int J>
__device__ __forceinline__ void stage_rows_f32(const float (&acc)[K::kMTiles][K::kAccPerTile], float alpha,
                                               std::uint32_t buf, int warp) {
  const int lane = lane_id();
#pragma unroll
  for (int i = J * K::kEpiCols / 2; i < (J + 1) * K::kEpiCols / 2; i += 2)
    st_shared_v2(buf + staged_f32_pair(K::kEpiCols * 4, warp, lane, i - J * K::kEpiCols / 2), alpha * acc[0][i],
                 alpha * acc[0][i + 1]);
}
template <class K, int J = 0>
__device__ __forceinline__ void stage_rows_f32_at(int j, const float (&acc)[K::kMTiles][K::kAccPerTile], float alpha,
                                                  std::uint32_t buf, int warp) {
  if constexpr (J < K::kEpiChunks) {
    if (j == J) stage_rows_f32<K, J>(acc, alpha, buf, warp);
    else stage_rows_f32_at<K, J + 1>(j, acc, alpha, buf, warp);
  }
}

// Chunk J as 16-bit columns (column-major C), alpha applied.
template <class K, class TOut, int J>
__device__ __forceinline__ void stage_cols16(const float (&acc)[K::kMTiles][K::kAccPerTile], float alpha,
                                             std::uint32_t buf, int warp) {
  static_assert(K::kEpiRows * 2 == 128, "128-byte columns");
  const int lane = lane_id();
#pragma unroll
  for (int i = J * K::kEpiCols / 2; i < (J + 1) * K::kEpiCols / 2; i += 2) {
    const int ic = i - J * K::kEpiCols / 2;  // the pair's place in the chunk
    st_shared_u16(buf + staged_col16_value(warp, lane, ic, 0), to_bits16<TOut>(alpha * acc[0][i]));
    st_shared_u16(buf + staged_col16_value(warp, lane, ic, 1), to_bits16<TOut>(alpha * acc[0][i + 1]));
  }
}
template <class K, class TOut, int J = 0>
__device__ __forceinline__ void stage_cols16_at(int j, const float (&acc)[K::kMTiles][K::kAccPerTile], float alpha,
                                                std::uint32_t buf, int warp) {
  if constexpr (J < K::kEpiChunks) {
    if (j == J) stage_cols16<K, TOut, J>(acc, alpha, buf, warp);
    else stage_cols16_at<K, TOut, J + 1>(j, acc, alpha, buf, warp);
  }
}

// Chunk j goes to buffer (count & 1); the store that read that buffer two chunks ago must have
// finished reading first. The warpgroup never waits for a store to reach global memory, so the
// stores of one tile overlap the next tile's main loop. `count` runs across the CTA's tiles.
// The warpgroup's part goes to `map` at (row0, col0) (C's orientation), scaled by alpha.
template <class K, class TOut, bool CColMajor>
__device__ void epilogue_tma(const CUtensorMap* map, int row0, int col0, float alpha,
                             const float (&acc)[K::kMTiles][K::kAccPerTile], unsigned char* bufs, int wg, int warp,
                             int lane, int& count) {
  static_assert(!K::kSwap, "these TMA-store chunks are the direct orientation's (swap-AB: epilogue_tma_swap)");
  static_assert(CColMajor || std::is_same_v<TOut, float>, "16-bit row-major C is held (HeldOutput)");
  // The chunk's contiguous dimension is swizzled where the plan's tensor map says so
  // (epilogue_swizzle_bytes): f32 rows of 64 / 128 bytes and 16-bit columns of 128 bytes.
  constexpr int kSwizzle = epilogue_swizzle_bytes((CColMajor ? K::kEpiRows : K::kEpiCols) * sizeof(TOut));
  static_assert(CColMajor ? kSwizzle == (sizeof(TOut) == 2 ? 128 : 0) : kSwizzle == K::kEpiCols * 4,
                "the stagers below lay out these swizzles");
  const bool issuer = warp == 0 && lane == 0;
  for (int j = 0; j < K::kEpiChunks; ++j, ++count) {
    TOut* buf = reinterpret_cast<TOut*>(bufs + (count & 1) * K::kEpiBufBytes);  // (kEpiRows, kEpiCols) box
    if (issuer) bulk_wait_group_read<1>();
    named_barrier_sync(1 + wg, 128);  // this buffer is free
    if constexpr (!CColMajor) {
      stage_rows_f32_at<K>(j, acc, alpha, smem_addr(buf), warp);
    } else if constexpr (kSwizzle != 0) {
      stage_cols16_at<K, TOut>(j, acc, alpha, smem_addr(buf), warp);
    } else {  // f32 columns of 256 bytes: wider than any TMA swizzle
      for_each_pair_at<K>(j, acc, warp, lane, [&](int r, int c, float v0, float v1) {  // partner: (r, c + 1)
        buf[c * K::kEpiRows + r] = narrow<TOut>(alpha * v0);
        buf[(c + 1) * K::kEpiRows + r] = narrow<TOut>(alpha * v1);
      });
    }
    fence_proxy_async_smem();  // the TMA (async proxy) reads what this thread just wrote
    named_barrier_sync(1 + wg, 128);
    if (issuer) {
      const int c = col0 + j * K::kEpiCols;
      if constexpr (CColMajor) tma_store_2d(map, buf, row0, c);  // (m, n)
      else tma_store_2d(map, buf, c, row0);                       // (n, m)
      bulk_commit_group();
    }
  }
}

// Two floats as one 32-bit word of two 16-bit values, the first in the low half.
template <class TOut>
__device__ __forceinline__ std::uint32_t pack16x2(float a, float b) {
  if constexpr (std::is_same_v<TOut, __half>) {
    const __half2 h = __floats2half2_rn(a, b);
    return *reinterpret_cast<const std::uint32_t*>(&h);
  } else {
    const __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
    return *reinterpret_cast<const std::uint32_t*>(&h);
  }
}

// Four 8 x 8 16-bit matrices to shared memory: register i of every lane holds its two elements of
// matrix i (the mma / wgmma accumulator fragment layout: row lane / 4, columns 2 (lane % 4) and
// 2 (lane % 4) + 1), lane 8 i + r gives the address of row r of matrix i (16 bytes).
__device__ __forceinline__ void stmatrix_x4(std::uint32_t addr, std::uint32_t r0, std::uint32_t r1, std::uint32_t r2,
                                            std::uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(r0), "r"(r1),
               "r"(r2), "r"(r3)
               : "memory");
}
// The same with `.trans`: lane 8 i + r gives the address of *column* r of matrix i, which is
// stored as 8 consecutive 16-bit values.
__device__ __forceinline__ void stmatrix_x4_trans(std::uint32_t addr, std::uint32_t r0, std::uint32_t r1,
                                                  std::uint32_t r2, std::uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(r0),
               "r"(r1), "r"(r2), "r"(r3)
               : "memory");
}

// ---- direct orientation, 16-bit output into row-major C: held in registers, stored under the next tile

// The warpgroup's (64, kWgCols) part of a tile as 16-bit pairs (alpha applied), held in registers
// after the tile's main loop and staged and stored one chunk per ring stage while the next tile's
// wgmma run (the consumer's main loop calls store_held_chunk between a stage's commit and its
// wait). The tile's epilogue used to stage and store all chunks first, ~3 k cycles per tile with
// both warpgroups' tensor work stopped (perf_log entries 29, 47); held, the H200 ran 1-2% faster at
// 128 x 128 and 64 x 64 (entry 54: the clock, not the stall, bounds those kernels), and 64-deep
// chunks then overtook 32-deep ones at 128 x 128. h[i / 2] packs accumulators i and i + 1 (the
// fragment layout, frag_coord).
template <class K>
struct HeldOutput {
  std::uint32_t h[K::kAccPerTile / 2];
  int left = 0;  // chunks not yet staged; the next is kEpiChunks / 2 - left
  int row0 = 0;  // C row and column of the part's first element
  int col0 = 0;
};

// Whether tile `w`'s part leaves as a HeldOutput: the TMA-store epilogue of the direct orientation
// with 16-bit output into row-major C (the wide swizzled chunks below).
template <class K>
__device__ __forceinline__ bool holds_output(const GemmParams& p, const TileWork& w) {
  return !K::kSwap && w.slot < 0 && p.tma_store && p.out != DType::f32 && !p.c_col_major;
}

template <class K, class TOut>
__device__ __forceinline__ void pack_part16(const float (&acc)[K::kMTiles][K::kAccPerTile], float alpha,
                                            HeldOutput<K>& held) {
#pragma unroll
  for (int i = 0; i < K::kAccPerTile; i += 2) held.h[i / 2] = pack16x2<TOut>(alpha * acc[0][i], alpha * acc[0][i + 1]);
}

// Takes the warpgroup's part of tile `w` (holds_output) into `held`, whose chunks must all be
// stored already.
template <class K>
__device__ __forceinline__ void hold_output(const GemmParams& p, const TileWork& w,
                                            const float (&acc)[K::kMTiles][K::kAccPerTile], int wg,
                                            HeldOutput<K>& held) {
  if (p.out == DType::f16) pack_part16<K, __half>(acc, p.alpha, held);
  else pack_part16<K, __nv_bfloat16>(acc, p.alpha, held);
  held.left = K::kEpiChunks / 2;
  held.row0 = w.row * K::R + part_row<K>(wg);
  held.col0 = w.swath * K::SW + part_col<K>(wg);
}

// Stages chunk J of a held part (columns [J kEpiCols16, +kEpiCols16)) into `buf` as 16-bit rows of
// kEpiRowBytes16 bytes with the TMA store's swizzle. Each stmatrix covers two 8-column groups of
// the warp's 16 rows: matrices (rows 0-7 | 8-15) x (group g | g+1).
template <class K, int J>
__device__ __forceinline__ void stage_rows16(const HeldOutput<K>& held, std::uint32_t buf, int warp) {
  constexpr std::uint32_t kSwizzleMask = K::kEpiRowBytes16 / 16 - 1;  // 16-byte units XORed per row group
  constexpr int kGroups = K::kEpiCols16 / 8;                           // 8-column groups in a chunk
  // The lane index read afresh: ptxas would otherwise keep this chunk's four addresses live across
  // the main loop, where the held pairs leave no registers for them (a spill at 128 x 16).
  const int lane = lane_id();
  const int m = lane >> 3;
  const int row = warp * 16 + (m & 1) * 8 + (lane & 7);  // this lane's row address: matrix m, row lane % 8
#pragma unroll
  for (int g = 0; g < kGroups; g += 2) {
    constexpr int kFirst = J * kGroups;  // the chunk's first group among the warpgroup's columns
    const int i = 2 * (kFirst + g);      // packed pairs of group kFirst + g: [i, i + 2); the next group's follow
    std::uint32_t off = static_cast<std::uint32_t>(row * K::kEpiRowBytes16 + (g + (m >> 1)) * 16);
    off ^= ((off >> 7) & kSwizzleMask) << 4;  // TMA swizzle: 16-byte unit ^= (address bits 7..)
    stmatrix_x4(buf + off, held.h[i], held.h[i + 1], held.h[i + 2], held.h[i + 3]);
  }
}

// stage_rows16<K, J> for a run-time chunk j (register indices stay compile-time).
template <class K, int J = 0>
__device__ __forceinline__ void stage_rows16_at(int j, const HeldOutput<K>& held, std::uint32_t buf, int warp) {
  if constexpr (J < K::kEpiChunks / 2) {
    if (j == J) stage_rows16<K, J>(held, buf, warp);
    else stage_rows16_at<K, J + 1>(j, held, buf, warp);
  }
}

// Stages and TMA-stores the next chunk of `held` (held.left > 0): 64 rows x kEpiCols16 columns,
// staged by stmatrix with the 64- or 128-byte swizzle that the C tensor map's TMA store undoes (the
// 8 rows of one matrix, 64 or 128 bytes apart, land in 8 different 16-byte bank groups). Chunk
// buffers alternate with `count`, as in epilogue_tma.
template <class K>
__device__ __forceinline__ void store_held_chunk(const GemmParams& p, HeldOutput<K>& held, unsigned char* bufs,
                                                 int wg, int warp, int lane, int& count) {
  const bool issuer = warp == 0 && lane == 0;
  const int j = K::kEpiChunks / 2 - held.left;
  unsigned char* buf = bufs + (count & 1) * K::kEpiBufBytes;
  if (issuer) bulk_wait_group_read<1>();
  named_barrier_sync(1 + wg, 128);  // this buffer is free
  stage_rows16_at<K>(j, held, smem_addr(buf), warp);
  fence_proxy_async_smem();
  named_barrier_sync(1 + wg, 128);
  if (issuer) {
    tma_store_2d(&p.tmap_c, buf, held.col0 + j * K::kEpiCols16, held.row0);  // (n, m)
    bulk_commit_group();
  }
  --held.left;
  ++count;
}

// Stores what is left of `held` (a tile shorter than its chunk count, or the CTA's last tile).
template <class K>
__device__ __forceinline__ void store_held(const GemmParams& p, HeldOutput<K>& held, unsigned char* bufs, int wg,
                                           int warp, int lane, int& count) {
  while (held.left > 0) store_held_chunk<K>(p, held, bufs, wg, warp, lane, count);
}

// ---- swap-AB, 16-bit output: whole m-tiles staged by stmatrix, stored by TMA --------------------

// Stages m-tile J of the warpgroup's accumulators, C's (R, 64) chunk at the m-tile's columns, into
// `buf` in C's layout with the TMA store's swizzle. In swap-AB a fragment row is a C column and a
// fragment column a C row. Each stmatrix covers the warp's 16 C columns x two 8-row groups of C:
// matrices (fragment rows 0-7 | 8-15) x (row group g | g+1), registers i .. i+7 of the fragment.
// Row-major C: `.trans` writes each matrix column (8 C columns of one C row) as a 16-byte row
// piece of the chunk's 128-byte rows; column-major C: each matrix row (8 C rows of one C column)
// into the chunk's 2R-byte columns. Either way the 8 addresses of a matrix fall in 8 different
// 16-byte bank groups once swizzled.
template <class K, class TOut, bool CColMajor, int J>
__device__ __forceinline__ void stage_swap16(const float (&acc)[K::kMTiles][K::kAccPerTile], std::uint32_t buf,
                                             int warp, int lane, float alpha) {
  const int m = lane >> 3, r = lane & 7;  // this lane addresses row r of matrix m
  const int frag_row = warp * 16 + (m & 1) * 8;  // the matrix's first fragment row: a C column
#pragma unroll
  for (int g = 0; g < K::R / 8; g += 2) {
    const int i = 4 * g;                 // accumulators of row group g: [i, i + 4); group g + 1's follow
    const int c_row = (g + (m >> 1)) * 8;  // the matrix's first C row
    const std::uint32_t r0 = pack16x2<TOut>(alpha * acc[J][i], alpha * acc[J][i + 1]);
    const std::uint32_t r1 = pack16x2<TOut>(alpha * acc[J][i + 2], alpha * acc[J][i + 3]);
    const std::uint32_t r2 = pack16x2<TOut>(alpha * acc[J][i + 4], alpha * acc[J][i + 5]);
    const std::uint32_t r3 = pack16x2<TOut>(alpha * acc[J][i + 6], alpha * acc[J][i + 7]);
    if constexpr (CColMajor) {
      constexpr int kColBytes = K::R * 2;
      const std::uint32_t off = static_cast<std::uint32_t>((frag_row + r) * kColBytes + c_row * 2);
      stmatrix_x4(buf + swizzled_offset(off, kColBytes), r0, r1, r2, r3);
    } else {
      const std::uint32_t off = static_cast<std::uint32_t>((c_row + r) * 128 + frag_row * 2);
      stmatrix_x4_trans(buf + swizzled_offset(off, 128), r0, r1, r2, r3);
    }
  }
}

// stage_swap16<..., J> for a run-time m-tile j (accumulator indices stay compile-time).
template <class K, class TOut, bool CColMajor, int J = 0>
__device__ __forceinline__ void stage_swap16_at(int j, const float (&acc)[K::kMTiles][K::kAccPerTile],
                                                std::uint32_t buf, int warp, int lane, float alpha) {
  if constexpr (J < K::kMTiles) {
    if (j == J) stage_swap16<K, TOut, CColMajor, J>(acc, buf, warp, lane, alpha);
    else stage_swap16_at<K, TOut, CColMajor, J + 1>(j, acc, buf, warp, lane, alpha);
  }
}

// 16-bit output of a swap-AB kernel: one (R, 64) chunk per m-tile, double-buffered as in
// epilogue_tma (the same waits and barriers per chunk as the f32 path, whose copy loop it
// replaces with one TMA store issued by one thread).
template <class K, class TOut, bool CColMajor>
__device__ void epilogue_tma_swap(const CUtensorMap* map, int row0, int col0, float alpha,
                                  const float (&acc)[K::kMTiles][K::kAccPerTile], unsigned char* bufs, int wg,
                                  int warp, int lane, int& count) {
  static_assert(K::kSwap && sizeof(TOut) == 2, "16-bit output, swap-AB");
  const bool issuer = warp == 0 && lane == 0;
  for (int j = 0; j < K::kMTiles; ++j, ++count) {
    unsigned char* buf = bufs + (count & 1) * K::kSwapChunkBytes;
    if (issuer) bulk_wait_group_read<1>();
    named_barrier_sync(1 + wg, 128);  // this buffer is free
    stage_swap16_at<K, TOut, CColMajor>(j, acc, smem_addr(buf), warp, lane, alpha);
    fence_proxy_async_smem();
    named_barrier_sync(1 + wg, 128);
    if (issuer) {
      if constexpr (CColMajor) tma_store_2d(map, buf, row0, col0 + j * 64);  // (m, n)
      else tma_store_2d(map, buf, col0 + j * 64, row0);                       // (n, m)
      bulk_commit_group();
    }
  }
}

// ---- swap-AB, split pieces: raw f32 sums straight from the accumulators ------------------------

// The warpgroup's part of workspace tile `w.slot` ((R, SW) f32, row-major, private to the plan and
// read only by the fix-up kernel), one scalar store per accumulator: for a given accumulator the
// warp's lanes hold 8 consecutive swath columns of 4 tile rows, so every store instruction fills
// four whole 32-byte sectors. No shared memory, no barrier, no wait. Against the f32 chunk and
// copy_out these pieces took before (two named barriers per m-tile) and against TMA stores of f32
// halves staged in the 16-bit buffers: +0.5% / +0.3% on 16 x 16 and 32 x 32 power-law rows (H100,
// perf_log entry 53) - the split pieces' output was not what held those rows back.
template <class K>
__device__ void epilogue_partials_swap(const GemmParams& p, const TileWork& w,
                                       const float (&acc)[K::kMTiles][K::kAccPerTile], int wg, int warp, int lane) {
  static_assert(K::kSwap, "the direct orientation TMA-stores its partial tiles (kTmaPartials)");
  float* part = p.partials + static_cast<std::int64_t>(w.slot) * (K::R * K::SW) + part_col<K>(wg);
#pragma unroll
  for (int mt = 0; mt < K::kMTiles; ++mt)
#pragma unroll
    for (int i = 0; i < K::kAccPerTile; i += 2) {
      const FragCoord f = frag_coord(i, warp, lane);  // swap-AB: f.row a swath column, f.col a tile row
      float* d = part + f.col * K::SW + mt * 64 + f.row;
      d[0] = acc[mt][i];
      d[K::SW] = acc[mt][i + 1];  // the next tile row
    }
}

// ---- General path: f32 chunks through copy_out ------------------------------------------------

// C = alpha * acc + beta * C with any beta, or raw partial sums into the split-row workspace.
template <class K>
__device__ void epilogue_generic(const GemmParams& p, const TileWork& w,
                                 const float (&acc)[K::kMTiles][K::kAccPerTile], float* buf, int wg, int warp,
                                 int lane) {
  OutTarget o;
  if (w.slot >= 0) {
    // Workspace tile `slot` of (R, SW) f32, row-major, written whole.
    o.ptr = p.partials + static_cast<std::int64_t>(w.slot) * (K::R * K::SW);
    o.ld = K::SW;
    o.row0 = part_row<K>(wg);
    o.col0 = part_col<K>(wg);
    o.rows = K::R;
    o.cols = K::SW;
    o.dtype = DType::f32;
    o.col_major = false;
    o.alpha = 1.0f;
    o.beta = 0.0f;
  } else {
    o.ptr = p.c;
    o.ld = p.ldc;
    o.row0 = static_cast<std::int64_t>(w.row) * K::R + part_row<K>(wg);
    o.col0 = static_cast<std::int64_t>(w.swath) * K::SW + part_col<K>(wg);
    o.rows = p.m;
    o.cols = p.n;
    o.dtype = p.out;
    o.col_major = p.c_col_major != 0;
    o.alpha = p.alpha;
    o.beta = p.beta;
  }
  if (warp == 0 && lane == 0) bulk_wait_group_read<0>();  // earlier TMA stores are done with the buffer
  const std::int64_t col0 = o.col0;
  for (int j = 0; j < K::kEpiChunks; ++j) {
    named_barrier_sync(1 + wg, 128);  // the previous chunk (or tile) has left the buffer
    for_each_pair_at<K>(j, acc, warp, lane, [&](int r, int c, float v0, float v1) {
      if constexpr (K::kSwap) {
        buf[r * K::kEpiPitch + c] = v0;
        buf[(r + 1) * K::kEpiPitch + c] = v1;
      } else {
        *reinterpret_cast<float2*>(buf + r * K::kEpiPitch + c) = make_float2(v0, v1);
      }
    });
    named_barrier_sync(1 + wg, 128);
    o.col0 = col0 + j * K::kEpiCols;
    copy_out(buf, K::kEpiPitch, K::kEpiRows, K::kEpiCols, o, warp * 32 + lane);
  }
}

// The TMA-store epilogue for the run-time output dtype and C layout (swap-AB: 16-bit output only,
// see has_tma_epilogue).
template <class K>
__device__ void epilogue_tma_dispatch(const GemmParams& p, const TileWork& w,
                                      const float (&acc)[K::kMTiles][K::kAccPerTile], unsigned char* bufs, int wg,
                                      int warp, int lane, int& count) {
  const int row0 = w.row * K::R + part_row<K>(wg);
  const int col0 = w.swath * K::SW + part_col<K>(wg);
  const CUtensorMap* map = &p.tmap_c;
  if constexpr (K::kSwap) {
    if (p.out == DType::f16) {
      if (p.c_col_major) epilogue_tma_swap<K, __half, true>(map, row0, col0, p.alpha, acc, bufs, wg, warp, lane, count);
      else epilogue_tma_swap<K, __half, false>(map, row0, col0, p.alpha, acc, bufs, wg, warp, lane, count);
    } else if (p.c_col_major) {
      epilogue_tma_swap<K, __nv_bfloat16, true>(map, row0, col0, p.alpha, acc, bufs, wg, warp, lane, count);
    } else {
      epilogue_tma_swap<K, __nv_bfloat16, false>(map, row0, col0, p.alpha, acc, bufs, wg, warp, lane, count);
    }
  } else {
    switch (p.out) {
      case DType::f32:
        if (p.c_col_major) epilogue_tma<K, float, true>(map, row0, col0, p.alpha, acc, bufs, wg, warp, lane, count);
        else epilogue_tma<K, float, false>(map, row0, col0, p.alpha, acc, bufs, wg, warp, lane, count);
        return;
      case DType::f16:  // column-major C: 16-bit row-major C is held (holds_output)
        epilogue_tma<K, __half, true>(map, row0, col0, p.alpha, acc, bufs, wg, warp, lane, count);
        return;
      default:
        epilogue_tma<K, __nv_bfloat16, true>(map, row0, col0, p.alpha, acc, bufs, wg, warp, lane, count);
        return;
    }
  }
}

// Whether tile `w`'s part leaves through the TMA-store epilogue: beta == 0 (p.tma_store), not a
// split piece, and for swap-AB a 16-bit output (its f32 chunks would need twice its f32 buffer).
template <class K>
__device__ __forceinline__ bool has_tma_epilogue(const GemmParams& p, const TileWork& w) {
  return w.slot < 0 && p.tma_store && (!K::kSwap || p.out != DType::f32);
}

// Writes the warpgroup's part of tile `w`, or takes it into `held` (holds_output; `held` must be
// empty), whose chunks the consumer then stores under the next tile's wgmma. `count` is the
// warpgroup's running chunk counter.
template <class K>
__device__ void epilogue(const GemmParams& p, const TileWork& w, const float (&acc)[K::kMTiles][K::kAccPerTile],
                         unsigned char* bufs, int wg, int warp, int lane, int& count, HeldOutput<K>& held) {
  if constexpr (!K::kSwap) {
    if (holds_output<K>(p, w)) {
      hold_output<K>(p, w, acc, wg, held);
      return;
    }
  }
  if (has_tma_epilogue<K>(p, w)) {
    epilogue_tma_dispatch<K>(p, w, acc, bufs, wg, warp, lane, count);
    return;
  }
  if constexpr (K::kTmaPartials) {
    if (w.slot >= 0 && p.tma_partials) {  // raw sums, row-major f32 workspace tile `slot`
      epilogue_tma<K, float, false>(&p.tmap_partials, w.slot * K::R + part_row<K>(wg), part_col<K>(wg), 1.0f, acc,
                                    bufs, wg, warp, lane, count);
      return;
    }
  } else if (w.slot >= 0) {
    epilogue_partials_swap<K>(p, w, acc, wg, warp, lane);
    return;
  }
  epilogue_generic<K>(p, w, acc, reinterpret_cast<float*>(bufs), wg, warp, lane);
}

#endif  // __CUDACC__

}  // namespace bsrflow::sm90
