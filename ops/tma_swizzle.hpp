// Where TMA's shared-memory swizzle puts a byte, for code that lays out or reads swizzled tiles
// with its own addressing (the row-group gather, the skinny kernel's ldmatrix addresses, the Hopper
// kernel's epilogue chunks). Host and device. Two forms of one rule, tested equal
// (test_sm90_row_groups.cu).
#pragma once

#include <cstdint>

#include "bsrflow/core/host_device.hpp"

namespace bsrflow {

// Where byte `offset` of a tile with row_bytes-byte rows (32, 64 or 128: the swizzle of that
// width), written from a 1024-byte aligned address, lies in shared memory: the 16-byte unit bits
// [4, 4 + log2(row_bytes / 16)) are XORed with address bits [7, ...). An involution, so it also
// maps back.
BSRFLOW_HD inline std::uint32_t swizzled_offset(std::uint32_t offset, int row_bytes) {
  const std::uint32_t units = static_cast<std::uint32_t>(row_bytes / 16 - 1);  // 1, 3 or 7
  return offset ^ (((offset >> 7) & units) << 4);
}

// The same, per row: chunk c (16 bytes) of the row that starts at byte `line` lies at
// line + ((c ^ swizzle_key(line, row_bytes)) << 4). Rows 1024 bytes apart (512 at 32-byte rows)
// share their key, so the skinny kernel's ldmatrix addressing takes it once per lane, outside
// its k16 steps (perf_log entry 58). row_bytes is a power of two.
BSRFLOW_HD inline std::uint32_t swizzle_key(std::uint32_t line, std::uint32_t row_bytes) {
  return (line >> 7) & (row_bytes / 16 - 1);
}

// The swizzle (bytes) of a TMA-stored epilogue chunk whose contiguous dimension is `inner_bytes`
// wide: that width where TMA has a swizzle of it (32, 64, 128 bytes), else 0 (none). The plan makes
// the store's tensor map with it and the kernel stages the chunk with it (swizzled_offset).
// Unswizzled, the 8 rows of one fragment store (pitch 64 or 128 bytes) fell into the same banks:
// 4-8-way conflicts on the f32 chunks (partial tiles, f32 output) and on column-major 16-bit ones.
BSRFLOW_HD constexpr int epilogue_swizzle_bytes(int inner_bytes) {
  return inner_bytes == 32 || inner_bytes == 64 || inner_bytes == 128 ? inner_bytes : 0;
}

}  // namespace bsrflow
