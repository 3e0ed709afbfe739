// Row groups for the Hopper BSR GEMM's row-group kernels (Sm90Config::row_group > 1).
//
// A row group is G consecutive block rows; a tile is (group, swath). Its stages walk the group's
// items: the union of its rows' block columns in ascending order, each with the rows that store a
// block there (RowGroupItem::mask). One stage loads the item's B slice once for all of those rows,
// which is where the L2 -> shared-memory bytes fall (perf_log entry 48: at 12.5% uniform 16 x 16,
// 1.21 blocks per item at G = 4 instead of 1 per stage).
//
// The rows' blocks of one item must arrive by one bulk copy (one request per block costs more than
// the bytes it saves, entry 26), so run() first gathers A's values into item order: gathered
// block j is stored block source[j], its rows swizzled as the TMA box of a (R, C) chunk would lay
// them out in shared memory, so the kernel reads it with the one-row kernels' descriptors. A
// group's blocks keep their range [row_ptr[first row], row_ptr[last row + 1]) of the values; only
// their order within it changes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/host_device.hpp"
#include "bsrflow/ops/sm90_gemm_params.hpp"
#include "bsrflow/ops/tma_swizzle.hpp"

namespace bsrflow::sm90 {

struct RowGroups {
  DeviceBuffer<int> item_ptr;          // groups + 1: group g's items are [item_ptr[g], item_ptr[g + 1])
  DeviceBuffer<RowGroupItem> items;    // num_items
  DeviceBuffer<int> source;            // nnzb: gathered block j is A's stored block source[j]
  int groups = 0;
  int num_items = 0;
};

struct HostRowGroups {
  std::vector<int> item_ptr;
  std::vector<RowGroupItem> items;
  std::vector<int> source;
};

// `row_ptr` (block_rows + 1) and `col_idx` (nnzb = row_ptr[block_rows] entries) on the device;
// 1 <= group_rows <= kMaxRowGroup. Columns need not be sorted within a row for the result to be
// a correct schedule (an item never holds two blocks of one row), but sorted rows (the BSR
// invariant) give the fewest items. Allocates and synchronises `stream` once (the item count).
RowGroups build_row_groups(const int* row_ptr, const int* col_idx, int block_rows, std::int64_t nnzb, int group_rows,
                           cudaStream_t stream);

// The same on the host: the test oracle, and the rule in plain code.
HostRowGroups build_row_groups_host(const std::vector<int>& row_ptr, const std::vector<int>& col_idx,
                                    int group_rows);

// Per run (enqueued on `stream`, no allocation, capturable): gathered block j = A's stored block
// source[j], its rows (2 C bytes each) laid out by swizzled_offset (tma_swizzle.hpp). `values` and `gathered` 16-byte aligned, R * C * 2 a
// multiple of 512 (R, C in {16, 32, 64, 128}, 2 C <= 128).
void gather_row_groups(const void* values, const int* source, std::int64_t nnzb, int R, int C, void* gathered,
                       cudaStream_t stream);

}  // namespace bsrflow::sm90
