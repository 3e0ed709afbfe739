// Where TMA's shared-memory swizzle puts a byte, for code that lays out or reads swizzled tiles
// with its own addressing (the row-group gather, the skinny kernel's ldmatrix addresses). Host and
// device. Two forms of one rule, tested equal (test_sm90_row_groups.cu).
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

// The same, per row and 16-byte chunk: where chunk `chunk` of row `row` lies. The skinny kernel
// reads its tiles in this form; written as swizzled_offset(row * row_bytes + chunk * 16) it
// compiled to other register allocation and ran 0.5-1.3% slower (perf_log entry 50).
BSRFLOW_HD inline std::uint32_t swizzled_chunk_offset(int row, int chunk, int row_bytes) {
  const std::uint32_t line = static_cast<std::uint32_t>(row * row_bytes);
  const std::uint32_t key = (line >> 7) & static_cast<std::uint32_t>(row_bytes / 16 - 1);
  return line + ((static_cast<std::uint32_t>(chunk) ^ key) << 4);
}

}  // namespace bsrflow
