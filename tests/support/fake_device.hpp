// What the planners read of a GPU, for CPU tests of planning decisions: an H100 SXM's numbers
// (132 SMs, sm_90, 50 MiB L2, 227 KiB opt-in shared memory per block, 228 KiB per SM, 3.35 TB/s),
// and an H200's (the same SMs and L2; 141 GB of 4.8 TB/s memory).
#pragma once

#include "bsrflow/core/device_info.hpp"

namespace bsrflow::test {

inline DeviceInfo fake_h100() {
  DeviceInfo d;
  d.name = "NVIDIA H100 80GB HBM3 (fake)";
  d.sm_count = 132;
  d.cc_major = 9;
  d.cc_minor = 0;
  d.l2_bytes = 50u << 20;
  d.smem_per_block_optin = 232448;  // 227 KiB
  d.smem_per_sm = 233472;           // 228 KiB
  d.global_mem_bytes = 85017804800;
  d.memory_bandwidth = 2.0 * 2619e6 * 5120 / 8;  // 2619 MHz HBM3, 5120-bit bus
  return d;
}

inline DeviceInfo fake_h200() {
  DeviceInfo d = fake_h100();
  d.name = "NVIDIA H200 (fake)";
  d.global_mem_bytes = 150754820096;
  d.memory_bandwidth = 2.0 * 3201e6 * 6144 / 8;  // 3201 MHz HBM3e, 6144-bit bus
  return d;
}

}  // namespace bsrflow::test
