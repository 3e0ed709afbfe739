// Result check of the benchmarks: ||out - ref||_2 / ||ref||_2 over two equally laid out
// arrays, in double on the device. NaN anywhere in `out` (an unwritten poisoned element)
// makes the result NaN, which no tolerance accepts.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace bsrflow::bench {

struct RelativeError {
  double error_norm = 0;      // ||out - ref||_2
  double reference_norm = 0;  // ||ref||_2
  std::int64_t non_finite = 0;  // elements of `out` that are NaN or inf
  double relative() const;    // error_norm / reference_norm (NaN when anything is non-finite)
  bool within(double tolerance) const;
};

// Synchronises `stream`. Instantiated for __half, __nv_bfloat16, float and double.
template <class T>
RelativeError relative_error(const T* out, const T* ref, std::int64_t count, cudaStream_t stream);

}  // namespace bsrflow::bench
