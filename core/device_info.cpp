#include "bsrflow/core/device_info.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include "bsrflow/core/error.hpp"

namespace bsrflow {

int gpu_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky "no device" status
    return 0;
  }
  return count;
}

DeviceInfo device_info(int ordinal) {
  if (ordinal < 0) BSRFLOW_CUDA(cudaGetDevice(&ordinal));
  const int count = gpu_count();
  BSRFLOW_REQUIRE(ordinal < count, Errc::invalid_argument,
                  "device " + std::to_string(ordinal) + " does not exist (" + std::to_string(count) +
                      " CUDA device(s) present)");
  cudaDeviceProp prop{};
  BSRFLOW_CUDA(cudaGetDeviceProperties(&prop, ordinal));
  DeviceInfo info;
  info.ordinal = ordinal;
  info.name = prop.name;
  info.sm_count = prop.multiProcessorCount;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  info.smem_per_block_optin = prop.sharedMemPerBlockOptin;
  info.smem_per_sm = prop.sharedMemPerMultiprocessor;
  info.global_mem_bytes = prop.totalGlobalMem;
  int memory_khz = 0, bus_bits = 0;
  BSRFLOW_CUDA(cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, ordinal));
  BSRFLOW_CUDA(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal));
  info.memory_bandwidth = 2.0 * 1e3 * memory_khz * (bus_bits / 8.0);
  return info;
}

}  // namespace bsrflow
