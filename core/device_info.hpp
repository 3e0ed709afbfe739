// Facts about a GPU that kernels and planners size themselves by.
#pragma once

#include <cstddef>
#include <string>

namespace bsrflow {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int sm_count = 0;
  int cc_major = 0;
  int cc_minor = 0;
  std::size_t l2_bytes = 0;
  std::size_t smem_per_block_optin = 0;  // dynamic shared memory a block may opt into
  std::size_t smem_per_sm = 0;
  std::size_t global_mem_bytes = 0;
  // Peak memory bandwidth in bytes per second (2 x memory clock x bus width: HBM moves data on
  // both clock edges); 0 where the driver does not say. H100 SXM 3.35e12, H200 4.8e12.
  double memory_bandwidth = 0.0;

  bool is_hopper() const noexcept { return cc_major == 9 && cc_minor == 0; }
  int compute_capability() const noexcept { return cc_major * 10 + cc_minor; }
};

// Number of usable CUDA devices; 0 (never an exception) when there is no driver or no GPU, so
// tests and apps can decide to skip.
int gpu_count() noexcept;

// Properties of device `ordinal` (the current device when negative). Throws Error(cuda).
DeviceInfo device_info(int ordinal = -1);

}  // namespace bsrflow
