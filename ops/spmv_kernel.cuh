// The BSR SpMV kernel (device code only; plan and launcher in spmv.cu, partition in
// spmv_partition.cpp): y = alpha * A x + beta * y, optionally *dot_result = w . y_out.
//
// Work decomposition (one CTA per group of block rows, see spmv_partition.hpp):
//   streamed group (its values fit the CTA's kThreads * kItems shared slots):
//     1. stream: value e of the group (storage order: block, row in block, column in block)
//        goes to thread e % kThreads; consecutive threads load consecutive values and block
//        columns (coalesced), gather x through the read-only path, and store the product in
//        shared memory at slot e. kBatch loads per operand per thread are issued before any
//        is used, so each thread keeps several in flight.
//     2. reduce: each element row of the group gets a team of `team` lanes (a power of two,
//        1..32, as wide as still gives every row a team in one pass); lane l sums the row's
//        products of blocks l, l + team, ... (columns in order), a butterfly adds the lanes.
//   long row (a block row with more values than the CTA holds): every thread walks blocks
//   t, t + kThreads, ... accumulating all R rows at once (each value read once), then one
//   cub::BlockReduce per row.
// Everything per CTA depends only on the plan's partition, so results are bitwise
// reproducible; the fused dot goes through grid_sum (deterministic for the grid).
#pragma once

#include <cub/block/block_reduce.cuh>

#include <cstdint>

#include "bsrflow/formats/detail_fastdiv.cuh"
#include "bsrflow/ops/device_reduce.cuh"
#include "bsrflow/ops/scalar_arg.hpp"
#include "bsrflow/ops/tuning_spmv.hpp"

namespace bsrflow::spmv_detail {

constexpr int kBatch = 4;  // loads per operand per thread in flight in the streaming phase
constexpr int kMaxBlockDim = spmv_tuning::kMaxBlockDim;

// The one plain-data struct that crosses the host-kernel boundary.
template <class T>
struct Params {
  // A: rows x cols elements in R x C blocks (the last block row / column may be partial).
  int rows = 0;
  int cols = 0;
  int R = 1;
  int C = 1;
  int block_size = 1;  // R * C
  detail::FastDiv div_block_size;
  detail::FastDiv div_C;
  detail::FastDiv div_R;
  int block_rows = 0;              // ceil(rows / R)
  int groups = 0;                  // stream: CTAs with work, gridDim.x = max(groups, 1); bulk: tiles
  const int* group_start = nullptr;  // stream: (groups + 1) first block row per CTA
  const int* tiles = nullptr;        // bulk: (groups, 4) first / end block row, first / end block of each tile
  std::int64_t nnzb = 0;             // stored blocks
  const int* row_ptr = nullptr;      // (block rows + 1)
  const int* col_idx = nullptr;      // (nnzb)
  const T* values = nullptr;         // (nnzb, R, C) row-major blocks
  const T* x = nullptr;              // (cols)
  T* y = nullptr;                    // (rows), read only when beta != 0
  ScalarArg<T> alpha;
  ScalarArg<T> beta;
  const T* dot_w = nullptr;     // (rows), used with dot_result
  T* dot_result = nullptr;      // null: no fused dot
  ReduceWorkspace<T> dot_ws;
};

// What the group code below asks of its caller, besides the matrix (the "rows policy"):
//   T x(std::int64_t j) const             the value x_j to multiply column j with
//   T finish(std::int64_t row, T sum)     stores the row's result from its sum A_row . x and
//                                         returns its dot term (0 when there is no dot)
// Optionally also
//   P prefetch(std::int64_t row) const       loads what finish needs, issued before the row's sum
//   T finish(std::int64_t row, T sum, P)     (reduce_rows then calls this finish)
// PlainRows is the SpMV's own: y_out = alpha sum (+ beta y), dot term w_row * y_out (w is read
// after y is stored, so w may be y itself). The PCG's persistent kernel (graph/pcg_persistent.cuh)
// brings its own (x_j made on the fly from two vectors).
template <class T>
struct PlainRows {
  const Params<T>& p;
  T alpha;
  T beta;
  __device__ __forceinline__ T x(std::int64_t j) const { return __ldg(p.x + j); }
  __device__ __forceinline__ T finish(std::int64_t row, T sum) const {
    T out = alpha * sum;
    if (beta != T(0)) out = fma(beta, p.y[row], out);
    p.y[row] = out;
    return p.dot_result != nullptr ? p.dot_w[row] * out : T(0);
  }
};

template <class Rows>
concept PrefetchingRows = requires(const Rows& rows, std::int64_t row) { rows.prefetch(row); };

struct NoPrefetch {};

// rows.prefetch(row) where the policy has one and this thread finishes the row.
template <class Rows>
__device__ __forceinline__ auto prefetch_row(const Rows& rows, bool mine, std::int64_t row) {
  if constexpr (PrefetchingRows<Rows>) {
    using P = decltype(rows.prefetch(row));
    return mine ? rows.prefetch(row) : P{};
  } else {
    return NoPrefetch{};
  }
}

template <class Rows, class T, class P>
__device__ __forceinline__ T finish_row(const Rows& rows, std::int64_t row, T sum, const P& pre) {
  if constexpr (PrefetchingRows<Rows>)
    return rows.finish(row, sum, pre);
  else
    return rows.finish(row, sum);
}

// Phase 1: the group's `nvals` products into s_prod (storage order). kScalar: 1 x 1 blocks
// (CSR), no index arithmetic.
template <class T, int kThreads, int kItems, bool kScalar, class Rows>
__device__ __forceinline__ void stream_products(const Params<T>& p, const Rows& rows, int first_block, int nvals,
                                                T* s_prod) {
  const int* group_cols = p.col_idx + first_block;                                    // (group blocks)
  const T* group_values = p.values + static_cast<std::int64_t>(first_block) * p.block_size;  // (group values)
#pragma unroll
  for (int i0 = 0; i0 < kItems; i0 += kBatch) {
    if (i0 * kThreads >= nvals) break;  // uniform over the CTA
    int col[kBatch];    // block column of each value
    int in_col[kBatch];  // column inside the block
    T val[kBatch];
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const int e = (i0 + j) * kThreads + static_cast<int>(threadIdx.x);
      col[j] = -1;
      in_col[j] = 0;
      val[j] = T(0);
      if (e < nvals) {
        int block = e;
        if constexpr (!kScalar) {
          block = p.div_block_size.div(e);
          const int in_block = e - block * p.block_size;
          in_col[j] = in_block - p.div_C.div(in_block) * p.C;
        }
        col[j] = __ldg(group_cols + block);
        val[j] = __ldcs(group_values + e);  // read once: evict first
      }
    }
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const int e = (i0 + j) * kThreads + static_cast<int>(threadIdx.x);
      if (e < nvals) {
        // Padding columns (past cols) and invalid block columns contribute nothing.
        const std::int64_t xi = static_cast<std::int64_t>(col[j]) * p.C + in_col[j];
        const T xv = (col[j] >= 0 && xi < p.cols) ? rows.x(xi) : T(0);
        s_prod[e] = val[j] * xv;
      }
    }
  }
}

// Phase 2: rows of block rows [br0, br1) from s_prod; returns this thread's dot terms.
template <class T, int kThreads, class Rows>
__device__ __forceinline__ T reduce_rows(const Params<T>& p, const Rows& rows, int br0, int br1, int first_block,
                                         const T* s_prod) {
  const std::int64_t first_row = static_cast<std::int64_t>(br0) * p.R;
  const int nrows = static_cast<int>(
      min(static_cast<std::int64_t>(br1 - br0) * p.R, static_cast<std::int64_t>(p.rows) - first_row));  // >= 1
  int team = 1;  // uniform over the CTA
  while (team < 32 && team * 2 * nrows <= kThreads) team *= 2;
  const int teams = kThreads / team;
  const int lane = static_cast<int>(threadIdx.x) & (team - 1);
  const int my_team = static_cast<int>(threadIdx.x) / team;
  T dot_terms = T(0);
  for (int base = 0; base < nrows; base += teams) {  // same trip count in every thread
    const int o = base + my_team;                     // element row within the group
    const bool active = o < nrows;
    [[maybe_unused]] const auto pre = prefetch_row(rows, active && lane == 0, first_row + o);
    T acc = T(0);
    if (active) {
      const int local_block_row = p.div_R.div(o);
      const int r = o - local_block_row * p.R;
      const int br = br0 + local_block_row;
      const int b_end = __ldg(p.row_ptr + br + 1) - first_block;
      const T* row_products = s_prod + r * p.C;  // (blocks, C) with stride block_size
      for (int b = __ldg(p.row_ptr + br) - first_block + lane; b < b_end; b += team) {
        const T* block_products = row_products + b * p.block_size;
        for (int c = 0; c < p.C; ++c) acc += block_products[c];
      }
    }
    // Butterfly over the team's lanes (all 32 lanes of every warp take part): every lane ends
    // with the same, order-fixed sum.
    for (int offset = team / 2; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
    if (active && lane == 0) dot_terms += finish_row(rows, first_row + o, acc, pre);
  }
  return dot_terms;
}

// A block row longer than the CTA's capacity: all R rows accumulated in one pass over its
// blocks, then one block-wide sum per row. Returns thread 0's dot terms (0 elsewhere).
template <class T, int kThreads, class Rows>
__device__ __forceinline__ T long_row(const Params<T>& p, const Rows& rows, int br, int first_block, int end_block,
                                      typename cub::BlockReduce<T, kThreads>::TempStorage& temp) {
  T acc[kMaxBlockDim];  // (R) partial row sums, registers (indices are compile-time after unrolling)
#pragma unroll
  for (int r = 0; r < kMaxBlockDim; ++r) acc[r] = T(0);
  // 64-bit counter: b + kThreads may pass INT_MAX when nnzb is within kThreads of it.
  for (std::int64_t b = first_block + static_cast<std::int64_t>(threadIdx.x); b < end_block; b += kThreads) {
    const int col = __ldg(p.col_idx + b);
    const T* block = p.values + b * p.block_size;  // (R, C)
    for (int c = 0; c < p.C; ++c) {
      const std::int64_t xi = static_cast<std::int64_t>(col) * p.C + c;
      if (col < 0 || xi >= p.cols) continue;
      const T xv = rows.x(xi);
#pragma unroll
      for (int r = 0; r < kMaxBlockDim; ++r)
        if (r < p.R) acc[r] = fma(__ldcs(block + r * p.C + c), xv, acc[r]);
    }
  }
  T dot_terms = T(0);
#pragma unroll
  for (int r = 0; r < kMaxBlockDim; ++r) {
    if (r < p.R) {  // uniform
      const T sum = cub::BlockReduce<T, kThreads>(temp).Sum(acc[r]);
      __syncthreads();  // temp is reused by the next row
      const std::int64_t row = static_cast<std::int64_t>(br) * p.R + r;
      if (threadIdx.x == 0 && row < p.rows) dot_terms += rows.finish(row, sum);
    }
  }
  return dot_terms;
}

// The rows of CTA group `group` (< p.groups): products, then row sums handed to rows.finish.
// Called by every thread of the CTA; returns this thread's dot terms.
template <class T, int kThreads, int kItems, class Rows>
__device__ __forceinline__ T spmv_group(const Params<T>& p, const Rows& rows, int group, T* s_prod,
                                        typename cub::BlockReduce<T, kThreads>::TempStorage& s_reduce) {
  constexpr int kCapacity = kThreads * kItems;
  const int br0 = p.group_start[group];
  const int br1 = p.group_start[group + 1];
  const int first_block = p.row_ptr[br0];
  const int end_block = p.row_ptr[br1];
  const std::int64_t nvals = static_cast<std::int64_t>(end_block - first_block) * p.block_size;
  if (nvals > kCapacity) return long_row<T, kThreads>(p, rows, br0, first_block, end_block, s_reduce);
  if (p.block_size == 1)
    stream_products<T, kThreads, kItems, true>(p, rows, first_block, static_cast<int>(nvals), s_prod);
  else
    stream_products<T, kThreads, kItems, false>(p, rows, first_block, static_cast<int>(nvals), s_prod);
  __syncthreads();
  return reduce_rows<T, kThreads>(p, rows, br0, br1, first_block, s_prod);
}

template <class T, int kThreads, int kItems>
__global__ void __launch_bounds__(kThreads, spmv_tuning::min_ctas_per_sm(sizeof(T))) spmv_kernel(const Params<T> p) {
  static_assert(kThreads % 32 == 0, "row teams are built from whole warps");
  static_assert(kItems % kBatch == 0, "the streaming loop issues kBatch loads at a time");
  __shared__ T s_prod[kThreads * kItems];  // (group values) products A_ij * x_j, storage order
  __shared__ typename cub::BlockReduce<T, kThreads>::TempStorage s_reduce;  // long rows

  const PlainRows<T> rows{p, p.alpha.get(), p.beta.get()};
  T dot_terms = T(0);
  const int group = static_cast<int>(blockIdx.x);
  if (group < p.groups)  // false only in the single CTA of an empty matrix
    dot_terms = spmv_group<T, kThreads, kItems>(p, rows, group, s_prod, s_reduce);
  if (p.dot_result != nullptr) {  // uniform over the grid; every thread of every CTA arrives here
    const T mine[1] = {dot_terms};
    T total[1];
    if (grid_sum<kThreads, 1>(mine, p.dot_ws, total) && threadIdx.x == 0) *p.dot_result = total[0];
  }
}

}  // namespace bsrflow::spmv_detail
