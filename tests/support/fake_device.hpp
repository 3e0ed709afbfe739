// What the planners read of a GPU, for CPU tests of planning decisions: an H100 SXM's numbers
// (132 SMs, sm_90, 50 MiB L2, 227 KiB opt-in shared memory per block, 228 KiB per SM).
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
  return d;
}

}  // namespace bsrflow::test
