// Division by a run-time constant for the conversion kernels: a multiply-high and a shift
// instead of the ~20-instruction integer division, for the divisors the kernels use in every
// inner loop (block width C, block size R*C).
//
// NOTES: the method of Granlund & Montgomery ("Division by invariant integers using
// multiplication", 1994), round-up variant: with s = ceil(log2(d)) and
// m = floor(2^32 * (2^s - d) / d) + 1, n / d == (umulhi(n, m) + n) >> s for every n < 2^31.
// The 2^31 bound keeps umulhi(n, m) + n below 2^32 (umulhi(n, m) < n because m < 2^32), so
// the sum needs no 33rd bit; callers divide only non-negative int32 values.
#pragma once

#include <cstdint>

#include "bsrflow/core/host_device.hpp"

namespace bsrflow::detail {

struct FastDiv {
  std::uint32_t divisor = 1;
  std::uint32_t multiplier = 1;
  std::uint32_t shift = 0;

  FastDiv() = default;
  // d >= 1 (callers have checked block shapes before building one).
  explicit FastDiv(std::uint32_t d) : divisor(d) {
    while ((std::uint64_t{1} << shift) < d) ++shift;
    multiplier = static_cast<std::uint32_t>(((std::uint64_t{1} << 32) * ((std::uint64_t{1} << shift) - d)) / d + 1);
  }

  // n in [0, 2^31). Host and device compute the same thing (the host path lets CPU tests check
  // the multiplier math for every divisor).
  BSRFLOW_HD int div(int n) const {
    const std::uint32_t u = static_cast<std::uint32_t>(n);
#if defined(__CUDA_ARCH__)
    const std::uint32_t high = __umulhi(u, multiplier);
#else
    const auto high = static_cast<std::uint32_t>((static_cast<std::uint64_t>(u) * multiplier) >> 32);
#endif
    return static_cast<int>((high + u) >> shift);
  }
  BSRFLOW_HD int mod(int n, int quotient) const { return n - quotient * static_cast<int>(divisor); }
};

}  // namespace bsrflow::detail
