#include "bsrflow/ops/sm90_row_groups.hpp"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <string>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow::sm90 {

namespace {

// One thread per group merges its rows' column lists: the smallest head column is the next item,
// taken from every row whose head it is. Count pass (counts != null) or fill pass (items != null,
// at item_ptr[g]). Deterministic; plan time only.
__global__ void merge_groups_kernel(const int* row_ptr, const int* col_idx, int block_rows, int group_rows,
                                    int groups, int* counts, const int* item_ptr, RowGroupItem* items, int* source) {
  const int g = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (g >= groups) return;
  const int r0 = g * group_rows;
  const int rows = min(group_rows, block_rows - r0);
  int pos[kMaxRowGroup], end[kMaxRowGroup], head[kMaxRowGroup];
#pragma unroll
  for (int r = 0; r < kMaxRowGroup; ++r) {
    pos[r] = r < rows ? row_ptr[r0 + r] : 0;
    end[r] = r < rows ? row_ptr[r0 + r + 1] : 0;
    head[r] = pos[r] < end[r] ? col_idx[pos[r]] : INT_MAX;
  }
  int out = items != nullptr ? item_ptr[g] : 0;
  int block = row_ptr[r0];  // the group's blocks keep their range of the values
  int count = 0;
  for (;;) {
    int col = INT_MAX;
#pragma unroll
    for (int r = 0; r < kMaxRowGroup; ++r) col = min(col, head[r]);
    if (col == INT_MAX) break;
    const int first = block;
    int mask = 0;
#pragma unroll
    for (int r = 0; r < kMaxRowGroup; ++r)
      if (head[r] == col) {
        mask |= 1 << r;
        if (source != nullptr) source[block] = pos[r];
        ++block;
        ++pos[r];
        head[r] = pos[r] < end[r] ? col_idx[pos[r]] : INT_MAX;
      }
    if (items != nullptr) items[out++] = RowGroupItem{col, first, mask, 0};
    ++count;
  }
  if (counts != nullptr) counts[g] = count;
}

__global__ void gather_kernel(const uint4* values, const int* source, std::int64_t vectors, int vectors_per_block,
                              int row_bytes, uint4* gathered) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t v = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; v < vectors; v += stride) {
    const std::int64_t j = v / vectors_per_block;
    const std::uint32_t offset = static_cast<std::uint32_t>(v - j * vectors_per_block) * 16u;
    const std::int64_t from = static_cast<std::int64_t>(__ldg(source + j)) * vectors_per_block +
                              swizzled_offset(offset, row_bytes) / 16u;
    gathered[v] = __ldg(values + from);
  }
}

}  // namespace

RowGroups build_row_groups(const int* row_ptr, const int* col_idx, int block_rows, std::int64_t nnzb, int group_rows,
                           cudaStream_t stream) {
  BSRFLOW_REQUIRE(block_rows >= 1 && group_rows >= 1 && group_rows <= kMaxRowGroup, Errc::invalid_argument,
                  "build_row_groups: " + std::to_string(block_rows) + " block rows in groups of " +
                      std::to_string(group_rows) + " (1.." + std::to_string(kMaxRowGroup) + ")");
  RowGroups rg;
  rg.groups = (block_rows + group_rows - 1) / group_rows;
  const std::size_t n = static_cast<std::size_t>(rg.groups) + 1;
  DeviceBuffer<int> counts(n, stream);
  rg.item_ptr = DeviceBuffer<int>(n, stream);
  counts.fill_bytes(0, stream);  // counts[groups] = 0: the scan's last entry is the total
  const unsigned grid = static_cast<unsigned>((rg.groups + 127) / 128);
  merge_groups_kernel<<<grid, 128, 0, stream>>>(row_ptr, col_idx, block_rows, group_rows, rg.groups, counts.data(),
                                                nullptr, nullptr, nullptr);
  BSRFLOW_CHECK_LAUNCH("merge_groups_kernel (count)");
  std::size_t temp_bytes = 0;
  BSRFLOW_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, counts.data(), rg.item_ptr.data(),
                                             static_cast<int>(n), stream));
  DeviceBuffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1), stream);
  BSRFLOW_CUDA(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, counts.data(), rg.item_ptr.data(),
                                             static_cast<int>(n), stream));
  int total = 0;
  BSRFLOW_CUDA(cudaMemcpyAsync(&total, rg.item_ptr.data() + rg.groups, sizeof(int), cudaMemcpyDeviceToHost, stream));
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  rg.num_items = total;
  rg.items = DeviceBuffer<RowGroupItem>(static_cast<std::size_t>(total), stream);
  rg.source = DeviceBuffer<int>(static_cast<std::size_t>(nnzb), stream);
  merge_groups_kernel<<<grid, 128, 0, stream>>>(row_ptr, col_idx, block_rows, group_rows, rg.groups, nullptr,
                                                rg.item_ptr.data(), rg.items.data(), rg.source.data());
  BSRFLOW_CHECK_LAUNCH("merge_groups_kernel (fill)");
  return rg;
}

HostRowGroups build_row_groups_host(const std::vector<int>& row_ptr, const std::vector<int>& col_idx,
                                    int group_rows) {
  HostRowGroups h;
  const int block_rows = static_cast<int>(row_ptr.size()) - 1;
  h.source.resize(static_cast<std::size_t>(row_ptr.back()));
  h.item_ptr.push_back(0);
  for (int r0 = 0; r0 < block_rows; r0 += group_rows) {
    const int rows = std::min(group_rows, block_rows - r0);
    std::vector<int> pos(rows);
    for (int r = 0; r < rows; ++r) pos[r] = row_ptr[r0 + r];
    int block = row_ptr[r0];
    for (;;) {
      int col = INT_MAX;
      for (int r = 0; r < rows; ++r)
        if (pos[r] < row_ptr[r0 + r + 1]) col = std::min(col, col_idx[pos[r]]);
      if (col == INT_MAX) break;
      RowGroupItem item{col, block, 0, 0};
      for (int r = 0; r < rows; ++r)
        if (pos[r] < row_ptr[r0 + r + 1] && col_idx[pos[r]] == col) {
          item.mask |= 1 << r;
          h.source[static_cast<std::size_t>(block++)] = pos[r]++;
        }
      h.items.push_back(item);
    }
    h.item_ptr.push_back(static_cast<int>(h.items.size()));
  }
  return h;
}

void gather_row_groups(const void* values, const int* source, std::int64_t nnzb, int R, int C, void* gathered,
                       cudaStream_t stream) {
  if (nnzb == 0) return;
  const int vectors_per_block = R * C * 2 / 16;
  const std::int64_t vectors = nnzb * vectors_per_block;
  // Bandwidth-bound copy: a few CTAs per SM's worth, grid-striding.
  const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>((vectors + 255) / 256, 4096));
  gather_kernel<<<grid, 256, 0, stream>>>(static_cast<const uint4*>(values), source, vectors, vectors_per_block, C * 2,
                                          static_cast<uint4*>(gathered));
  BSRFLOW_CHECK_LAUNCH("gather_kernel");
}

}  // namespace bsrflow::sm90
