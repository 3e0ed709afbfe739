// One pass: each thread accumulates squared differences and squared references in double,
// a block reduces them in shared memory, one atomic per block adds to the totals. The order of
// the atomics varies run to run; for a pass/fail norm that does not matter.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "bsrflow/apps/common/relative_error.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {

constexpr int kThreads = 256;

struct Totals {
  double error_sq;
  double reference_sq;
  unsigned long long non_finite;
};

template <class T>
__global__ void relative_error_kernel(const T* __restrict__ out, const T* __restrict__ ref, std::int64_t count,
                                      Totals* totals) {
  static_assert(kThreads % 32 == 0);
  __shared__ double error_sq[kThreads];
  __shared__ double reference_sq[kThreads];
  __shared__ unsigned long long non_finite[kThreads];
  double e = 0, r = 0;
  unsigned long long bad = 0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const double o = to_double(out[i]);
    const double x = to_double(ref[i]);
    if (!isfinite(o)) ++bad;
    e += (o - x) * (o - x);
    r += x * x;
  }
  error_sq[threadIdx.x] = e;
  reference_sq[threadIdx.x] = r;
  non_finite[threadIdx.x] = bad;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      error_sq[threadIdx.x] += error_sq[threadIdx.x + half];
      reference_sq[threadIdx.x] += reference_sq[threadIdx.x + half];
      non_finite[threadIdx.x] += non_finite[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(&totals->error_sq, error_sq[0]);
    atomicAdd(&totals->reference_sq, reference_sq[0]);
    atomicAdd(&totals->non_finite, non_finite[0]);
  }
}

}  // namespace

double RelativeError::relative() const {
  if (non_finite > 0 || !std::isfinite(error_norm) || !std::isfinite(reference_norm))
    return std::numeric_limits<double>::quiet_NaN();
  if (reference_norm == 0) return error_norm == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return error_norm / reference_norm;
}

bool RelativeError::within(double tolerance) const {
  const double rel = relative();
  return std::isfinite(rel) && rel <= tolerance;
}

template <class T>
RelativeError relative_error(const T* out, const T* ref, std::int64_t count, cudaStream_t stream) {
  BSRFLOW_REQUIRE(count >= 0, Errc::invalid_argument, "relative_error: negative count");
  DeviceBuffer<Totals> totals(1, stream);
  totals.fill_bytes(0, stream);
  if (count > 0) {
    const auto blocks = static_cast<int>(std::min<std::int64_t>((count + kThreads - 1) / kThreads, 4096));
    relative_error_kernel<T><<<blocks, kThreads, 0, stream>>>(out, ref, count, totals.data());
    BSRFLOW_CHECK_LAUNCH("relative_error_kernel");
  }
  const Totals host = totals.to_host(stream).front();
  RelativeError result;
  result.error_norm = std::sqrt(host.error_sq);
  result.reference_norm = std::sqrt(host.reference_sq);
  result.non_finite = static_cast<std::int64_t>(host.non_finite);
  return result;
}

template RelativeError relative_error<__half>(const __half*, const __half*, std::int64_t, cudaStream_t);
template RelativeError relative_error<__nv_bfloat16>(const __nv_bfloat16*, const __nv_bfloat16*, std::int64_t,
                                                     cudaStream_t);
template RelativeError relative_error<float>(const float*, const float*, std::int64_t, cudaStream_t);
template RelativeError relative_error<double>(const double*, const double*, std::int64_t, cudaStream_t);

}  // namespace bsrflow::bench
