// COO -> CSR kernels. Symbolic: (row, col) -> 64-bit keys (then a stable radix sort, elsewhere),
// run heads of the sorted keys, one CSR entry per run. Numeric: each CSR entry sums its run of
// COO values in input order.
//
// NOTES: the radix sort is stable, so within a run of equal keys the gathered COO positions are
// increasing, i.e. in order of appearance: summing a run left to right is exactly the CPU
// oracle's order, and starting from the first value (not from 0) keeps a lone -0.0 as -0.0.
#pragma once

#include <cstdint>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/formats/detail_pattern_status.cuh"

namespace bsrflow::detail {

#if defined(__CUDACC__)

// Non-template kernels are static: this header belongs to one translation unit, and a second
// includer must not get duplicate symbols.

#define BSRFLOW_GRID_STRIDE(i, n)                                                                        \
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)

// key = row * cols + col; an entry outside the shape gets key 0 and is noted (the host throws
// before anything uses the keys).
static __global__ void coo_keys_kernel(std::int64_t nnz, int rows, int cols, const int* __restrict__ row_idx,
                                const int* __restrict__ col_idx, std::uint64_t* __restrict__ keys,
                                unsigned* first_bad_entry) {
  BSRFLOW_GRID_STRIDE(e, nnz) {
    const int r = row_idx[e];
    const int c = col_idx[e];
    const bool inside = r >= 0 && r < rows && c >= 0 && c < cols;
    keys[e] = inside ? static_cast<std::uint64_t>(r) * static_cast<std::uint64_t>(cols) + c : 0;
    if (!inside) atomicMin(first_bad_entry, static_cast<unsigned>(e));
  }
}

// head[j] = 1 where sorted key j starts a run, for j < n; head[n] = 0 (so that an exclusive scan
// of n + 1 items ends with the number of runs).
static __global__ void coo_run_heads_kernel(std::int64_t n, const std::uint64_t* __restrict__ sorted_keys,
                                     int* __restrict__ head) {
  BSRFLOW_GRID_STRIDE(j, n + 1) head[j] = j < n && (j == 0 || sorted_keys[j] != sorted_keys[j - 1]) ? 1 : 0;
}

// One CSR entry per run: its column, its row (for row_ptr) and where its run starts.
static __global__ void coo_runs_kernel(std::int64_t n, int cols, const std::uint64_t* __restrict__ sorted_keys,
                                const int* __restrict__ head, const int* __restrict__ run_of,
                                int* __restrict__ csr_col_idx, int* __restrict__ run_row, int* __restrict__ run_start) {
  BSRFLOW_GRID_STRIDE(j, n) {
    if (j == 0) run_start[run_of[n]] = static_cast<int>(n);  // closing bound
    if (head[j] == 0) continue;
    const int s = run_of[j];
    const std::uint64_t key = sorted_keys[j];
    csr_col_idx[s] = static_cast<int>(key % static_cast<std::uint64_t>(cols));
    run_row[s] = static_cast<int>(key / static_cast<std::uint64_t>(cols));
    run_start[s] = static_cast<int>(j);
  }
}

// out[s] = round(sum of in[order[j]] for j in [run_start[s], run_start[s + 1])), summed in
// accumulator_t<T> left to right from the first term. One thread per CSR entry: runs are short
// (duplicates are the exception), and a thread owning its run keeps the order fixed.
template <class T>
__global__ void coo_to_csr_numeric_kernel(std::int64_t out_nnz, const T* __restrict__ in,
                                          const int* __restrict__ order, const int* __restrict__ run_start,
                                          T* __restrict__ out) {
  using Acc = accumulator_t<T>;
  BSRFLOW_GRID_STRIDE(s, out_nnz) {
    const int first = run_start[s];
    const int end = run_start[s + 1];
    Acc sum = static_cast<Acc>(to_double(in[order[first]]));  // exact widening for every T
    for (int j = first + 1; j < end; ++j) sum += static_cast<Acc>(to_double(in[order[j]]));
    out[s] = from_double<T>(static_cast<double>(sum));  // one rounding (float -> double is exact)
  }
}

#undef BSRFLOW_GRID_STRIDE

#endif  // __CUDACC__

}  // namespace bsrflow::detail
