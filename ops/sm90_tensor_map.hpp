// Host-side TMA tensor maps (CUtensorMap) for the Hopper BSR GEMM. cuTensorMapEncodeTiled is a
// driver API function; it is reached through cudaGetDriverEntryPointByVersion so that bsrflow
// does not link libcuda directly. Encoding is pure host work (no GPU call, no sync), cheap enough
// to do on every GemmPlan::run, which keeps runs capturable with changing pointers.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "bsrflow/core/dtype.hpp"

namespace bsrflow::sm90 {

// Tiled map over a `rank`-dimensional tensor of f16, bf16 or f32 elements (dims[0] innermost,
// strides_bytes[i] = byte stride of dimension i + 1), box `box`, shared-memory swizzle of
// `swizzle_bytes` (0, 32, 64 or 128), out-of-bounds elements read as zero.
// Throws Error(invalid_argument) naming the failing parameters when the driver rejects them.
CUtensorMap make_tensor_map(DType dtype, const void* base, int rank, const std::uint64_t* dims,
                            const std::uint64_t* strides_bytes, const std::uint32_t* box, int swizzle_bytes);

}  // namespace bsrflow::sm90
