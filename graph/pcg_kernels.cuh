// The fused kernels of PcgSolver (pcg.hpp). Each thread owns whole preconditioner blocks of kB
// rows (kB = 1 for Jacobi), so applying M^-1 needs no value another thread writes in the same
// kernel. Dot products accumulate in double and go through grid_sum (deterministic); the last
// block of a reduction does the scalar work (CG coefficients, the loop decision).
#pragma once

#include <cstdint>

#include "bsrflow/graph/loop_control.hpp"
#include "bsrflow/ops/device_reduce.cuh"
#include "bsrflow/ops/jacobi.hpp"

namespace bsrflow::detail {

inline constexpr int kPcgThreads = 256;

// Device scalars of one solve.
struct PcgScalars {
  double rz = 0;          // r . z of the current residual
  double rr = 0;          // r . r
  double bb = 0;          // b . b
  double threshold2 = 0;  // (rtol ||b|| + atol)^2
  double beta = 0;
  int breakdown = 0;      // p . Ap <= 0 or not finite
  unsigned iterations = 0;  // written by the persistent kernel only (the graph loop counts in its LoopWords)
  int not_cooperative = 0;  // the persistent kernel ran without a cooperative launch (and did nothing)
};

// The one plain-data parameter block of the PCG kernels.
template <class T>
struct PcgVectors {
  std::int64_t n = 0;
  const T* b = nullptr;
  T* x = nullptr;
  T* r = nullptr;
  T* p = nullptr;
  const T* q = nullptr;   // A p (or A x before the loop)
  const T* pq = nullptr;  // p . q, written by the SpMV's fused dot (or the operator path's dot)
  PcgScalars* s = nullptr;
  JacobiApply<T> m;
  ReduceWorkspace<double> ws;
  LoopControl loop;
  double rtol = 0;
  double atol = 0;
};

// z = M^-1 r for block row `blk` held in registers.
template <int kB, class T>
__device__ void precondition(const PcgVectors<T>& v, std::int64_t blk, const double (&r)[kB], double (&z)[kB]) {
  if (v.m.kind == Preconditioner::block_jacobi) {
    const T* inv = v.m.inverse + blk * kB * kB;  // (kB, kB) row-major
#pragma unroll
    for (int i = 0; i < kB; ++i) {
      double sum = 0;
#pragma unroll
      for (int j = 0; j < kB; ++j) sum += static_cast<double>(inv[i * kB + j]) * r[j];
      z[i] = sum;
    }
  } else if (v.m.kind == Preconditioner::jacobi) {
#pragma unroll
    for (int i = 0; i < kB; ++i) {
      const std::int64_t row = blk * kB + i;
      z[i] = row < v.n ? static_cast<double>(v.m.inverse[row]) * r[i] : 0.0;
    }
  } else {
#pragma unroll
    for (int i = 0; i < kB; ++i) z[i] = r[i];
  }
}

// Calls fn(blk) for each block of kB rows this thread owns (grid-stride over the n / kB blocks).
template <int kB, class T, class Fn>
__device__ void for_each_owned_block(const PcgVectors<T>& v, Fn&& fn) {
  const std::int64_t blocks = (v.n + kB - 1) / kB;
  for (std::int64_t blk = blockIdx.x * static_cast<std::int64_t>(kPcgThreads) + threadIdx.x; blk < blocks;
       blk += static_cast<std::int64_t>(gridDim.x) * kPcgThreads)
    fn(blk);
}

// The initial residual of preconditioner block `blk`: r = b - q stored, z = M^-1 r stored into
// z_out; adds r.z, r.r, b.b to acc. (q is read through L2: the persistent kernel wrote it.)
template <int kB, class T>
__device__ __forceinline__ void initial_residual_block(const PcgVectors<T>& v, std::int64_t blk, T* z_out,
                                                       double (&acc)[3]) {
  double r[kB], z[kB];
#pragma unroll
  for (int k = 0; k < kB; ++k) {
    const std::int64_t i = blk * kB + k;
    r[k] = 0;
    if (i < v.n) {
      const double bi = v.b[i];
      r[k] = bi - static_cast<double>(__ldcg(v.q + i));
      acc[2] += bi * bi;
    }
  }
  precondition<kB>(v, blk, r, z);
#pragma unroll
  for (int k = 0; k < kB; ++k) {
    const std::int64_t i = blk * kB + k;
    if (i >= v.n) continue;
    v.r[i] = static_cast<T>(r[k]);
    z_out[i] = static_cast<T>(z[k]);
    acc[0] += r[k] * z[k];
    acc[1] += r[k] * r[k];
  }
}

// The update of block `blk`: x += alpha p, r -= alpha q, z = M^-1 r (stored into z_out unless
// null); adds r.z, r.r to acc.
template <int kB, class T>
__device__ __forceinline__ void update_block(const PcgVectors<T>& v, std::int64_t blk, double alpha, const T* p,
                                             T* z_out, double (&acc)[2]) {
  double r[kB], z[kB];
#pragma unroll
  for (int k = 0; k < kB; ++k) {
    const std::int64_t i = blk * kB + k;
    r[k] = 0;
    if (i < v.n) {
      v.x[i] = static_cast<T>(static_cast<double>(__ldcg(v.x + i)) + alpha * static_cast<double>(__ldcg(p + i)));
      r[k] = static_cast<double>(__ldcg(v.r + i)) - alpha * static_cast<double>(__ldcg(v.q + i));
      v.r[i] = static_cast<T>(r[k]);
    }
  }
  precondition<kB>(v, blk, r, z);
#pragma unroll
  for (int k = 0; k < kB; ++k) {
    const std::int64_t i = blk * kB + k;
    if (z_out != nullptr && i < v.n) z_out[i] = static_cast<T>(z[k]);
    acc[0] += r[k] * z[k];
    acc[1] += r[k] * r[k];
  }
}

// r = b - q (q = A x), p = z = M^-1 r; r.z, r.r, b.b; decides whether the loop starts.
template <int kB, class T>
__global__ void __launch_bounds__(kPcgThreads) pcg_init(PcgVectors<T> v) {
  double acc[3] = {0, 0, 0};  // r.z, r.r, b.b
  for_each_owned_block<kB>(v, [&](std::int64_t blk) { initial_residual_block<kB>(v, blk, v.p, acc); });
  double total[3];
  if (grid_sum<kPcgThreads, 3>(acc, v.ws, total) && threadIdx.x == 0) {
    const double threshold = v.rtol * sqrt(total[2]) + v.atol;
    v.s->rz = total[0];
    v.s->rr = total[1];
    v.s->bb = total[2];
    v.s->threshold2 = threshold * threshold;
    v.s->beta = 0;
    v.s->breakdown = 0;
    v.loop.start(total[1] > threshold * threshold);
  }
}

// alpha = r.z / p.q; x += alpha p; r -= alpha q; then r.z and r.r of the new residual, and in the
// last block beta and whether another iteration runs.
template <int kB, class T>
__global__ void __launch_bounds__(kPcgThreads) pcg_update(PcgVectors<T> v) {
  // The stop flag is written only by this kernel's last block, after every block has passed
  // this point, so all blocks see the same value (grid_sum needs every block).
  if (v.loop.stopped()) return;
  const double pq = static_cast<double>(*v.pq);
  const double alpha = v.s->rz / pq;
  const bool ok = pq > 0 && isfinite(alpha);  // same in every thread
  double acc[2] = {0, 0};  // r.z, r.r
  if (ok) for_each_owned_block<kB>(v, [&](std::int64_t blk) { update_block<kB>(v, blk, alpha, v.p, static_cast<T*>(nullptr), acc); });
  double total[2];
  if (grid_sum<kPcgThreads, 2>(acc, v.ws, total) && threadIdx.x == 0) {
    if (!ok) {
      v.s->breakdown = 1;
      v.loop.end_iteration(false);
    } else {
      const double beta = total[0] / v.s->rz;
      v.s->beta = beta;
      v.s->rz = total[0];
      v.s->rr = total[1];
      v.loop.end_iteration(total[1] > v.s->threshold2 && isfinite(beta));
    }
  }
}

// p = M^-1 r + beta p (skipped once the loop has decided to stop).
template <int kB, class T>
__global__ void __launch_bounds__(kPcgThreads) pcg_direction(PcgVectors<T> v) {
  if (v.loop.stopped()) return;
  const double beta = v.s->beta;
  for_each_owned_block<kB>(v, [&](std::int64_t blk) {
    double r[kB], z[kB];
#pragma unroll
    for (int k = 0; k < kB; ++k) {
      const std::int64_t i = blk * kB + k;
      r[k] = i < v.n ? static_cast<double>(v.r[i]) : 0.0;
    }
    precondition<kB>(v, blk, r, z);
#pragma unroll
    for (int k = 0; k < kB; ++k) {
      const std::int64_t i = blk * kB + k;
      if (i < v.n) v.p[i] = static_cast<T>(z[k] + beta * static_cast<double>(v.p[i]));
    }
  });
}

}  // namespace bsrflow::detail
