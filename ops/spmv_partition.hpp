// The SpMV plan's row partition (host side, pure: testable without a GPU).
//
// Block rows are cut into groups, one CTA each, scanning in order:
//  - a block row with more than `capacity` values (nnz blocks * R * C) is a group of its own,
//    a "long row", reduced by the whole CTA in a loop;
//  - otherwise a group takes consecutive block rows while their values fit `capacity` and
//    there are at most `max_block_rows` of them (the first one always fits).
// Empty block rows cost nothing but count toward max_block_rows, so a run of them still ends
// up spread over CTAs of at most max_block_rows rows each.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace bsrflow {

struct SpmvPartition {
  std::vector<int> group_start;  // (groups + 1) first block row of each group, then block_rows
  int long_rows = 0;             // groups that are one over-capacity block row
  std::int64_t max_group_values = 0;  // values of the fullest streamed (not long) group

  int groups() const { return static_cast<int>(group_start.size()) - 1; }
};

// row_ptr: block_rows + 1 entries, non-decreasing from 0 (checked by the caller). capacity >= 1,
// max_block_rows >= 1.
SpmvPartition partition_block_rows(std::span<const int> row_ptr, int block_size, int capacity, int max_block_rows);

}  // namespace bsrflow
