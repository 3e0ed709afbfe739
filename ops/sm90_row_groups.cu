#include "bsrflow/ops/sm90_row_groups.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <string>

#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/detail_primitives.cuh"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow::sm90 {

namespace {

// One thread per group merges its rows' column lists: the smallest head column is the next item,
// taken from every row whose head it is. Count pass (counts != null: items and blocks per group)
// or fill pass (items != null, at item_ptr[g], the group's blocks from block_base[g]).
// Deterministic; plan time only.
__device__ void merge_group(const int* row_ptr, const int* col_idx, const int* rows, int group_rows, int g,
                            int* counts, int* blocks, const int* item_ptr, const int* block_base, RowGroupItem* items,
                            int* source) {
  int pos[kMaxRowGroup], end[kMaxRowGroup], head[kMaxRowGroup];
#pragma unroll
  for (int r = 0; r < kMaxRowGroup; ++r) {
    const int row = r < group_rows ? rows[g * group_rows + r] : -1;
    pos[r] = row >= 0 ? row_ptr[row] : 0;
    end[r] = row >= 0 ? row_ptr[row + 1] : 0;
    head[r] = pos[r] < end[r] ? col_idx[pos[r]] : INT_MAX;
  }
  int out = items != nullptr ? item_ptr[g] : 0;
  int block = items != nullptr ? block_base[g] : 0;
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
  if (counts != nullptr) {
    counts[g] = count;
    blocks[g] = block;
  }
}

__global__ void merge_groups_kernel(const int* row_ptr, const int* col_idx, const int* rows, int group_rows,
                                    int groups, int* counts, int* blocks, const int* item_ptr, const int* block_base,
                                    RowGroupItem* items, int* source) {
  for (int g = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); g < groups;
       g += static_cast<int>(gridDim.x * blockDim.x))
    merge_group(row_ptr, col_idx, rows, group_rows, g, counts, blocks, item_ptr, block_base, items, source);
}

// Sort keys for "longest first": (2^31 - 1) - length fits 31 bits, and the stable ascending sort
// keeps equal lengths in row order.
__global__ void length_keys_kernel(const int* row_ptr, int block_rows, std::uint64_t* keys) {
  for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < block_rows;
       i += static_cast<int>(gridDim.x * blockDim.x))
    keys[i] = static_cast<std::uint64_t>(INT_MAX - (row_ptr[i + 1] - row_ptr[i]));
}

// rows[i] = order[i] (null: i) for the block rows, -1 for the slots past them.
__global__ void group_rows_kernel(const int* order, int block_rows, int slots, int* rows) {
  for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < slots;
       i += static_cast<int>(gridDim.x * blockDim.x))
    rows[i] = i < block_rows ? (order != nullptr ? order[i] : i) : -1;
}

// One grouping of the block rows: its rows (RowGroups::rows), and from its count pass item_ptr
// (groups + 1) and each group's first gathered block. Its item total is copied to `total` on the
// host, valid once `stream` is synchronised.
struct Grouping {
  DeviceBuffer<int> rows;
  DeviceBuffer<int> item_ptr;
  DeviceBuffer<int> block_base;
};
// `order`: the block rows in group order (null: consecutive).
Grouping count_grouping(const int* row_ptr, const int* col_idx, const int* order, int block_rows, int group_rows,
                        int groups, int* total, cudaStream_t stream) {
  const int slots = groups * group_rows;
  const std::size_t n = static_cast<std::size_t>(groups) + 1;
  Grouping g{DeviceBuffer<int>(static_cast<std::size_t>(slots), stream), DeviceBuffer<int>(n, stream),
             DeviceBuffer<int>(n, stream)};
  group_rows_kernel<<<detail::elementwise_grid(slots), detail::kElementwiseThreads, 0, stream>>>(order, block_rows,
                                                                                                slots, g.rows.data());
  BSRFLOW_CHECK_LAUNCH("group_rows_kernel");
  DeviceBuffer<int> counts(n, stream), blocks(n, stream);
  counts.fill_bytes(0, stream);  // entry [groups] = 0: the scans' last entries are the totals
  blocks.fill_bytes(0, stream);
  merge_groups_kernel<<<detail::elementwise_grid(groups), detail::kElementwiseThreads, 0, stream>>>(
      row_ptr, col_idx, g.rows.data(), group_rows, groups, counts.data(), blocks.data(), nullptr, nullptr, nullptr,
      nullptr);
  BSRFLOW_CHECK_LAUNCH("merge_groups_kernel (count)");
  detail::exclusive_sum(counts.data(), g.item_ptr.data(), static_cast<std::int64_t>(n), stream);
  detail::exclusive_sum(blocks.data(), g.block_base.data(), static_cast<std::int64_t>(n), stream);
  detail::copy_to_host_async(total, g.item_ptr.data() + groups, 1, stream);
  return g;
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
                           bool by_length, cudaStream_t stream) {
  BSRFLOW_REQUIRE(block_rows >= 1 && group_rows >= 1 && group_rows <= kMaxRowGroup, Errc::invalid_argument,
                  "build_row_groups: " + std::to_string(block_rows) + " block rows in groups of " +
                      std::to_string(group_rows) + " (1.." + std::to_string(kMaxRowGroup) + ")");
  RowGroups rg;
  rg.groups = (block_rows + group_rows - 1) / group_rows;
  int totals[2] = {0, INT_MAX};  // items of consecutive groups, of groups sorted by length
  Grouping chosen = count_grouping(row_ptr, col_idx, nullptr, block_rows, group_rows, rg.groups, &totals[0], stream);
  Grouping sorted;
  if (by_length && group_rows > 1) {  // (groups of one row have one item per block either way)
    const std::size_t n = static_cast<std::size_t>(block_rows);
    DeviceBuffer<std::uint64_t> keys(n, stream), sorted_keys(n, stream);
    DeviceBuffer<int> index(n, stream), order(n, stream);
    length_keys_kernel<<<detail::elementwise_grid(block_rows), detail::kElementwiseThreads, 0, stream>>>(
        row_ptr, block_rows, keys.data());
    BSRFLOW_CHECK_LAUNCH("length_keys_kernel");
    detail::launch_iota(index.data(), block_rows, stream);
    detail::sort_pairs(keys.data(), sorted_keys.data(), index.data(), order.data(), block_rows, 31, stream);
    sorted = count_grouping(row_ptr, col_idx, order.data(), block_rows, group_rows, rg.groups, &totals[1], stream);
  }
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));  // the item totals
  if (totals[1] < totals[0]) {
    rg.by_length = true;
    chosen = std::move(sorted);
  }
  rg.num_items = std::min(totals[0], totals[1]);
  rg.rows = std::move(chosen.rows);
  rg.item_ptr = std::move(chosen.item_ptr);
  rg.items = DeviceBuffer<RowGroupItem>(static_cast<std::size_t>(rg.num_items), stream);
  rg.source = DeviceBuffer<int>(static_cast<std::size_t>(nnzb), stream);
  merge_groups_kernel<<<detail::elementwise_grid(rg.groups), detail::kElementwiseThreads, 0, stream>>>(
      row_ptr, col_idx, rg.rows.data(), group_rows, rg.groups, nullptr, nullptr, rg.item_ptr.data(),
      chosen.block_base.data(), rg.items.data(), rg.source.data());
  BSRFLOW_CHECK_LAUNCH("merge_groups_kernel (fill)");
  return rg;
}

namespace {

// The host rule for one grouping (`rows` as RowGroups::rows).
HostRowGroups merge_groups_host(const std::vector<int>& row_ptr, const std::vector<int>& col_idx,
                                std::vector<int> rows, int group_rows) {
  HostRowGroups h;
  h.source.resize(static_cast<std::size_t>(row_ptr.back()));
  h.item_ptr.push_back(0);
  int block = 0;
  for (std::size_t g0 = 0; g0 < rows.size(); g0 += static_cast<std::size_t>(group_rows)) {
    std::vector<int> pos(static_cast<std::size_t>(group_rows)), end(static_cast<std::size_t>(group_rows));
    for (int r = 0; r < group_rows; ++r) {
      const int row = rows[g0 + static_cast<std::size_t>(r)];
      pos[r] = row >= 0 ? row_ptr[row] : 0;
      end[r] = row >= 0 ? row_ptr[row + 1] : 0;
    }
    for (;;) {
      int col = INT_MAX;
      for (int r = 0; r < group_rows; ++r)
        if (pos[r] < end[r]) col = std::min(col, col_idx[pos[r]]);
      if (col == INT_MAX) break;
      RowGroupItem item{col, block, 0, 0};
      for (int r = 0; r < group_rows; ++r)
        if (pos[r] < end[r] && col_idx[pos[r]] == col) {
          item.mask |= 1 << r;
          h.source[static_cast<std::size_t>(block++)] = pos[r]++;
        }
      h.items.push_back(item);
    }
    h.item_ptr.push_back(static_cast<int>(h.items.size()));
  }
  h.rows = std::move(rows);
  return h;
}

}  // namespace

HostRowGroups build_row_groups_host(const std::vector<int>& row_ptr, const std::vector<int>& col_idx, int group_rows,
                                    bool by_length) {
  const int block_rows = static_cast<int>(row_ptr.size()) - 1;
  const int slots = (block_rows + group_rows - 1) / group_rows * group_rows;
  std::vector<int> order(static_cast<std::size_t>(block_rows));
  std::iota(order.begin(), order.end(), 0);
  auto grouped = [&](const std::vector<int>& o) {
    std::vector<int> rows(static_cast<std::size_t>(slots), -1);
    std::copy(o.begin(), o.end(), rows.begin());
    return rows;
  };
  HostRowGroups consecutive = merge_groups_host(row_ptr, col_idx, grouped(order), group_rows);
  if (!by_length || group_rows == 1) return consecutive;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return row_ptr[a + 1] - row_ptr[a] > row_ptr[b + 1] - row_ptr[b];
  });
  HostRowGroups sorted = merge_groups_host(row_ptr, col_idx, grouped(order), group_rows);
  if (sorted.items.size() >= consecutive.items.size()) return consecutive;
  sorted.by_length = true;
  return sorted;
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
