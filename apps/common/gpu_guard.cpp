#include "bsrflow/apps/common/gpu_guard.hpp"

#include <iostream>
#include <string>

#include "bsrflow/core/device_info.hpp"

namespace bsrflow::bench {

std::string no_gpu_message(std::string_view app) {
  return std::string(app) + ": no CUDA GPU found; it needs an NVIDIA GPU (H100/H200)";
}

bool gpu_present_or_explain(std::string_view app) {
  if (gpu_count() > 0) return true;
  std::cerr << no_gpu_message(app) << '\n';
  return false;
}

}  // namespace bsrflow::bench
