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

namespace {

// Launch configuration of `grid` CTAs in clusters of `cluster`; `attr` must outlive the config.
cudaLaunchConfig_t launch_config(const KernelEntry& entry, int stages, int grid, int cluster,
                                 cudaLaunchAttribute& attr, cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(grid));
  config.blockDim = dim3(static_cast<unsigned>(entry.threads));
  config.dynamicSmemBytes = static_cast<std::size_t>(entry.smem_bytes(stages));
  config.stream = stream;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = static_cast<unsigned>(cluster);
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  config.attrs = &attr;
  config.numAttrs = 1;
  return config;
}

}  // namespace

int max_active_clusters(const KernelEntry& entry, int stages, int cluster) {
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t config = launch_config(entry, stages, cluster, cluster, attr, nullptr);
  int clusters = 0;
  BSRFLOW_CUDA(cudaOccupancyMaxActiveClusters(&clusters, entry.function, &config));
  return clusters;
}

void launch_kernel(const KernelEntry& entry, const GemmParams& params, int grid, cudaStream_t stream) {
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t config = launch_config(entry, params.stages, grid, params.cluster, attr, stream);
  void* args[] = {const_cast<GemmParams*>(&params)};
  BSRFLOW_CUDA(cudaLaunchKernelExC(&config, entry.function, args));
}

}  // namespace bsrflow::sm90
