#include "bsrflow/ops/sm90_schedule_build.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <numeric>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow::sm90 {

int split_limit(std::int64_t nnzb, int block_rows, int num_swaths, int ctas) {
  if (block_rows <= 0 || nnzb <= 0) return 0;
  const std::int64_t average = (nnzb + block_rows - 1) / block_rows;
  const std::int64_t fair = nnzb * num_swaths / (static_cast<std::int64_t>(kSplitPerCtaFraction) * std::max(ctas, 1));
  const std::int64_t limit = std::max<std::int64_t>({kSplitMinBlocks, kSplitAverageFactor * average, fair});
  return static_cast<int>(std::min<std::int64_t>(limit, 1 << 30));
}

namespace {

// Piece q of p pieces of the blocks [begin, begin + length): an even split, in k order.
__host__ __device__ inline int piece_bound(int begin, int length, int q, int p) {
  return begin + static_cast<int>(static_cast<std::int64_t>(length) * q / p);
}

__global__ void row_lengths_kernel(const int* row_ptr, int block_rows, int* lengths, int* ids) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < block_rows) {
    lengths[i] = row_ptr[i + 1] - row_ptr[i];
    ids[i] = i;
  }
}

// Per sorted position: pieces, split-row pieces (slots) and split-row flag.
__global__ void piece_counts_kernel(const int* sorted_lengths, int block_rows, int limit, int* pieces, int* slots,
                                    int* splits) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < block_rows) {
    const int p = pieces_for(sorted_lengths[s], limit);
    pieces[s] = p;
    slots[s] = p > 1 ? p : 0;
    splits[s] = p > 1 ? 1 : 0;
  }
}

__global__ void totals_kernel(const int* piece_off, const int* slot_off, const int* split_off, const int* pieces,
                              const int* slots, const int* splits, int last, int* totals) {
  totals[0] = piece_off[last] + pieces[last];
  totals[1] = slot_off[last] + slots[last];
  totals[2] = split_off[last] + splits[last];
}

__global__ void fill_pieces_kernel(const int* row_ptr, const int* sorted_ids, const int* pieces, const int* piece_off,
                                   const int* slot_off, const int* split_off, int block_rows, Piece* out,
                                   SplitRow* split_rows) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= block_rows) return;
  const int row = sorted_ids[s];
  const int begin = row_ptr[row];
  const int length = row_ptr[row + 1] - begin;
  const int p = pieces[s];
  for (int q = 0; q < p; ++q)
    out[piece_off[s] + q] = {row, piece_bound(begin, length, q, p), piece_bound(begin, length, q + 1, p),
                             p > 1 ? slot_off[s] + q : -1};
  if (p > 1) split_rows[split_off[s]] = {row, slot_off[s], p};
}

}  // namespace

Schedule build_schedule(const int* row_ptr, int block_rows, int limit, cudaStream_t stream) {
  BSRFLOW_REQUIRE(block_rows >= 1, Errc::invalid_argument, "build_schedule: no block rows");
  const std::size_t n = static_cast<std::size_t>(block_rows);
  DeviceBuffer<int> lengths(n, stream), ids(n, stream), sorted_lengths(n, stream), sorted_ids(n, stream);
  DeviceBuffer<int> pieces(n, stream), slots(n, stream), splits(n, stream);
  DeviceBuffer<int> piece_off(n, stream), slot_off(n, stream), split_off(n, stream), totals(3, stream);
  const unsigned grid = static_cast<unsigned>((n + 255) / 256);

  row_lengths_kernel<<<grid, 256, 0, stream>>>(row_ptr, block_rows, lengths.data(), ids.data());
  BSRFLOW_CHECK_LAUNCH("row_lengths_kernel");

  // Longest first; the radix sort is stable, so equal lengths keep ascending row order and the
  // schedule is deterministic.
  std::size_t sort_bytes = 0, scan_bytes = 0;
  BSRFLOW_CUDA(cub::DeviceRadixSort::SortPairsDescending(nullptr, sort_bytes, lengths.data(), sorted_lengths.data(),
                                                         ids.data(), sorted_ids.data(), block_rows, 0, 32, stream));
  BSRFLOW_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, pieces.data(), piece_off.data(), block_rows, stream));
  DeviceBuffer<unsigned char> temp(std::max(sort_bytes, scan_bytes), stream);
  std::size_t temp_bytes = temp.size();
  BSRFLOW_CUDA(cub::DeviceRadixSort::SortPairsDescending(temp.data(), temp_bytes, lengths.data(),
                                                         sorted_lengths.data(), ids.data(), sorted_ids.data(),
                                                         block_rows, 0, 32, stream));

  piece_counts_kernel<<<grid, 256, 0, stream>>>(sorted_lengths.data(), block_rows, limit, pieces.data(), slots.data(),
                                                splits.data());
  BSRFLOW_CHECK_LAUNCH("piece_counts_kernel");
  for (auto [in, out] : {std::pair{&pieces, &piece_off}, std::pair{&slots, &slot_off}, std::pair{&splits, &split_off}}) {
    temp_bytes = temp.size();
    BSRFLOW_CUDA(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, in->data(), out->data(), block_rows, stream));
  }
  totals_kernel<<<1, 1, 0, stream>>>(piece_off.data(), slot_off.data(), split_off.data(), pieces.data(), slots.data(),
                                     splits.data(), block_rows - 1, totals.data());
  BSRFLOW_CHECK_LAUNCH("totals_kernel");
  const std::vector<int> t = totals.to_host(stream);  // synchronises

  Schedule schedule;
  schedule.num_pieces = t[0];
  schedule.num_slots = t[1];
  schedule.num_split_rows = t[2];
  schedule.pieces = DeviceBuffer<Piece>(static_cast<std::size_t>(t[0]), stream);
  schedule.split_rows = DeviceBuffer<SplitRow>(static_cast<std::size_t>(t[2]), stream);
  fill_pieces_kernel<<<grid, 256, 0, stream>>>(row_ptr, sorted_ids.data(), pieces.data(), piece_off.data(),
                                               slot_off.data(), split_off.data(), block_rows,
                                               schedule.pieces.data(), schedule.split_rows.data());
  BSRFLOW_CHECK_LAUNCH("fill_pieces_kernel");
  return schedule;
}

HostSchedule build_schedule_host(const std::vector<int>& row_ptr, int limit) {
  const int block_rows = static_cast<int>(row_ptr.size()) - 1;
  std::vector<int> order(static_cast<std::size_t>(std::max(block_rows, 0)));
  std::iota(order.begin(), order.end(), 0);
  auto length = [&](int r) { return row_ptr[r + 1] - row_ptr[r]; };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return length(a) > length(b); });
  HostSchedule h;
  for (int row : order) {
    const int p = pieces_for(length(row), limit);
    if (p > 1) h.split_rows.push_back({row, h.num_slots, p});
    for (int q = 0; q < p; ++q)
      h.pieces.push_back({row, piece_bound(row_ptr[row], length(row), q, p),
                          piece_bound(row_ptr[row], length(row), q + 1, p), p > 1 ? h.num_slots + q : -1});
    if (p > 1) h.num_slots += p;
  }
  return h;
}

}  // namespace bsrflow::sm90
