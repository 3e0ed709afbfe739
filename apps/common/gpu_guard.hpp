// The shared "no GPU" behaviour of every benchmark app: one plain line, exit code 2.
#pragma once

#include <string>
#include <string_view>

namespace bsrflow::bench {

inline constexpr int kExitNoGpu = 2;
inline constexpr int kExitUsage = 1;

// The one-line message, e.g. "fem_solve: no CUDA GPU found; it needs an NVIDIA GPU (H100/H200)"
// (the same for the benchmarks and the sample apps).
std::string no_gpu_message(std::string_view app);

// True when a CUDA GPU is present; otherwise prints no_gpu_message(app) to stderr and returns
// false (the caller then exits with kExitNoGpu).
bool gpu_present_or_explain(std::string_view app);

}  // namespace bsrflow::bench
