// Row groups for the Hopper BSR GEMM's row-group kernels (Sm90Config::row_group > 1).
//
// A row group is G block rows; a tile is (group, swath). Its stages walk the group's items: the
// union of its rows' block columns in ascending order, each with the rows that store a block there
// (RowGroupItem::mask). One stage loads the item's B slice once for all of those rows, which is
// where the L2 -> shared-memory bytes fall (perf_log entry 48: at 12.5% uniform 16 x 16, 1.21
// blocks per item at G = 4 instead of 1 per stage).
//
// Which rows form a group: either G consecutive block rows, or G rows of the block rows sorted by
// length, longest first (stable) - whichever gives fewer items (consecutive on a tie), where the
// caller allows sorted groups (16-row blocks: tuning_sm90.hpp row_groups_by_length). Long rows
// cover most columns, so four of them share nearly every B slice, while a long row beside short
// ones shares little: on bsr_bench's power-law rows sorting cuts the items by ~25% (perf_log entry
// 53). Neighbouring rows of banded or finite-element patterns share their columns, which sorting
// would scatter; counting both keeps those consecutive. `rows` says which block row each group row
// is (-1 past the last: the last group may be partial).
//
// The rows' blocks of one item must arrive by one bulk copy (one request per block costs more than
// the bytes it saves, entry 26), so run() first gathers A's values into item order: gathered
// block j is stored block source[j], its rows swizzled as the TMA box of a (R, C) chunk would lay
// them out in shared memory, so the kernel reads it with the one-row kernels' descriptors. Group g's
// blocks take the gathered range after those of groups 0..g-1.
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
  DeviceBuffer<int> rows;              // groups * G: group g's row r is block row rows[g * G + r] (-1: none)
  DeviceBuffer<int> item_ptr;          // groups + 1: group g's items are [item_ptr[g], item_ptr[g + 1])
  DeviceBuffer<RowGroupItem> items;    // num_items
  DeviceBuffer<int> source;            // nnzb: gathered block j is A's stored block source[j]
  int groups = 0;
  int num_items = 0;
  bool by_length = false;  // rows sorted by length (fewer items than consecutive groups)
};

struct HostRowGroups {
  std::vector<int> rows;
  std::vector<int> item_ptr;
  std::vector<RowGroupItem> items;
  std::vector<int> source;
  bool by_length = false;
};

// `row_ptr` (block_rows + 1) and `col_idx` (nnzb = row_ptr[block_rows] entries) on the device;
// 1 <= group_rows <= kMaxRowGroup. Columns need not be sorted within a row for the result to be
// a correct schedule (an item never holds two blocks of one row), but sorted rows (the BSR
// invariant) give the fewest items. `by_length`: whether groups of rows sorted by length may be
// taken (tuning_sm90.hpp row_groups_by_length); else groups are consecutive. Allocates and
// synchronises `stream` once (the item counts).
RowGroups build_row_groups(const int* row_ptr, const int* col_idx, int block_rows, std::int64_t nnzb, int group_rows,
                           bool by_length, cudaStream_t stream);

// The same on the host: the test oracle, and the rule in plain code.
HostRowGroups build_row_groups_host(const std::vector<int>& row_ptr, const std::vector<int>& col_idx, int group_rows,
                                    bool by_length);

// Per run (enqueued on `stream`, no allocation, capturable): gathered block j = A's stored block
// source[j], its rows (2 C bytes each) laid out by swizzled_offset (tma_swizzle.hpp). `values` and `gathered` 16-byte aligned, R * C * 2 a
// multiple of 512 (R, C in {16, 32, 64, 128}, 2 C <= 128).
void gather_row_groups(const void* values, const int* source, std::int64_t nnzb, int R, int C, void* gathered,
                       cudaStream_t stream);

}  // namespace bsrflow::sm90
