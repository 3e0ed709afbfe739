// The team SpMV kernel (device code; chosen and launched by spmv.cu, instantiated in
// spmv_team.cu): y = alpha * A x + beta * y, optionally *dot_result = w . y_out, for patterns of
// short block rows.
//
// A team of kTeam lanes (8, 16 or 32, inside one warp) owns kRowsInFlight block rows; the warp's
// teams take consecutive block rows, so a warp's loads of col_idx and values cover one
// contiguous range (a "warp chunk"). Lane l takes blocks begin + l, begin + l + kTeam, ... of
// each of its block rows. First pass: the lane loads its first block's column and all R * C
// values for every one of its block rows before it uses any of them (the bytes in flight per
// thread that the stream kernel's CTA barrier and shared-memory round trip cost it,
// docs/perf_log_spmv.md entry 3), then gathers x and accumulates R row sums by fma, column by
// column. Rows longer than the team take further passes, one block per lane at a time. A
// butterfly adds the team's lanes; lane r finishes element row r of the block row through the
// rows policy (spmv_kernel.cuh: PlainRows).
//
// A launch without the fused dot has a warp per chunk; one with it runs the CTAs the GPU holds at
// once, whose warps loop over the chunks, so that the dot's grid_sum (a block reduction, a fence
// and a ticket per CTA) runs once per resident CTA, not once per 128 block rows (which cost +43%
// over the plain SpMV on Poisson f64, H100, session 9). The two are separate instantiations
// (kFusedDot below). No shared memory, no barrier except the fused dot's grid_sum. Results depend
// only on the pattern and the team size: bitwise reproducible.
#pragma once

#include <cstdint>

#include "bsrflow/ops/spmv_kernel.cuh"

namespace bsrflow::spmv_detail {

// acc[r] += sum over c of v[r * C + c] * x_(col * C + c); padding columns (past cols) and
// invalid block columns contribute nothing. 32-bit column arithmetic (fewer registers): for
// 0 <= col < 2^31, col * C + c < 2^32 cannot wrap, and any value >= cols is skipped.
template <class T, int R, int C, class Rows>
__device__ __forceinline__ void accumulate_block(const Params<T>& p, const Rows& rows, int col, const T (&v)[R * C],
                                                 T (&acc)[R]) {
  if (col < 0) return;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const unsigned xi = static_cast<unsigned>(col) * C + c;
    if (xi >= static_cast<unsigned>(p.cols)) break;
    const T xv = rows.x(xi);
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = fma(v[r * C + c], xv, acc[r]);
  }
}

template <class T, int R, int C>
__device__ __forceinline__ void load_block(const int* __restrict__ col_idx, const T* __restrict__ values, int block,
                                           int& col, T (&v)[R * C]) {
  col = __ldcs(col_idx + block);  // read once: evict first
  const T* block_values = values + static_cast<std::int64_t>(block) * (R * C);
#pragma unroll
  for (int k = 0; k < R * C; ++k) v[k] = __ldcs(block_values + k);
}

// The block rows of warp chunk `chunk`; returns this thread's dot terms. Called by all 32 lanes
// of the warp (the butterfly needs them).
template <class T, int R, int C, int kTeam, int kRowsInFlight, class Rows>
__device__ __forceinline__ T team_block_rows(const Params<T>& p, const Rows& rows, int chunk) {
  static_assert(kTeam >= 8 && kTeam <= 32 && (kTeam & (kTeam - 1)) == 0, "a team is 8, 16 or 32 lanes of one warp");
  static_assert(R <= kTeam, "lane r finishes element row r");
  constexpr int kTeamsPerWarp = 32 / kTeam;
  const int lane = static_cast<int>(threadIdx.x) & (kTeam - 1);
  const int team_in_warp = (static_cast<int>(threadIdx.x) & 31) / kTeam;

  // Local restrict-qualified copies of the operands read once. (They replaced plain p.* reads
  // while the gap to the probe kernel was being searched; measured: no difference either way,
  // H100, session 9, call 6.)
  const int* __restrict__ row_ptr = p.row_ptr;
  const int* __restrict__ col_idx = p.col_idx;
  const T* __restrict__ values = p.values;
  auto block_row = [&](int u) { return (chunk * kRowsInFlight + u) * kTeamsPerWarp + team_in_warp; };

  int begin[kRowsInFlight], end[kRowsInFlight];
#pragma unroll
  for (int u = 0; u < kRowsInFlight; ++u) {
    begin[u] = 0;
    end[u] = 0;
    if (block_row(u) < p.block_rows) {
      begin[u] = __ldg(row_ptr + block_row(u));
      end[u] = __ldg(row_ptr + block_row(u) + 1);
    }
  }
  // First pass: every load issued before any is used.
  int col[kRowsInFlight];
  T v[kRowsInFlight][R * C];
#pragma unroll
  for (int u = 0; u < kRowsInFlight; ++u) {
    col[u] = -1;
    if (begin[u] + lane < end[u]) load_block<T, R, C>(col_idx, values, begin[u] + lane, col[u], v[u]);
  }
  T acc[kRowsInFlight][R];
#pragma unroll
  for (int u = 0; u < kRowsInFlight; ++u) {
#pragma unroll
    for (int r = 0; r < R; ++r) acc[u][r] = T(0);
    accumulate_block<T, R, C>(p, rows, col[u], v[u], acc[u]);
  }
  // Rows longer than the team. b + kTeam stays below end + kTeam <= nnzb + 32: int is enough
  // while nnzb < 2^31 - 32 (row_ptr is int).
#pragma unroll
  for (int u = 0; u < kRowsInFlight; ++u) {
    for (int b = begin[u] + lane + kTeam; b < end[u]; b += kTeam) {
      int c;
      T w[R * C];
      load_block<T, R, C>(col_idx, values, b, c, w);
      accumulate_block<T, R, C>(p, rows, c, w, acc[u]);
    }
  }
  T dot_terms = T(0);
#pragma unroll
  for (int u = 0; u < kRowsInFlight; ++u) {
#pragma unroll
    for (int r = 0; r < R; ++r) {
#pragma unroll
      for (int offset = kTeam / 2; offset > 0; offset /= 2)
        acc[u][r] += __shfl_xor_sync(0xffffffffu, acc[u][r], offset);
      // block_row * R + r < block_rows * R < 2^31 + 8: no wrap in 32 bits.
      const unsigned row = static_cast<unsigned>(block_row(u)) * R + r;
      if (lane == r && block_row(u) < p.block_rows && row < static_cast<unsigned>(p.rows))
        dot_terms += rows.finish(row, acc[u][r]);
    }
  }
  return dot_terms;
}

// kFusedDot = false: y only, one warp per chunk (the grid covers them all). true: y and the fused
// dot; warps loop over chunks w, w + warps of the grid, ... on the resident CTAs, then grid_sum.
// Two instantiations: the loop costs registers, and grid_sum's shared memory and barrier cost
// the plain SpMV ~10% even when its branch is not taken (H100, session 9, probe3: the same body
// without them 78.9% of copy on Poisson f64, with them 71.5%).
template <class T, int kThreads, int R, int C, int kTeam, int kRowsInFlight, bool kFusedDot>
__global__ void __launch_bounds__(kThreads, spmv_tuning::team_min_ctas_per_sm(sizeof(T), R, C, kTeam, kFusedDot))
    spmv_team_kernel(const Params<T> p) {
  static_assert(kThreads % 32 == 0, "teams live in whole warps");
  constexpr int kBlockRowsPerChunk = 32 / kTeam * kRowsInFlight;
  const PlainRows<T> rows{p, p.alpha.get(), p.beta.get()};
  const int first_chunk = static_cast<int>((static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x) / 32);
  if constexpr (kFusedDot) {
    const int chunks = p.block_rows / kBlockRowsPerChunk + (p.block_rows % kBlockRowsPerChunk != 0);
    const int grid_warps = static_cast<int>(gridDim.x) * (kThreads / 32);
    T dot_terms = T(0);
#pragma unroll 1
    for (int chunk = first_chunk; chunk < chunks; chunk += grid_warps)  // uniform per warp
      dot_terms += team_block_rows<T, R, C, kTeam, kRowsInFlight>(p, rows, chunk);
    // Every thread of every CTA arrives here.
    const T mine[1] = {dot_terms};
    T total[1];
    if (grid_sum<kThreads, 1>(mine, p.dot_ws, total) && threadIdx.x == 0) *p.dot_result = total[0];
  } else {
    team_block_rows<T, R, C, kTeam, kRowsInFlight>(p, rows, first_chunk);
  }
}

}  // namespace bsrflow::spmv_detail
