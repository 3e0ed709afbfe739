// Where TMA's shared-memory swizzle puts a byte, for code that lays out or reads swizzled tiles
// with its own addressing (the row-group gather). Host and device. The skinny kernel's
// `swizzled(row, chunk, row_bytes)` (skinny_kernel.cuh) is the same rule per row and chunk
// (tested equal in test_sm90_row_groups.cu); it keeps its own form until it is re-measured.
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

}  // namespace bsrflow
