// The reference BSR x dense GEMM kernel (CUDA cores): C = alpha * A * B + beta * C.
//
// Device code only: the launcher (reference_gemm.cu) checks the operands, fills the params
// struct and picks the launch shape. This kernel is the oracle for the fast kernels, so it is
// written to be obviously right first and reasonably fast second.
//
// Work decomposition:
//   CTA  = one block row of A (R output rows) x one swath of `blockDim.x` output columns;
//          blockIdx.x = block row, blockIdx.y strides over the swaths.
//   thread (lane_n, lane_r) = output column swath_start + lane_n, block-row rows
//          lane_r, lane_r + blockDim.y, lane_r + 2 * blockDim.y, ...,
//          taken kRowsPerThread at a time so that each B value loaded is used that many times.
//   A warp shares one lane_r (blockDim.x >= 32), so its A loads are broadcasts and its B loads
//   are adjacent along N (coalesced for a row-major B).
//
// Determinism: each output sums its products in increasing k (stored blocks in col_idx order,
// then columns within the block) with one FMA per product, independent of the launch shape.
// No atomics, no split-K.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "bsrflow/core/dtype.hpp"

namespace bsrflow::reference_gemm_detail {

constexpr int kMaxThreads = 256;      // per CTA
constexpr int kRowsPerThread = 4;     // register tile along the block row
constexpr int kStagedBlocks = 256;    // col_idx entries staged in shared memory per pass
constexpr int kMinSwath = 32;         // a warp's width along N

// The one plain-data struct that crosses the host-kernel boundary. Strides are in elements:
// element (k, n) of B is b[k * b_row_stride + n * b_col_stride], which covers both layouts
// (row-major: (ld, 1); column-major: (1, ld)) without a branch in the inner loop.
template <class TIn, class TOut>
struct Params {
  using Acc = accumulator_t<TIn>;
  // A: M x K elements in R x C blocks, BSR (block values row-major inside the block).
  int M = 0;
  int N = 0;
  int K = 0;
  int R = 1;
  int C = 1;
  const int* row_ptr = nullptr;  // block rows + 1
  const int* col_idx = nullptr;  // nnzb, sorted within a block row
  const TIn* a_values = nullptr;  // nnzb * R * C
  // B: K x N.
  const TIn* b = nullptr;
  std::int64_t b_row_stride = 0;
  std::int64_t b_col_stride = 0;
  // C: M x N, read only when beta != 0.
  TOut* c = nullptr;
  std::int64_t c_row_stride = 0;
  std::int64_t c_col_stride = 0;
  Acc alpha = 1;
  Acc beta = 0;
};

// (widen / narrow: the value <-> accumulator conversions of core/dtype.hpp)

// An explicit fused multiply-add, so the rounding does not depend on -fmad contraction.
__device__ __forceinline__ float fused(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double fused(double a, double b, double c) { return __fma_rn(a, b, c); }

template <class TIn, class TOut>
__global__ void __launch_bounds__(kMaxThreads) reference_gemm_kernel(const Params<TIn, TOut> p) {
  using Acc = accumulator_t<TIn>;
  static_assert(std::is_same_v<Acc, float> || std::is_same_v<Acc, double>);
  static_assert(std::is_same_v<decltype(widen(TOut{})), Acc>,
                "C is read and written in the accumulator type: f64 output only with f64 input");

  __shared__ int s_block_col[kStagedBlocks];  // (kStagedBlocks) block columns of this block row

  const int block_row = static_cast<int>(blockIdx.x);
  const int lane_n = static_cast<int>(threadIdx.x);
  const int lane_r = static_cast<int>(threadIdx.y);
  const int row_lanes = static_cast<int>(blockDim.y);
  const int swath = static_cast<int>(blockDim.x);
  const int tid = lane_r * swath + lane_n;
  const int n_threads = row_lanes * swath;

  const int first = p.row_ptr[block_row];
  const int last = p.row_ptr[block_row + 1];
  const std::int64_t block_elems = static_cast<std::int64_t>(p.R) * p.C;
  // Rows of the block row each thread owns; the same for every thread of the CTA, so every
  // loop below that contains __syncthreads() runs the same trip count in all threads.
  const int rows_per_lane = (p.R + row_lanes - 1) / row_lanes;

  for (std::int64_t swath_start = static_cast<std::int64_t>(blockIdx.y) * swath; swath_start < p.N;
       swath_start += static_cast<std::int64_t>(gridDim.y) * swath) {
    const std::int64_t n = swath_start + lane_n;
    const bool n_inside = n < p.N;
    // Lanes past N read column N - 1 (in bounds) and write nothing: keeping them in the loop
    // keeps __syncthreads() uniform.
    const TIn* b_column = p.b + (n_inside ? n : p.N - 1) * p.b_col_stride;

    for (int tile = 0; tile < rows_per_lane; tile += kRowsPerThread) {
      const int tile_rows = min(kRowsPerThread, rows_per_lane - tile);  // uniform across the CTA
      // Offset of each owned row inside a block; rows past R (R not a multiple of the row
      // lanes) are clamped to R - 1 for reading and never written.
      std::int64_t a_row_offset[kRowsPerThread];
#pragma unroll
      for (int m = 0; m < kRowsPerThread; ++m)
        a_row_offset[m] = static_cast<std::int64_t>(min(lane_r + row_lanes * (tile + m), p.R - 1)) * p.C;

      Acc acc[kRowsPerThread] = {};  // (kRowsPerThread rows, 1 column) accumulators

      for (int stage_start = first; stage_start < last; stage_start += kStagedBlocks) {
        const int staged = min(kStagedBlocks, last - stage_start);
        __syncthreads();  // the previous pass has finished reading s_block_col
        for (int t = tid; t < staged; t += n_threads) s_block_col[t] = p.col_idx[stage_start + t];
        __syncthreads();

        for (int t = 0; t < staged; ++t) {
          const std::int64_t k0 = static_cast<std::int64_t>(s_block_col[t]) * p.C;
          // K tail: a partial last block column stops at K (its padding columns are zero in A
          // and B has no such rows). NOTES: a negative or too-large block column (a structure
          // that was not validated) yields no iterations instead of an out-of-bounds read.
          const int k_count = k0 < 0 ? 0 : static_cast<int>(min(static_cast<std::int64_t>(p.C), p.K - k0));
          const TIn* a_block = p.a_values + static_cast<std::int64_t>(stage_start + t) * block_elems;  // (R, C)
          const TIn* b_rows = b_column + k0 * p.b_row_stride;  // (C, 1) slice of B's column n

          for (int c = 0; c < k_count; ++c) {
            const Acc b = widen(__ldg(b_rows + c * p.b_row_stride));
#pragma unroll
            for (int m = 0; m < kRowsPerThread; ++m)
              if (m < tile_rows) acc[m] = fused(widen(__ldg(a_block + a_row_offset[m] + c)), b, acc[m]);
          }
        }
      }

      // Epilogue: alpha / beta in the accumulator type, one rounding to TOut.
#pragma unroll
      for (int m = 0; m < kRowsPerThread; ++m) {
        const int r = lane_r + row_lanes * (tile + m);
        const std::int64_t row = static_cast<std::int64_t>(block_row) * p.R + r;
        if (m < tile_rows && n_inside && r < p.R && row < p.M) {
          TOut* out = p.c + row * p.c_row_stride + n * p.c_col_stride;
          Acc v = p.alpha * acc[m];
          // beta == 0: C is not read, so NaN / Inf left in C (or poison) cannot propagate.
          if (p.beta != Acc(0)) v = fused(p.beta, widen(*out), v);
          *out = narrow<TOut>(v);
        }
      }
    }
  }
}

}  // namespace bsrflow::reference_gemm_detail
