// The one kernel of the cuSPARSE + cuBLAS CG peer (cusparse_cublas_cg.hpp): z = D^-1 r, elementwise.
#include <cuda_runtime.h>

#include <algorithm>

#include "bsrflow/apps/common/cusparse_cublas_cg.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {

template <class T>
__global__ void jacobi_scale_kernel(std::int64_t n, const T* __restrict__ d, const T* __restrict__ r,
                                    T* __restrict__ z) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    z[i] = d[i] * r[i];
}

}  // namespace

template <class T>
void jacobi_scale(std::int64_t n, const T* d, const T* r, T* z, cudaStream_t stream) {
  if (n <= 0) return;
  constexpr int kThreads = 256;
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((n + kThreads - 1) / kThreads, 65535));
  jacobi_scale_kernel<T><<<blocks, kThreads, 0, stream>>>(n, d, r, z);
  BSRFLOW_CUDA(cudaGetLastError());
}

template void jacobi_scale<float>(std::int64_t, const float*, const float*, float*, cudaStream_t);
template void jacobi_scale<double>(std::int64_t, const double*, const double*, double*, cudaStream_t);

}  // namespace bsrflow::bench
