// Defines skinny::launch_for<TIn> and resident_per_sm<TIn> over the kernel's instantiations (output f32 or TIn, B row- or
// column-major, tile width 16 / 32 / 64, and at width 64 warps owning the whole width or half of it:
// warp_n_tiles); included only by the skinny_gemm_<dtype>.cu units.
#pragma once

#include <cuda_runtime_api.h>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/skinny_kernel.cuh"

namespace bsrflow::skinny {

namespace detail {

template <class TIn, class TOut, bool BColMajor>
const void* kernel_for_width(int width, int warp_nt) {
  const int code = width * 16 + warp_nt;
  switch (code) {
    case 16 * 16 + 2: return reinterpret_cast<const void*>(&skinny_gemm_kernel<TIn, TOut, BColMajor, 2, 2>);
    case 32 * 16 + 4: return reinterpret_cast<const void*>(&skinny_gemm_kernel<TIn, TOut, BColMajor, 4, 4>);
    case 64 * 16 + 4: return reinterpret_cast<const void*>(&skinny_gemm_kernel<TIn, TOut, BColMajor, 8, 4>);
    case 64 * 16 + 8: return reinterpret_cast<const void*>(&skinny_gemm_kernel<TIn, TOut, BColMajor, 8, 8>);
    default:
      BSRFLOW_FAIL(Errc::unsupported, "skinny GEMM: no kernel for tile width " + std::to_string(width) + " with " +
                                          std::to_string(warp_nt) + " n8 tiles per warp");
  }
}

template <class TIn>
const void* kernel_for(bool out_f32, bool b_col_major, int width, int warp_nt) {
  if (out_f32)
    return b_col_major ? kernel_for_width<TIn, float, true>(width, warp_nt)
                       : kernel_for_width<TIn, float, false>(width, warp_nt);
  return b_col_major ? kernel_for_width<TIn, TIn, true>(width, warp_nt) : kernel_for_width<TIn, TIn, false>(width, warp_nt);
}

}  // namespace detail

template <class TIn>
void launch_for(const Params& p, bool out_f32, bool b_col_major, int width, int warp_nt, int grid, int smem, bool pdl,
                cudaStream_t stream) {
  const void* fn = detail::kernel_for<TIn>(out_f32, b_col_major, width, warp_nt);
  if (grid == 0) {
    const cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction) {
      (void)cudaGetLastError();
      BSRFLOW_FAIL(Errc::unsupported,
                   "the skinny GEMM kernel is not built for this GPU (add its architecture to CMAKE_CUDA_ARCHITECTURES)");
    }
    BSRFLOW_CUDA(e);
    // Several CTAs per SM keep the copies in flight; ask for the largest shared-memory carveout
    // so the L1 split never caps how many fit.
    BSRFLOW_CUDA(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout,
                                      static_cast<int>(cudaSharedmemCarveoutMaxShared)));
    return;
  }
  void* args[] = {const_cast<Params*>(&p)};  // the launch copies the argument
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(grid));
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = static_cast<std::size_t>(smem);
  config.stream = stream;
  cudaLaunchAttribute attribute = sm90::programmatic_serialization();
  config.attrs = &attribute;
  config.numAttrs = pdl ? 1 : 0;
  BSRFLOW_CUDA(cudaLaunchKernelExC(&config, fn, args));
  BSRFLOW_CHECK_LAUNCH("skinny_gemm_kernel");
}

template <class TIn>
int resident_per_sm(bool out_f32, bool b_col_major, int width, int warp_nt, int smem) {
  int blocks = 0;
  BSRFLOW_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, detail::kernel_for<TIn>(out_f32, b_col_major, width, warp_nt), kThreads, static_cast<std::size_t>(smem)));
  return blocks;
}

}  // namespace bsrflow::skinny
