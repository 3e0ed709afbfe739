// Random data generated on the device, for the benchmarks and the autotuner's scratch operands
// (a 8192 x 8192 operand is 67M values: too slow to draw on the host for every case). Values are
// +-[0.25, 1]: never zero, so an unwritten or zeroed output cannot pass a check, and of a
// magnitude that keeps f16 sums far from overflow.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace bsrflow {

// Deterministic for a given seed (a counter-based hash of (seed, index)). Instantiated for
// __half, __nv_bfloat16, float and double.
template <class T>
void fill_random_nonzero(T* data, std::int64_t count, std::uint64_t seed, cudaStream_t stream);

}  // namespace bsrflow
