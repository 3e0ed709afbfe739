#include "bsrflow/ops/sm90_kernels.hpp"

#include <vector>

#include "bsrflow/core/error.hpp"

namespace bsrflow::sm90 {

std::span<const KernelEntry> all_kernels() {
  static const std::vector<KernelEntry> all = [] {
    std::vector<KernelEntry> v;
    for (auto table : {kernels_f16_brow(), kernels_f16_bcol(), kernels_bf16_brow(), kernels_bf16_bcol()})
      v.insert(v.end(), table.begin(), table.end());
    return v;
  }();
  return all;
}

const KernelEntry* find_kernel(const KernelKey& key) {
  for (const KernelEntry& e : all_kernels())
    if (e.key == key) return &e;
  return nullptr;
}

void prepare_kernel(const KernelEntry& entry, std::size_t bytes) {
  BSRFLOW_CUDA(cudaFuncSetAttribute(entry.function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bytes)));
}

void launch_kernel(const KernelEntry& entry, const GemmParams& params, int grid, cudaStream_t stream) {
  void* args[] = {const_cast<GemmParams*>(&params)};
  BSRFLOW_CUDA(cudaLaunchKernel(entry.function, dim3(static_cast<unsigned>(grid)),
                                dim3(static_cast<unsigned>(entry.threads)), args,
                                static_cast<std::size_t>(entry.smem_bytes(params.stages)), stream));
}

}  // namespace bsrflow::sm90
