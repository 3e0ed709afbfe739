// Fused vector operations of the iterative solvers, f32 and f64. Every op is ONE kernel:
//
//   KernelLaunch k = axpy_launch<double>(n, scalar_at(d_alpha), p, x);  // a value: launch it, put it
//   k.launch(stream);                                                    // in a graph, update a node
//   axpy<double>(n, scalar_at(d_alpha), p, x, stream);                   // = axpy_launch(...).launch(stream)
//
//   axpy   y = alpha x + y
//   xpby   y = x + beta y
//   axpby  y = a x + b y        (y is not read when b is 0, so NaN / garbage in y does not propagate)
//   dot    *result = x . y      (result in device memory; deterministic, see below)
//   nrm2   *result = ||x||_2    (sqrt of the sum of squares; no scaling, so it overflows where
//                                the sum of squares does: |x_i| around 1e154 in f64, 1e19 in f32)
//
// Arithmetic: axpby computes fma(a, x, b * y) (a * x when b == 0); axpy and xpby are axpby with
// b = 1 and a = 1. dot / nrm2 accumulate fma(x_i, y_i, acc) per thread in T, then grid_sum.
//
// Contract details:
//  - n == 0 is valid: nothing is read or written except dot / nrm2, which write 0. The launch
//    still has one block (a KernelLaunch is never empty). Null x / y are accepted when n == 0.
//  - Scalars: ScalarArg (scalar_arg.hpp); device values are read when the kernel runs, so a
//    captured graph sees the current value at every replay. "b is 0" is decided on the device at
//    run time, for host and device scalars alike.
//  - Loads and stores are 16 bytes wide (float4 / double2) when x and y are both 16-byte
//    aligned, element-wise otherwise; checked on the host when the launch is made. The
//    assignment of elements to threads is the same either way, so dot / nrm2 give bitwise the
//    same result for aligned and misaligned copies of the same data.
//  - dot / nrm2 grid: reduce_grid_blocks(n) blocks of 256 threads (one element per thread, at most
//    4 blocks per SM), a pure function of n and the current device's SM count, capped at
//    ws.max_blocks. The result is bitwise identical run to run for the same n, device model and
//    ws.max_blocks; it may differ in the last bits between GPUs with different SM counts.
//  - x and y may be the same vector (axpy(n, a, v, v) gives v = fma(a, v, v)); partially
//    overlapping x and y are not supported (not checked).
//  - No allocation, no synchronisation, no host work proportional to n: capturable. The only host
//    calls besides the launch are cudaGetDevice / cudaDeviceGetAttribute (SM count).
//
// Errors, Error(invalid_argument), checked before any CUDA call:
//   "axpy: n (-1) is negative", "axpy: x is null but n = 5", "dot: result is null", and the
//   workspace checks of check_reduce_workspace ("dot: the grid has 40 blocks but the reduce
//   workspace serves at most 32", ...).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bsrflow/core/kernel_launch.hpp"
#include "bsrflow/ops/reduce_workspace.hpp"
#include "bsrflow/ops/scalar_arg.hpp"

namespace bsrflow {

// Grid of dot / nrm2 for n elements: clamp(ceil(n / 256), 1, 4 * SM count of the current
// device). Size a workspace with reduce_workspace_bytes(reduce_grid_blocks(n), 1, sizeof(T)) (or
// for reduce_grid_blocks of the largest n it will serve). Throws Error(invalid_argument) for n < 0.
int reduce_grid_blocks(std::int64_t n);

// T is float or double (explicit instantiations in vector_ops.cu).
template <class T> KernelLaunch axpy_launch(std::int64_t n, ScalarArg<T> alpha, const T* x, T* y);
template <class T> KernelLaunch xpby_launch(std::int64_t n, const T* x, ScalarArg<T> beta, T* y);
template <class T> KernelLaunch axpby_launch(std::int64_t n, ScalarArg<T> a, const T* x, ScalarArg<T> b, T* y);
template <class T> KernelLaunch dot_launch(std::int64_t n, const T* x, const T* y, T* result, ReduceWorkspace<T> ws);
template <class T> KernelLaunch nrm2_launch(std::int64_t n, const T* x, T* result, ReduceWorkspace<T> ws);

template <class T>
void axpy(std::int64_t n, ScalarArg<T> alpha, const T* x, T* y, cudaStream_t stream) {
  axpy_launch<T>(n, alpha, x, y).launch(stream);
}
template <class T>
void xpby(std::int64_t n, const T* x, ScalarArg<T> beta, T* y, cudaStream_t stream) {
  xpby_launch<T>(n, x, beta, y).launch(stream);
}
template <class T>
void axpby(std::int64_t n, ScalarArg<T> a, const T* x, ScalarArg<T> b, T* y, cudaStream_t stream) {
  axpby_launch<T>(n, a, x, b, y).launch(stream);
}
template <class T>
void dot(std::int64_t n, const T* x, const T* y, T* result, ReduceWorkspace<T> ws, cudaStream_t stream) {
  dot_launch<T>(n, x, y, result, ws).launch(stream);
}
template <class T>
void nrm2(std::int64_t n, const T* x, T* result, ReduceWorkspace<T> ws, cudaStream_t stream) {
  nrm2_launch<T>(n, x, result, ws).launch(stream);
}

}  // namespace bsrflow
