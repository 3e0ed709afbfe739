// PCG as one persistent, cooperative kernel (PcgExecution::persistent, pcg.hpp): the whole solve
// - q = A x, the initial residual and every iteration - runs in one launch whose CTAs meet at
// grid barriers instead of kernel boundaries. For small systems, where the three-kernel graph
// loop pays ~6 us of node turnaround per kernel (docs/perf_log_pcg.md, entry 2), this is the
// one-launch-per-solve form.
//
// One iteration, two grid barriers:
//   A. q = A p' with p'_j = z_j + beta p_j made on the fly wherever the SpMV gathers it (so no
//      pass and no barrier for the direction update); the row that owns p'_i also stores it
//      (into the other p buffer: neighbours still read the old one) and adds p'_i q_i to p'.q.
//      -> barrier (p'.q)
//   B. alpha = r.z / p'.q; x += alpha p'; r -= alpha q; z = M^-1 r (stored for A's gather);
//      r.z and r.r. -> barrier (r.z, r.r); beta and the stop decision, the same in every CTA.
// The SpMV is the SpMV kernel's own group code (ops/spmv_kernel.cuh) over the plan's partition,
// each CTA taking groups blockIdx.x, blockIdx.x + gridDim.x, ...; the vector work is the fused
// kernels' (pcg_kernels.cuh: precondition, for_each_owned_block).
//
// Reductions: each CTA publishes its block sum, the grid barrier orders it, then warp 0 of every
// CTA adds all partials in the same fixed order, so every CTA holds bitwise the same scalars and
// takes the same decisions; a solve is bitwise reproducible for a given grid (a pure function of
// the matrix and the device's SM count). It differs from the three-kernel loop in the last bits
// (other reduction trees; z stored in T).
//
// Memory: vectors written inside the kernel (x, r, z, p, q) are read with ld.global.cg (L2), never
// through the read-only path (.nc may serve stale data for memory written during the kernel);
// grid.sync() orders the writes before a barrier with the reads after it.
#pragma once

#include <cooperative_groups.h>

#include <cub/block/block_reduce.cuh>

#include <cstdint>

#include "bsrflow/graph/pcg_kernels.cuh"
#include "bsrflow/ops/spmv_kernel.cuh"

namespace bsrflow::detail {

inline constexpr int kPcgPersistentItems = 8;       // values per thread of the SpMV groups (its plan's items)
inline constexpr int kPcgPersistentPartialRows = 6;  // init: r.z, r.r, b.b; A: p.q; B: r.z, r.r

// The persistent kernel's buffers beyond PcgVectors (whose p is the first p buffer).
template <class T>
struct PcgPersistentBuffers {
  T* z = nullptr;                // (n) M^-1 r
  T* p_other = nullptr;          // (n) the second p buffer
  double* partials = nullptr;    // (kPcgPersistentPartialRows, max_blocks) per-CTA sums
  int max_blocks = 0;            // the grid may not exceed it
};

// Rows policy (spmv_kernel.cuh) of q = A x before the loop.
template <class T>
struct PcgGatherRows {
  const T* in;
  T* out;
  __device__ __forceinline__ T x(std::int64_t j) const { return __ldcg(in + j); }
  __device__ __forceinline__ T finish(std::int64_t row, T sum) const {
    out[row] = sum;
    return T(0);
  }
};

// Rows policy of phase A: gathers p'_j = z_j + beta p_j (p' = z in the first iteration).
template <class T>
struct PcgDirectionRows {
  const T* z;
  const T* p_old;
  T* p_new;
  T* q;
  double beta;
  bool first;
  __device__ __forceinline__ T x(std::int64_t j) const {
    const double zj = static_cast<double>(__ldcg(z + j));
    return static_cast<T>(first ? zj : zj + beta * static_cast<double>(__ldcg(p_old + j)));
  }
  __device__ __forceinline__ T finish(std::int64_t row, T sum) const {
    const T p = x(row);  // the same expression as every gather of column `row` (A is square)
    p_new[row] = p;
    q[row] = sum;
    return p * sum;
  }
};

// Grid-wide sums of K values: block sums into partial rows first_row.., a grid barrier, then the
// same fixed-order sum over all CTAs in every CTA. Called by all threads of every CTA.
template <int K>
__device__ __forceinline__ void persistent_grid_sum(const double (&mine)[K], double* partials, int stride,
                                                    int first_row, double (&total)[K],
                                                    typename cub::BlockReduce<double, kPcgThreads>::TempStorage (&temp)[3],
                                                    double (&s_total)[3]) {
  static_assert(K >= 1 && K <= 3, "at most three sums at once");
  for (int k = 0; k < K; ++k) {
    const double block_sum = cub::BlockReduce<double, kPcgThreads>(temp[k]).Sum(mine[k]);
    if (threadIdx.x == 0) partials[(first_row + k) * stride + blockIdx.x] = block_sum;
  }
  cooperative_groups::this_grid().sync();
  if (threadIdx.x < 32) {
    for (int k = 0; k < K; ++k) {
      const double* row = partials + (first_row + k) * stride;
      double sum = 0;
      for (unsigned b = threadIdx.x; b < gridDim.x; b += 32) sum += __ldcg(row + b);
      for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
      if (threadIdx.x == 0) s_total[k] = sum;
    }
  }
  __syncthreads();
  for (int k = 0; k < K; ++k) total[k] = s_total[k];
}

template <int kB, class T>
__global__ void __launch_bounds__(kPcgThreads) pcg_persistent(PcgVectors<T> v, PcgPersistentBuffers<T> e,
                                                              spmv_detail::Params<T> a) {
  constexpr int kItems = kPcgPersistentItems;
  __shared__ T s_prod[kPcgThreads * kItems];
  __shared__ typename cub::BlockReduce<T, kPcgThreads>::TempStorage s_spmv_reduce;
  __shared__ typename cub::BlockReduce<double, kPcgThreads>::TempStorage s_temp[3];
  __shared__ double s_total[3];

  // Without the cooperative attribute grid.sync() is undefined: refuse and say so (the host
  // raises an error when it reads the result).
  if (!cooperative_groups::this_grid().is_valid() || static_cast<int>(gridDim.x) > e.max_blocks) {
    if (blockIdx.x == 0 && threadIdx.x == 0) v.s->not_cooperative = 1;
    return;
  }
  const int stride = e.max_blocks;

  // q = A x.
  {
    const PcgGatherRows<T> rows{v.x, const_cast<T*>(v.q)};
    for (int g = static_cast<int>(blockIdx.x); g < a.groups; g += static_cast<int>(gridDim.x)) {
      spmv_detail::spmv_group<T, kPcgThreads, kItems>(a, rows, g, s_prod, s_spmv_reduce);
      __syncthreads();  // s_prod is refilled by the next group
    }
  }
  cooperative_groups::this_grid().sync();

  // r = b - q, z = M^-1 r; r.z, r.r, b.b.
  double init[3] = {0, 0, 0};
  for_each_owned_block<kB>(v, [&](std::int64_t blk) {
    double r[kB], z[kB];
#pragma unroll
    for (int k = 0; k < kB; ++k) {
      const std::int64_t i = blk * kB + k;
      r[k] = 0;
      if (i < v.n) {
        const double bi = v.b[i];
        r[k] = bi - static_cast<double>(__ldcg(v.q + i));
        init[2] += bi * bi;
      }
    }
    precondition<kB>(v, blk, r, z);
#pragma unroll
    for (int k = 0; k < kB; ++k) {
      const std::int64_t i = blk * kB + k;
      if (i >= v.n) continue;
      v.r[i] = static_cast<T>(r[k]);
      e.z[i] = static_cast<T>(z[k]);
      init[0] += r[k] * z[k];
      init[1] += r[k] * r[k];
    }
  });
  double sums[3];
  persistent_grid_sum<3>(init, e.partials, stride, 0, sums, s_temp, s_total);
  double rz = sums[0], rr = sums[1], beta = 0;
  const double bb = sums[2];
  const double threshold = v.rtol * sqrt(bb) + v.atol;
  const double threshold2 = threshold * threshold;
  unsigned iterations = 0;
  int breakdown = 0;
  bool run = rr > threshold2 && v.loop.max_iterations > 0;
  T* p_old = v.p;
  T* p_new = e.p_other;

  while (run) {  // uniform: every CTA computes the same scalars
    // A. q = A p', p' stored, p'.q.
    double pq_part[1] = {0};
    {
      const PcgDirectionRows<T> rows{e.z, p_old, p_new, const_cast<T*>(v.q), beta, iterations == 0};
      for (int g = static_cast<int>(blockIdx.x); g < a.groups; g += static_cast<int>(gridDim.x)) {
        pq_part[0] += static_cast<double>(spmv_detail::spmv_group<T, kPcgThreads, kItems>(a, rows, g, s_prod, s_spmv_reduce));
        __syncthreads();
      }
    }
    double pq[1];
    persistent_grid_sum<1>(pq_part, e.partials, stride, 3, pq, s_temp, s_total);
    const double alpha = rz / pq[0];
    ++iterations;
    if (!(pq[0] > 0 && isfinite(alpha))) {
      breakdown = 1;
      break;
    }

    // B. x += alpha p', r -= alpha q, z = M^-1 r; r.z, r.r.
    double acc[2] = {0, 0};
    for_each_owned_block<kB>(v, [&](std::int64_t blk) {
      double r[kB], z[kB];
#pragma unroll
      for (int k = 0; k < kB; ++k) {
        const std::int64_t i = blk * kB + k;
        r[k] = 0;
        if (i < v.n) {
          v.x[i] = static_cast<T>(static_cast<double>(__ldcg(v.x + i)) + alpha * static_cast<double>(__ldcg(p_new + i)));
          r[k] = static_cast<double>(__ldcg(v.r + i)) - alpha * static_cast<double>(__ldcg(v.q + i));
          v.r[i] = static_cast<T>(r[k]);
        }
      }
      precondition<kB>(v, blk, r, z);
#pragma unroll
      for (int k = 0; k < kB; ++k) {
        const std::int64_t i = blk * kB + k;
        if (i < v.n) e.z[i] = static_cast<T>(z[k]);
        acc[0] += r[k] * z[k];
        acc[1] += r[k] * r[k];
      }
    });
    double next[2];
    persistent_grid_sum<2>(acc, e.partials, stride, 4, next, s_temp, s_total);
    beta = next[0] / rz;
    rz = next[0];
    rr = next[1];
    run = rr > threshold2 && isfinite(beta) && iterations < v.loop.max_iterations;
    T* const t = p_old;
    p_old = p_new;
    p_new = t;
  }

  if (blockIdx.x == 0 && threadIdx.x == 0) {
    v.s->rz = rz;
    v.s->rr = rr;
    v.s->bb = bb;
    v.s->threshold2 = threshold2;
    v.s->beta = beta;
    v.s->breakdown = breakdown;
    v.s->iterations = iterations;
  }
}

}  // namespace bsrflow::detail
