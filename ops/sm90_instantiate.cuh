// Builds registry entries (sm90_kernels.hpp) for kernel instantiations; included only by the
// sm90_gemm_<dtype>_<layout>.cu translation units.
#pragma once

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/ops/sm90_gemm_kernel.cuh"
#include "bsrflow/ops/sm90_instances.cuh"
#include "bsrflow/ops/sm90_kernel_traits.cuh"
#include "bsrflow/ops/sm90_kernels.hpp"

namespace bsrflow::sm90 {

template <class TIn, int R, int KC, int SW, bool Swap, bool BColMajor, bool CopyOnly, int G = 1, int Items = 1>
KernelEntry make_entry() {
  using K = KernelTraits<TIn, R, KC, SW, Swap, BColMajor, CopyOnly, G, Items>;
  return {KernelKey{dtype_of_v<TIn>, R, KC, SW, Swap, BColMajor, CopyOnly, G, Items},
          reinterpret_cast<const void*>(&bsr_gemm_kernel<K>), K::kStageBytes, K::kFixedBytes,
          K::kThreads, K::kMaxStages, K::kTmaPartials, K::kEpiRows, K::kEpiCols};
}

}  // namespace bsrflow::sm90
