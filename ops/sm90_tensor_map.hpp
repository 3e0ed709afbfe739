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

// The maps the GEMM kernels (Hopper and skinny) read their operands through. `stand_in` is any
// valid device address: the base of a map over an operand with no elements (never read).
//
// A BSR matrix's values, nnzb blocks of R x C elements (row-major in a block), as the tensor
// (C, R, nnzb); a box is `box_cols` columns of `box_blocks` consecutive blocks, swizzled by its row
// (box_cols elements).
CUtensorMap bsr_values_map(DType dtype, const void* values, std::int64_t nnzb, int R, int C, int box_cols,
                           const void* stand_in, int box_blocks = 1);
// The same values with each block (C = 16 or 32, R * C * 2 bytes a multiple of 128) read as R * C /
// 64 rows of 128 bytes: the tensor (64, R * C / 64, nnzb), a box of `box_blocks` whole blocks
// landing with the 128-byte swizzle - fewer and whole-line TMA requests than R rows of 32 or 64
// bytes (the skinny kernel, perf_log entry 59). Coordinates (0, 0, block) as for the map above.
CUtensorMap bsr_values_rows128_map(DType dtype, const void* values, std::int64_t nnzb, int R, int C,
                                   const void* stand_in, int box_blocks = 1);
// `rows` rows of 128 bytes at `base` (contiguous) as the 2-D tensor (64 two-byte elements, rows),
// a box of `box_rows` whole rows landing with the 128-byte swizzle: the skinny kernel's packed B
// slices, whose own rows are 32 or 64 bytes.
CUtensorMap rows128_map(DType dtype, const void* base, std::int64_t rows, int box_rows, const void* stand_in);
// A rows x cols dense operand, `ld` elements between its rows (row-major) or columns, as the 2-D
// tensor with the contiguous dimension first: row-major (cols, rows), column-major (rows, cols);
// `box` in that order. With rows == 0 the tensor has one row on `stand_in`.
CUtensorMap dense_map(DType dtype, const void* data, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                      bool row_major, const std::uint32_t (&box)[2], int swizzle_bytes, const void* stand_in);

}  // namespace bsrflow::sm90
