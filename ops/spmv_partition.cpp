#include "bsrflow/ops/spmv_partition.hpp"

#include <algorithm>

namespace bsrflow {

SpmvPartition partition_block_rows(std::span<const int> row_ptr, int block_size, int capacity, int max_block_rows) {
  SpmvPartition part;
  const int block_rows = row_ptr.empty() ? 0 : static_cast<int>(row_ptr.size()) - 1;
  // Values of block row i, in 64 bits: a block row of 2^31 - 1 blocks of 8 x 8 passes int.
  auto values_of = [&](int i) { return static_cast<std::int64_t>(row_ptr[i + 1] - row_ptr[i]) * block_size; };
  part.group_start.push_back(0);
  int row = 0;
  while (row < block_rows) {
    if (values_of(row) > capacity) {
      ++row;
      ++part.long_rows;
    } else {
      std::int64_t values = 0;
      int taken = 0;
      while (row < block_rows && taken < max_block_rows && values + values_of(row) <= capacity) {
        values += values_of(row);
        ++taken;
        ++row;
      }
      part.max_group_values = std::max(part.max_group_values, values);
    }
    part.group_start.push_back(row);
  }
  return part;
}

}  // namespace bsrflow
