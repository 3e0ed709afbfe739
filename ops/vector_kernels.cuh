// Kernels of vector_ops.hpp (device code only; launchers in vector_ops.cu).
//
// Work decomposition, shared by all of them: the vectors are cut into 16-byte units of W
// elements (float: 4, double: 2); the last unit may be partial. Thread t of the grid
// (T threads in all) takes units t, t + T, t + 2T, ..., kUnroll of them per loop trip so that
// kUnroll independent loads per operand are in flight. `kAligned` only changes how a full unit
// is moved (one float4 / double2 access instead of W scalar ones); which thread touches which
// element, and the order in which dot adds them, do not depend on it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bsrflow/ops/device_reduce.cuh"
#include "bsrflow/ops/scalar_arg.hpp"

namespace bsrflow::vector_detail {

constexpr int kThreads = 256;   // per block
constexpr int kUnroll = 4;      // units per thread per loop trip
constexpr int kBlocksPerSm = 4;  // resident blocks per SM the grids are sized for (<= 64 registers)

// The 16-byte unit of T.
template <class T> struct Unit;
template <> struct Unit<float> { using type = float4; static constexpr int width = 4; };
template <> struct Unit<double> { using type = double2; static constexpr int width = 2; };

// The plain-data structs that cross the host-kernel boundary.
template <class T>
struct AxpbyParams {
  std::int64_t n = 0;
  ScalarArg<T> a;
  const T* x = nullptr;
  ScalarArg<T> b;
  T* y = nullptr;  // read unless b == 0 at run time
};

template <class T>
struct DotParams {
  std::int64_t n = 0;
  const T* x = nullptr;
  const T* y = nullptr;  // unused for a sum of squares
  T* result = nullptr;
  ReduceWorkspace<T> ws;
};

// Unit u of p (elements [u*W, u*W + W) clipped to n) -> v; zeros past n.
template <class T, bool kAligned>
__device__ __forceinline__ void load_unit(const T* p, std::int64_t n, std::int64_t u, T (&v)[Unit<T>::width]) {
  constexpr int W = Unit<T>::width;
  const std::int64_t first = u * W;
  if (kAligned && first + W <= n) {
    const auto packed = reinterpret_cast<const typename Unit<T>::type*>(p)[u];
    if constexpr (W == 4) {
      v[0] = packed.x, v[1] = packed.y, v[2] = packed.z, v[3] = packed.w;
    } else {
      v[0] = packed.x, v[1] = packed.y;
    }
  } else {
#pragma unroll
    for (int w = 0; w < W; ++w) v[w] = first + w < n ? p[first + w] : T(0);
  }
}

// v -> unit u of p, elements past n untouched.
template <class T, bool kAligned>
__device__ __forceinline__ void store_unit(T* p, std::int64_t n, std::int64_t u, const T (&v)[Unit<T>::width]) {
  constexpr int W = Unit<T>::width;
  const std::int64_t first = u * W;
  if (kAligned && first + W <= n) {
    typename Unit<T>::type packed;
    if constexpr (W == 4) {
      packed.x = v[0], packed.y = v[1], packed.z = v[2], packed.w = v[3];
    } else {
      packed.x = v[0], packed.y = v[1];
    }
    reinterpret_cast<typename Unit<T>::type*>(p)[u] = packed;
  } else {
#pragma unroll
    for (int w = 0; w < W; ++w)
      if (first + w < n) p[first + w] = v[w];
  }
}

// y = fma(a, x, b * y), or a * x when b == 0 (y not read).
template <class T, bool kAligned>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) axpby_kernel(const AxpbyParams<T> p) {
  constexpr int W = Unit<T>::width;
  const T a = p.a.get();
  const T b = p.b.get();
  const bool read_y = b != T(0);  // uniform over the grid
  const std::int64_t units = (p.n + W - 1) / W;
  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * kThreads;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x; base < units;
       base += kUnroll * threads) {
    T xv[kUnroll][W];  // (kUnroll units, W elements)
    T yv[kUnroll][W];
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) {
      const std::int64_t u = base + j * threads;
      if (u < units) {
        load_unit<T, kAligned>(p.x, p.n, u, xv[j]);
        if (read_y) load_unit<T, kAligned>(p.y, p.n, u, yv[j]);
      }
    }
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) {
      const std::int64_t u = base + j * threads;
      if (u < units) {
        T out[W];
#pragma unroll
        for (int w = 0; w < W; ++w) out[w] = read_y ? fma(a, xv[j][w], b * yv[j][w]) : a * xv[j][w];
        store_unit<T, kAligned>(p.y, p.n, u, out);
      }
    }
  }
}

// *result = sum x_i y_i (kSquares: sqrt(sum x_i^2)), through grid_sum.
template <class T, bool kAligned, bool kSquares>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) dot_kernel(const DotParams<T> p) {
  constexpr int W = Unit<T>::width;
  const std::int64_t units = (p.n + W - 1) / W;
  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * kThreads;
  T acc = T(0);
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x; base < units;
       base += kUnroll * threads) {
    T xv[kUnroll][W];  // (kUnroll units, W elements); zeros past n and for absent units
    T yv[kUnroll][W];
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) {
      const std::int64_t u = base + j * threads;
#pragma unroll
      for (int w = 0; w < W; ++w) xv[j][w] = yv[j][w] = T(0);
      if (u < units) {
        load_unit<T, kAligned>(p.x, p.n, u, xv[j]);
        if (!kSquares) load_unit<T, kAligned>(p.y, p.n, u, yv[j]);
      }
    }
    // Fixed order: units in increasing index, elements in increasing index.
#pragma unroll
    for (int j = 0; j < kUnroll; ++j)
#pragma unroll
      for (int w = 0; w < W; ++w) acc = fma(xv[j][w], kSquares ? xv[j][w] : yv[j][w], acc);
  }
  const T mine[1] = {acc};
  T total[1];
  if (grid_sum<kThreads, 1>(mine, p.ws, total) && threadIdx.x == 0) *p.result = kSquares ? sqrt(total[0]) : total[0];
}

}  // namespace bsrflow::vector_detail
