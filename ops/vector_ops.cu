// Launchers of the vector ops (kernels: vector_kernels.cuh) and their explicit instantiations,
// f32 and f64: axpby (3 public forms) and dot / nrm2, aligned and element-wise variants.
#include "bsrflow/ops/vector_ops.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/vector_kernels.cuh"

namespace bsrflow {

namespace {

namespace vd = vector_detail;

// reduce_grid_blocks: one element per thread until the grid reaches kBlocksPerSm x SMs. Small
// vectors (a 32^3 PCG: 32,768 rows) are latency-bound, so more CTAs with one element each finish
// sooner than a few CTAs walking 8 (perf_log_pcg.md entry 2); large ones hit the cap either way.
constexpr std::int64_t kReduceElementsPerBlock = vd::kThreads;

int current_sm_count() {
  int device = 0;
  BSRFLOW_CUDA(cudaGetDevice(&device));
  int sms = 0;
  BSRFLOW_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

bool aligned16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0; }

void check_length(std::int64_t n, const char* op) {
  BSRFLOW_REQUIRE(n >= 0, Errc::invalid_argument, std::string(op) + ": n (" + std::to_string(n) + ") is negative");
}

void check_vector(const void* p, std::int64_t n, const char* op, const char* name) {
  BSRFLOW_REQUIRE(n == 0 || p != nullptr, Errc::invalid_argument,
                  std::string(op) + ": " + name + " is null but n = " + std::to_string(n));
}

// Elementwise grid: one kUnroll-unit trip per thread where possible, at most the resident
// kBlocksPerSm blocks per SM (grid-stride beyond that), at least one block.
template <class T>
dim3 elementwise_grid(std::int64_t n) {
  const std::int64_t units = (n + vd::Unit<T>::width - 1) / vd::Unit<T>::width;
  const std::int64_t per_block = std::int64_t{vd::kThreads} * vd::kUnroll;
  const std::int64_t want = (units + per_block - 1) / per_block;
  return dim3(static_cast<unsigned>(std::clamp<std::int64_t>(want, 1, std::int64_t{vd::kBlocksPerSm} * current_sm_count())));
}

template <class T>
KernelLaunch axpby_checked(const char* op, std::int64_t n, ScalarArg<T> a, const T* x, ScalarArg<T> b, T* y) {
  check_length(n, op);
  check_vector(x, n, op, "x");
  check_vector(y, n, op, "y");
  const vd::AxpbyParams<T> p{n, a, x, b, y};
  const dim3 grid = elementwise_grid<T>(n);
  if (aligned16(x) && aligned16(y)) return KernelLaunch(vd::axpby_kernel<T, true>, grid, dim3(vd::kThreads), 0, p);
  return KernelLaunch(vd::axpby_kernel<T, false>, grid, dim3(vd::kThreads), 0, p);
}

template <class T>
KernelLaunch dot_checked(const char* op, std::int64_t n, const T* x, const T* y, T* result, ReduceWorkspace<T> ws,
                         bool squares) {
  check_length(n, op);
  check_vector(x, n, op, "x");
  if (!squares) check_vector(y, n, op, "y");
  BSRFLOW_REQUIRE(result != nullptr, Errc::invalid_argument, std::string(op) + ": result is null");
  check_reduce_workspace(ws, 1, 1, op);  // before any CUDA call; the grid is capped to fit below
  const int blocks = std::min(reduce_grid_blocks(n), ws.max_blocks);
  const vd::DotParams<T> p{n, x, squares ? x : y, result, ws};
  const bool aligned = aligned16(x) && (squares || aligned16(y));
  const dim3 grid(static_cast<unsigned>(blocks)), block(vd::kThreads);
  if (squares)
    return aligned ? KernelLaunch(vd::dot_kernel<T, true, true>, grid, block, 0, p)
                   : KernelLaunch(vd::dot_kernel<T, false, true>, grid, block, 0, p);
  return aligned ? KernelLaunch(vd::dot_kernel<T, true, false>, grid, block, 0, p)
                 : KernelLaunch(vd::dot_kernel<T, false, false>, grid, block, 0, p);
}

}  // namespace

int reduce_grid_blocks(std::int64_t n) {
  check_length(n, "reduce_grid_blocks");
  const std::int64_t want = (n + kReduceElementsPerBlock - 1) / kReduceElementsPerBlock;
  return static_cast<int>(std::clamp<std::int64_t>(want, 1, std::int64_t{vd::kBlocksPerSm} * current_sm_count()));
}

template <class T>
KernelLaunch axpy_launch(std::int64_t n, ScalarArg<T> alpha, const T* x, T* y) {
  return axpby_checked<T>("axpy", n, alpha, x, scalar(T(1)), y);
}

template <class T>
KernelLaunch xpby_launch(std::int64_t n, const T* x, ScalarArg<T> beta, T* y) {
  return axpby_checked<T>("xpby", n, scalar(T(1)), x, beta, y);
}

template <class T>
KernelLaunch axpby_launch(std::int64_t n, ScalarArg<T> a, const T* x, ScalarArg<T> b, T* y) {
  return axpby_checked<T>("axpby", n, a, x, b, y);
}

template <class T>
KernelLaunch dot_launch(std::int64_t n, const T* x, const T* y, T* result, ReduceWorkspace<T> ws) {
  return dot_checked<T>("dot", n, x, y, result, ws, false);
}

template <class T>
KernelLaunch nrm2_launch(std::int64_t n, const T* x, T* result, ReduceWorkspace<T> ws) {
  return dot_checked<T>("nrm2", n, x, static_cast<const T*>(nullptr), result, ws, true);
}

#define BSRFLOW_INSTANTIATE_VECTOR_OPS(T)                                                                    \
  template KernelLaunch axpy_launch<T>(std::int64_t, ScalarArg<T>, const T*, T*);                          \
  template KernelLaunch xpby_launch<T>(std::int64_t, const T*, ScalarArg<T>, T*);                          \
  template KernelLaunch axpby_launch<T>(std::int64_t, ScalarArg<T>, const T*, ScalarArg<T>, T*);           \
  template KernelLaunch dot_launch<T>(std::int64_t, const T*, const T*, T*, ReduceWorkspace<T>);           \
  template KernelLaunch nrm2_launch<T>(std::int64_t, const T*, T*, ReduceWorkspace<T>);

BSRFLOW_INSTANTIATE_VECTOR_OPS(float)
BSRFLOW_INSTANTIATE_VECTOR_OPS(double)
#undef BSRFLOW_INSTANTIATE_VECTOR_OPS

}  // namespace bsrflow
