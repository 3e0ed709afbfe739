// PCG as one persistent, cooperative kernel (PcgExecution::persistent, pcg.hpp): the whole solve
// - q = A x, the initial residual and every iteration - runs in one launch whose CTAs meet at
// grid barriers instead of kernel boundaries. For small systems, where the three-kernel graph
// loop pays ~6 us of node turnaround per kernel (docs/perf_log_pcg.md, entry 2), this is the
// one-launch-per-solve form.
//
// Jacobi or no preconditioner (one row per preconditioner block, kB = 1): the Chronopoulos-Gear
// ordering of PCG, whose two dots of an iteration are taken at one point, so one grid barrier per
// iteration. With u = M^-1 r, w = A u, s = A p kept by recurrence:
//   gamma = r.u, delta = w.u (reduced at the barrier);  beta = gamma / gamma_prev,
//   alpha = gamma / (delta - beta gamma / alpha_prev);  p = u + beta p;  s = w + beta s;
//   x += alpha p;  r -= alpha s;  then w = A u for the new r, with the next gamma, delta, r.r.
// The vector updates and the next SpMV run in the same phase: wherever the SpMV gathers u_j it
// recomputes it from the previous r, w and s (u_j = M_j (r_j - alpha (w_j + beta s_j))), with the
// same rounded operations the row's owner uses to store s and r, so both see bitwise the same
// values. r, s and w are double-buffered (owners write the new copy while gatherers read the old);
// p and x are touched by their owners only.
//
// Block-Jacobi (kB = R > 1: u of a row needs its whole block, which a gather cannot rebuild
// cheaply): textbook PCG with two grid barriers per iteration: (A) q = A p' with
// p'_j = z_j + beta p_j made on the fly wherever the SpMV gathers it (so no pass and no barrier
// for the direction update); the row that owns p'_i stores it (into the other p buffer) and adds
// p'_i q_i -> barrier; (B) alpha; x += alpha p'; r -= alpha q; z = M^-1 r (stored for A's gather);
// r.z, r.r -> barrier; beta and the stop decision.
//
// Both run the SpMV kernel's own group code (ops/spmv_kernel.cuh) over the plan's partition, each
// CTA taking groups blockIdx.x, blockIdx.x + gridDim.x, ..., and the fused kernels' vector helpers
// (pcg_kernels.cuh). Reductions: each CTA publishes its block sums, the grid barrier orders them,
// then warp 0 of every CTA adds all partials in the same fixed order, so every CTA holds bitwise
// the same scalars and takes the same decisions; a solve is bitwise reproducible for a given grid
// (a pure function of the matrix and the device's SM count). The results differ from the
// three-kernel loop's in the last bits (other reduction trees, other recurrences).
//
// Memory: vectors written inside the kernel are read with ld.global.cg (L2), never through the
// read-only path (.nc may serve stale data for memory written during the kernel); grid.sync()
// orders the writes before a barrier with the reads after it.
#pragma once

#include <cooperative_groups.h>

#include <cub/block/block_reduce.cuh>

#include <cstdint>

#include "bsrflow/graph/pcg_kernels.cuh"
#include "bsrflow/ops/spmv_kernel.cuh"

namespace bsrflow::detail {

inline constexpr int kPcgPersistentItems = 8;       // values per thread of the SpMV groups (its plan's items)
inline constexpr int kPcgPersistentPartialRows = 7;  // two sets of up to 4 sums, alternating (see below)
inline constexpr int kPcgPersistentWorkVectors = 4;  // kernel-private vectors of n values

// The persistent kernel's buffers beyond PcgVectors.
template <class T>
struct PcgPersistentBuffers {
  T* work = nullptr;            // (kPcgPersistentWorkVectors, n): kB = 1: the second r, both s, the
                                // second w (v.q is the first); kB > 1: z, the second p
  double* partials = nullptr;   // (kPcgPersistentPartialRows, max_blocks) per-CTA sums
  int max_blocks = 0;           // the grid may not exceed it
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
// Grid-wide sums of K values: per-warp butterflies, one barrier, thread 0 adds the warp sums and
// publishes the CTA's sums into partial rows first_row.., a grid barrier, then warp 0 of every
// CTA adds all CTAs' partials in the same fixed order. Called by all threads of every CTA.
// Partial rows: consecutive reductions must use disjoint rows (a fast CTA may publish the next
// sums while a slow one still reads these).
template <int K>
__device__ __forceinline__ void persistent_grid_sum(const double (&mine)[K], double* partials, int stride,
                                                    int first_row, double (&total)[K],
                                                    double (&warp_sums)[4][kPcgThreads / 32], double (&s_total)[4]) {
  static_assert(K >= 1 && K <= 4, "at most four sums at once");
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  double v[K];
  for (int k = 0; k < K; ++k) v[k] = mine[k];
  for (int offset = 16; offset > 0; offset /= 2)
    for (int k = 0; k < K; ++k) v[k] += __shfl_down_sync(0xffffffffu, v[k], offset);
  if (lane == 0)
    for (int k = 0; k < K; ++k) warp_sums[k][warp] = v[k];
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 0; k < K; ++k) {
      double sum = 0;
      for (int w = 0; w < kPcgThreads / 32; ++w) sum += warp_sums[k][w];
      partials[(first_row + k) * stride + blockIdx.x] = sum;
    }
  }
  cooperative_groups::this_grid().sync();
  if (warp == 0) {
    double sum[K];
    for (int k = 0; k < K; ++k) sum[k] = 0;
    for (unsigned b = lane; b < gridDim.x; b += 32)
      for (int k = 0; k < K; ++k) sum[k] += __ldcg(partials + (first_row + k) * stride + b);
    for (int offset = 16; offset > 0; offset /= 2)
      for (int k = 0; k < K; ++k) sum[k] += __shfl_down_sync(0xffffffffu, sum[k], offset);
    if (lane == 0)
      for (int k = 0; k < K; ++k) s_total[k] = sum[k];
  }
  __syncthreads();
  for (int k = 0; k < K; ++k) total[k] = s_total[k];
}

// ---- Jacobi / none (kB = 1): one barrier per iteration --------------------------------------

// The rounded recurrences of one iteration, shared by the owners that store s and r and by every
// gather and row finish that rebuilds them (explicit __fma_rn / __dmul_rn: no contraction may
// make two call sites differ).
template <class T>
struct CgcgStep {
  const T* r_old;       // r_i
  const T* w_old;       // w_i = A u_i
  const T* s_prev;      // s_{i-1} (unused in the first iteration)
  const T* minv;        // Jacobi's inverse diagonal (1 x 1 block inverses), or null for none
  double alpha;
  double beta;
  bool first;
  // What one row's recurrences read, loaded together (one round of independent loads).
  struct Inputs {
    T r = T(0), w = T(0), s = T(0), m = T(1);
  };
  __device__ __forceinline__ Inputs load(std::int64_t j) const {
    Inputs in;
    in.w = __ldcg(w_old + j);
    if (!first) in.s = __ldcg(s_prev + j);
    in.r = __ldcg(r_old + j);
    if (minv != nullptr) in.m = minv[j];
    return in;
  }
  __device__ __forceinline__ T s_new(const Inputs& in) const {  // s_i = w_i + beta s_{i-1}
    const double w = static_cast<double>(in.w);
    return static_cast<T>(first ? w : __fma_rn(beta, static_cast<double>(in.s), w));
  }
  __device__ __forceinline__ T r_new(const Inputs& in, T s) const {  // r_{i+1} = r_i - alpha s_i
    return static_cast<T>(__fma_rn(-alpha, static_cast<double>(s), static_cast<double>(in.r)));
  }
  __device__ __forceinline__ T u_of(T m, T r) const {  // u = M^-1 r
    return minv == nullptr ? r : static_cast<T>(__dmul_rn(static_cast<double>(m), static_cast<double>(r)));
  }
};

// Rows policy of an iteration's SpMV: w_{i+1} = A u_{i+1}, u_{i+1} rebuilt wherever it is gathered;
// the row finish stores w_{i+1} and adds r.u, w.u, r.r of the row (into acc: three dots, so not
// through the single dot term the group code returns). The finish's inputs are prefetched.
template <class T>
struct CgcgRows {
  CgcgStep<T> step;
  T* w_next;
  mutable double acc[3] = {0, 0, 0};  // gamma, delta, r.r (this thread's rows)
  __device__ __forceinline__ T x(std::int64_t j) const {
    const typename CgcgStep<T>::Inputs in = step.load(j);
    return step.u_of(in.m, step.r_new(in, step.s_new(in)));
  }
  __device__ __forceinline__ typename CgcgStep<T>::Inputs prefetch(std::int64_t row) const { return step.load(row); }
  __device__ __forceinline__ T finish(std::int64_t row, T sum, const typename CgcgStep<T>::Inputs& in) const {
    const T r = step.r_new(in, step.s_new(in));
    const double u = static_cast<double>(step.u_of(in.m, r));
    w_next[row] = sum;
    acc[0] += static_cast<double>(r) * u;
    acc[1] += static_cast<double>(sum) * u;
    acc[2] += static_cast<double>(r) * static_cast<double>(r);
    return T(0);
  }
  __device__ __forceinline__ T finish(std::int64_t row, T sum) const { return finish(row, sum, step.load(row)); }
};

// Rows policy of the setup SpMV w_0 = A u_0 with r_0 = b - q, q = A x_0 (in `q`).
template <class T>
struct CgcgInitRows {
  const T* b;
  const T* q;
  const T* minv;
  T* w0;
  mutable double acc[4] = {0, 0, 0, 0};  // gamma, delta, r.r, b.b
  __device__ __forceinline__ T r0(std::int64_t j) const {
    return static_cast<T>(__dadd_rn(static_cast<double>(b[j]), -static_cast<double>(__ldcg(q + j))));
  }
  __device__ __forceinline__ T u_of(std::int64_t j, T r) const {
    return minv == nullptr ? r : static_cast<T>(__dmul_rn(static_cast<double>(minv[j]), static_cast<double>(r)));
  }
  __device__ __forceinline__ T x(std::int64_t j) const { return u_of(j, r0(j)); }
  __device__ __forceinline__ T finish(std::int64_t row, T sum) const {
    const T r = r0(row);
    const double u = static_cast<double>(u_of(row, r));
    const double bi = static_cast<double>(b[row]);
    w0[row] = sum;
    acc[0] += static_cast<double>(r) * u;
    acc[1] += static_cast<double>(sum) * u;
    acc[2] += static_cast<double>(r) * static_cast<double>(r);
    acc[3] += bi * bi;
    return T(0);
  }
};

// The shared memory of the persistent kernel's SpMV groups and reductions.
template <class T>
struct PcgPersistentShared {
  T prod[kPcgThreads * kPcgPersistentItems];
  typename cub::BlockReduce<T, kPcgThreads>::TempStorage spmv_reduce;
  double warp_sums[4][kPcgThreads / 32];
  double total[4];
};

// This CTA's groups of the SpMV with rows policy `rows`, then a barrier so s_prod can be refilled.
template <class T, class Rows>
__device__ __forceinline__ double persistent_spmv(const spmv_detail::Params<T>& a, const Rows& rows,
                                                  PcgPersistentShared<T>& sh) {
  double dot = 0;
  for (int g = static_cast<int>(blockIdx.x); g < a.groups; g += static_cast<int>(gridDim.x)) {
    dot += static_cast<double>(
        spmv_detail::spmv_group<T, kPcgThreads, kPcgPersistentItems>(a, rows, g, sh.prod, sh.spmv_reduce));
    // s_prod is refilled by the next group (after the last one, every caller reaches a barrier
    // before the next SpMV: the grid sum's or the grid's).
    if (g + static_cast<int>(gridDim.x) < a.groups) __syncthreads();
  }
  return dot;
}

// q = A x_0 (the caller's guess) into v.q, then a grid barrier.
template <class T>
__device__ __forceinline__ void persistent_initial_product(const PcgVectors<T>& v, const spmv_detail::Params<T>& a,
                                                           PcgPersistentShared<T>& sh) {
  persistent_spmv(a, PcgGatherRows<T>{v.x, const_cast<T*>(v.q)}, sh);
  cooperative_groups::this_grid().sync();
}

// The end of a solve: CTA 0 publishes the scalars solve() reads.
template <class T>
__device__ __forceinline__ void persistent_publish(const PcgVectors<T>& v, double rz, double rr, double bb,
                                                   double threshold2, double beta, int breakdown, unsigned iterations) {
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

// Calls fn(j) for the rows this thread owns in the single-barrier loop: CTA c owns the c-th of
// gridDim.x equal slices of [0, n) (not a grid stride: when n < 256 x gridDim.x every CTA still
// gets rows, so no CTA carries both a full owner pass and its SpMV groups while others idle).
template <class Fn>
__device__ __forceinline__ void for_each_owned_row(std::int64_t n, Fn&& fn) {
  const std::int64_t per_cta = (n + gridDim.x - 1) / gridDim.x;
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * per_cta;
  const std::int64_t end = min(n, begin + per_cta);
  for (std::int64_t j = begin + threadIdx.x; j < end; j += kPcgThreads) fn(j);
}

template <class T>
__device__ void persistent_single_barrier(const PcgVectors<T>& v, const PcgPersistentBuffers<T>& e,
                                          const spmv_detail::Params<T>& a, PcgPersistentShared<T>& sh) {
  const int stride = e.max_blocks;
  const std::int64_t n = v.n;
  const T* minv = v.m.kind == Preconditioner::none ? nullptr : v.m.inverse;  // kB = 1: 1 x 1 block inverses too
  // The current and the next copy of r, s (s_prev: s_{i-1}; s_cur: s_i) and w, swapped after each
  // iteration (plain pointers: an array indexed by the iteration's parity would live in local memory).
  T* r_cur = v.r;
  T* r_next = e.work;
  T* s_prev = e.work + n;
  T* s_cur = e.work + 2 * n;
  T* w_cur = const_cast<T*>(v.q);
  T* w_next = e.work + 3 * n;

  // q = A x_0 into w_next (free until iteration 0 writes it), barrier; then r_0 = b - q stored by
  // its owners and w_0 = A u_0 with r_0, u_0 rebuilt where gathered; gamma_0, delta_0, r.r, b.b.
  persistent_spmv(a, PcgGatherRows<T>{v.x, w_next}, sh);
  cooperative_groups::this_grid().sync();
  const CgcgInitRows<T> init{v.b, w_next, minv, w_cur};
  for_each_owned_row(n, [&](std::int64_t j) { r_cur[j] = init.r0(j); });
  persistent_spmv(a, init, sh);
  double sums[4];
  persistent_grid_sum<4>(init.acc, e.partials, stride, 0, sums, sh.warp_sums, sh.total);
  double gamma = sums[0], delta = sums[1], rr = sums[2];
  const double bb = sums[3];
  const double threshold = v.rtol * sqrt(bb) + v.atol;
  const double threshold2 = threshold * threshold;
  double gamma_prev = 0, alpha_prev = 0, beta = 0;
  unsigned iterations = 0;
  int breakdown = 0;

  for (;;) {  // uniform: every CTA computes the same scalars
    if (!(rr > threshold2) || iterations >= v.loop.max_iterations) break;
    const bool first = iterations == 0;
    beta = first ? 0.0 : gamma / gamma_prev;
    if (!isfinite(beta)) break;
    const double denominator = first ? delta : delta - beta * gamma / alpha_prev;  // p.Ap in exact arithmetic
    const double alpha = gamma / denominator;
    ++iterations;
    if (!(denominator > 0 && isfinite(alpha))) {
      breakdown = 1;
      break;
    }
    const CgcgStep<T> step{r_cur, w_cur, s_prev, minv, alpha, beta, first};

    // Owners: p = u + beta p, s = w + beta s, x += alpha p, r -= alpha s (new copies of s and r).
    for_each_owned_row(n, [&](std::int64_t j) {
      const typename CgcgStep<T>::Inputs in = step.load(j);
      const double u = static_cast<double>(step.u_of(in.m, in.r));
      const T p = static_cast<T>(first ? u : __fma_rn(beta, static_cast<double>(__ldcg(v.p + j)), u));
      const T s = step.s_new(in);
      v.p[j] = p;
      s_cur[j] = s;
      v.x[j] = static_cast<T>(__fma_rn(alpha, static_cast<double>(p), static_cast<double>(__ldcg(v.x + j))));
      r_next[j] = step.r_new(in, s);
    });

    // w_{i+1} = A u_{i+1} and the next gamma, delta, r.r; partial rows alternate between 0-2 and 4-6.
    const CgcgRows<T> rows{step, w_next};
    persistent_spmv(a, rows, sh);
    double next[3];
    persistent_grid_sum<3>(rows.acc, e.partials, stride, (iterations & 1) ? 4 : 0, next, sh.warp_sums, sh.total);
    gamma_prev = gamma;
    alpha_prev = alpha;
    gamma = next[0];
    delta = next[1];
    rr = next[2];
    T* t = r_cur;
    r_cur = r_next;
    r_next = t;
    t = s_prev;
    s_prev = s_cur;
    s_cur = t;
    t = w_cur;
    w_cur = w_next;
    w_next = t;
  }
  persistent_publish(v, gamma, rr, bb, threshold2, beta, breakdown, iterations);
}

// ---- block-Jacobi (kB > 1): two barriers per iteration --------------------------------------

template <int kB, class T>
__device__ void persistent_two_barrier(const PcgVectors<T>& v, const PcgPersistentBuffers<T>& e,
                                       const spmv_detail::Params<T>& a, PcgPersistentShared<T>& sh) {
  const int stride = e.max_blocks;
  T* z_buf = e.work;
  persistent_initial_product(v, a, sh);

  // r = b - q, z = M^-1 r; r.z, r.r, b.b.
  double init[3] = {0, 0, 0};
  for_each_owned_block<kB>(v, [&](std::int64_t blk) { initial_residual_block<kB>(v, blk, z_buf, init); });
  double sums[3];
  persistent_grid_sum<3>(init, e.partials, stride, 0, sums, sh.warp_sums, sh.total);
  double rz = sums[0], rr = sums[1], beta = 0;
  const double bb = sums[2];
  const double threshold = v.rtol * sqrt(bb) + v.atol;
  const double threshold2 = threshold * threshold;
  unsigned iterations = 0;
  int breakdown = 0;
  bool run = rr > threshold2 && v.loop.max_iterations > 0;
  T* p_old = v.p;
  T* p_new = e.work + v.n;

  while (run) {  // uniform: every CTA computes the same scalars
    // A. q = A p', p' stored, p'.q.
    double pq_part[1];
    pq_part[0] = persistent_spmv(a, PcgDirectionRows<T>{z_buf, p_old, p_new, const_cast<T*>(v.q), beta, iterations == 0}, sh);
    double pq[1];
    persistent_grid_sum<1>(pq_part, e.partials, stride, 3, pq, sh.warp_sums, sh.total);
    const double alpha = rz / pq[0];
    ++iterations;
    if (!(pq[0] > 0 && isfinite(alpha))) {
      breakdown = 1;
      break;
    }

    // B. x += alpha p', r -= alpha q, z = M^-1 r; r.z, r.r.
    double acc[2] = {0, 0};
    for_each_owned_block<kB>(v, [&](std::int64_t blk) { update_block<kB>(v, blk, alpha, p_new, z_buf, acc); });
    double next[2];
    persistent_grid_sum<2>(acc, e.partials, stride, 4, next, sh.warp_sums, sh.total);
    beta = next[0] / rz;
    rz = next[0];
    rr = next[1];
    run = rr > threshold2 && isfinite(beta) && iterations < v.loop.max_iterations;
    T* const t = p_old;
    p_old = p_new;
    p_new = t;
  }
  persistent_publish(v, rz, rr, bb, threshold2, beta, breakdown, iterations);
}

template <int kB, class T>
__global__ void __launch_bounds__(kPcgThreads) pcg_persistent(PcgVectors<T> v, PcgPersistentBuffers<T> e,
                                                              spmv_detail::Params<T> a) {
  __shared__ PcgPersistentShared<T> sh;
  // Without the cooperative attribute grid.sync() is undefined: refuse and say so (the host
  // raises an error when it reads the result).
  if (!cooperative_groups::this_grid().is_valid() || static_cast<int>(gridDim.x) > e.max_blocks) {
    if (blockIdx.x == 0 && threadIdx.x == 0) v.s->not_cooperative = 1;
    return;
  }
  if constexpr (kB == 1)
    persistent_single_barrier(v, e, a, sh);
  else
    persistent_two_barrier<kB>(v, e, a, sh);
}

}  // namespace bsrflow::detail
