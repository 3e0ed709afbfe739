// Instantiations of the bulk SpMV kernel: f32 and f64 x square blocks 1..4 x plain / fused dot
// (16 kernels); its launch and its resident-CTA count.
#include "bsrflow/ops/spmv_bulk.hpp"

#include <algorithm>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/spmv_bulk_kernel.cuh"
#include "bsrflow/ops/tuning_spmv.hpp"

namespace bsrflow::spmv_detail {

namespace {

namespace tuning = spmv_tuning;

template <class T, int B, bool kFusedDot>
struct BulkKernel {
  static constexpr auto kernel = spmv_bulk_kernel<T, B, B, kFusedDot>;
  static constexpr std::size_t smem = bulk_smem_bytes<T, B, B>();
};

template <class T, bool kFusedDot, class F>
auto visit_block(int R, F&& f) {
  switch (R) {
    case 1: return f(BulkKernel<T, 1, kFusedDot>{});
    case 2: return f(BulkKernel<T, 2, kFusedDot>{});
    case 3: return f(BulkKernel<T, 3, kFusedDot>{});
    default: return f(BulkKernel<T, 4, kFusedDot>{});
  }
}

// f(BulkKernel) of `config` (the fused-dot form or the plain one).
template <class T, class F>
auto visit_bulk_kernel(const SpmvConfig& config, bool fused_dot, F&& f) {
  static_assert(tuning::kBulkMaxBlockDim == 4, "the switch above instantiates blocks 1..4");
  BSRFLOW_REQUIRE(config.kernel == SpmvKernel::bulk && config.R == config.C && config.R >= 1 &&
                      config.R <= tuning::kBulkMaxBlockDim,
                  Errc::unsupported, "spmv: no bulk kernel is instantiated for " + spmv_kernel_name(config));
  return fused_dot ? visit_block<T, true>(config.R, f) : visit_block<T, false>(config.R, f);
}

}  // namespace

template <class T>
KernelLaunch bulk_launch(const Params<T>& p, const SpmvConfig& config, bool fused_dot, int ctas) {
  return visit_bulk_kernel<T>(config, fused_dot, [&](auto k) {
    return KernelLaunch(k.kernel, dim3(static_cast<unsigned>(std::max(ctas, 1))), dim3(tuning::kBulkThreads), k.smem, p);
  });
}

template <class T>
int bulk_resident_ctas(const SpmvConfig& config, int sm_count) {
  int per_sm = 0;
  for (const bool fused_dot : {false, true}) {
    const int n = visit_bulk_kernel<T>(config, fused_dot, [](auto k) {
      BSRFLOW_CUDA(cudaFuncSetAttribute(k.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(k.smem)));
      int resident = 0;
      BSRFLOW_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, k.kernel, tuning::kBulkThreads, k.smem));
      return resident;
    });
    per_sm = fused_dot ? std::min(per_sm, n) : n;  // one grid for both forms
  }
  return std::max(per_sm, 1) * sm_count;
}

template KernelLaunch bulk_launch<float>(const Params<float>&, const SpmvConfig&, bool, int);
template KernelLaunch bulk_launch<double>(const Params<double>&, const SpmvConfig&, bool, int);
template int bulk_resident_ctas<float>(const SpmvConfig&, int);
template int bulk_resident_ctas<double>(const SpmvConfig&, int);

}  // namespace bsrflow::spmv_detail
