#include "bsrflow/ops/sm90_schedule_build.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <numeric>
#include <string>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow::sm90 {

namespace {
std::int64_t average_row_blocks(std::int64_t nnzb, int block_rows) { return (nnzb + block_rows - 1) / block_rows; }
}  // namespace

int split_limit(std::int64_t nnzb, int block_rows, int num_swaths, int ctas, int fraction) {
  if (block_rows <= 0 || nnzb <= 0) return 0;
  const std::int64_t average = average_row_blocks(nnzb, block_rows);
  const std::int64_t fair = nnzb * num_swaths / (static_cast<std::int64_t>(std::max(fraction, 1)) * std::max(ctas, 1));
  const std::int64_t limit = std::max<std::int64_t>({kSplitMinBlocks, kSplitAverageFactor * average, fair});
  return static_cast<int>(std::min<std::int64_t>(limit, 1 << 30));
}

int balanced_clusters(std::int64_t tiles, std::int64_t depth, int most) {
  if (most <= 1 || tiles <= most || depth < kClusterTrimMinDepth) return most;
  int best = most;
  std::int64_t best_slots = (tiles + most - 1) / most * most;
  for (int c = most - 1; c >= most - most / kClusterTrimDivisor; --c) {
    const std::int64_t slots = (tiles + c - 1) / c * c;
    if (slots < best_slots) {
      best = c;
      best_slots = slots;
    }
  }
  return best;
}

int reverse_limit(std::int64_t nnzb, int block_rows) {
  if (block_rows <= 0 || nnzb <= 0) return 0;
  return static_cast<int>(std::min<std::int64_t>(kReverseAverageFactor * average_row_blocks(nnzb, block_rows), 1 << 30));
}

TailSplit tail_split(std::int64_t nnzb, int block_rows, int groups, int clusters, int longest_piece) {
  if (block_rows <= 0 || nnzb <= 0 || groups <= 0 || clusters <= 0) return {};
  const std::int64_t average = average_row_blocks(nnzb, block_rows);
  const std::int64_t limit = std::max<std::int64_t>(
      {kTailMinBlocks, static_cast<std::int64_t>(kTailAverageFactor) * average, nnzb / clusters});
  if (longest_piece <= limit) return {};
  const std::int64_t absorb = static_cast<std::int64_t>(clusters) * longest_piece;
  const std::int64_t divisor = static_cast<std::int64_t>(kTailAbsorbDivisor) * nnzb;
  const std::int64_t tail_groups = std::min<std::int64_t>(groups, (absorb + divisor - 1) / divisor);
  return {static_cast<int>(tail_groups), static_cast<int>(std::min<std::int64_t>(limit, 1 << 30))};
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

// The maximum is the same in any order of the atomics.
__global__ void longest_row_kernel(const int* row_ptr, int block_rows, int* longest) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < block_rows) atomicMax(longest, row_ptr[i + 1] - row_ptr[i]);
}

// Per sorted position: pieces, split-row pieces (slots) and split-row flag.
__global__ void piece_counts_kernel(const int* sorted_lengths, int block_rows, int limit, LastWave last, int* pieces,
                                    int* slots, int* splits) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < block_rows) {
    const int p = pieces_at(s, sorted_lengths[s], limit, last);
    pieces[s] = p;
    slots[s] = p > 1 ? p : 0;
    splits[s] = p > 1 ? 1 : 0;
  }
}

// Pieces, slots, split rows and the longest row (sorted first), read back in one copy.
__global__ void totals_kernel(const int* piece_off, const int* slot_off, const int* split_off, const int* pieces,
                              const int* slots, const int* splits, const int* sorted_lengths, int last, int* totals) {
  totals[0] = piece_off[last] + pieces[last];
  totals[1] = slot_off[last] + slots[last];
  totals[2] = split_off[last] + splits[last];
  totals[3] = sorted_lengths[0];
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

template <class Split>
__global__ void split_of_slot_kernel(const Split* splits, int num_splits, int slots_per_piece, int* split_of_slot) {
  const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (j >= num_splits) return;
  const Split s = splits[j];
  for (int q = 0; q < s.count * slots_per_piece; ++q) split_of_slot[s.first_slot + q] = j;
}

template <class Split>
void launch_split_of_slot(const Split* splits, int num_splits, int slots_per_piece, int* split_of_slot,
                          cudaStream_t stream) {
  if (num_splits <= 0) return;
  split_of_slot_kernel<<<static_cast<unsigned>((num_splits + 255) / 256), 256, 0, stream>>>(
      splits, num_splits, slots_per_piece, split_of_slot);
  BSRFLOW_CHECK_LAUNCH("split_of_slot_kernel");
}

}  // namespace

void fill_split_of_slot(const SplitRow* splits, int num_splits, int slots_per_piece, int* split_of_slot,
                        cudaStream_t stream) {
  launch_split_of_slot(splits, num_splits, slots_per_piece, split_of_slot, stream);
}
void fill_split_of_slot(const SplitTile* splits, int num_splits, int slots_per_piece, int* split_of_slot,
                        cudaStream_t stream) {
  launch_split_of_slot(splits, num_splits, slots_per_piece, split_of_slot, stream);
}

int longest_row(const int* row_ptr, int block_rows, cudaStream_t stream) {
  BSRFLOW_REQUIRE(block_rows >= 1, Errc::invalid_argument, "longest_row: no block rows");
  DeviceBuffer<int> longest(1, stream);
  BSRFLOW_CUDA(cudaMemsetAsync(longest.data(), 0, sizeof(int), stream));
  longest_row_kernel<<<static_cast<unsigned>((block_rows + 255) / 256), 256, 0, stream>>>(row_ptr, block_rows,
                                                                                           longest.data());
  BSRFLOW_CHECK_LAUNCH("longest_row_kernel");
  return longest.to_host(stream)[0];  // synchronises
}

PieceList build_pieces(const int* row_ptr, int block_rows, int limit, cudaStream_t stream, LastWave last) {
  BSRFLOW_REQUIRE(block_rows >= 1, Errc::invalid_argument, "build_pieces: no block rows");
  const std::size_t n = static_cast<std::size_t>(block_rows);
  DeviceBuffer<int> lengths(n, stream), ids(n, stream), sorted_lengths(n, stream), sorted_ids(n, stream);
  DeviceBuffer<int> pieces(n, stream), slots(n, stream), splits(n, stream);
  DeviceBuffer<int> piece_off(n, stream), slot_off(n, stream), split_off(n, stream), totals(4, stream);
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

  piece_counts_kernel<<<grid, 256, 0, stream>>>(sorted_lengths.data(), block_rows, limit, last, pieces.data(),
                                                slots.data(), splits.data());
  BSRFLOW_CHECK_LAUNCH("piece_counts_kernel");
  for (auto [in, out] : {std::pair{&pieces, &piece_off}, std::pair{&slots, &slot_off}, std::pair{&splits, &split_off}}) {
    temp_bytes = temp.size();
    BSRFLOW_CUDA(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, in->data(), out->data(), block_rows, stream));
  }
  totals_kernel<<<1, 1, 0, stream>>>(piece_off.data(), slot_off.data(), split_off.data(), pieces.data(), slots.data(),
                                     splits.data(), sorted_lengths.data(), block_rows - 1, totals.data());
  BSRFLOW_CHECK_LAUNCH("totals_kernel");
  const std::vector<int> t = totals.to_host(stream);  // synchronises

  PieceList list;
  list.num_pieces = t[0];
  list.num_slots = t[1];
  list.num_split_rows = t[2];
  list.pieces = DeviceBuffer<Piece>(static_cast<std::size_t>(t[0]), stream);
  list.split_rows = DeviceBuffer<SplitRow>(static_cast<std::size_t>(t[2]), stream);
  fill_pieces_kernel<<<grid, 256, 0, stream>>>(row_ptr, sorted_ids.data(), pieces.data(), piece_off.data(),
                                               slot_off.data(), split_off.data(), block_rows, list.pieces.data(),
                                               list.split_rows.data());
  BSRFLOW_CHECK_LAUNCH("fill_pieces_kernel");
  list.longest = limit > 0 ? std::min(t[3], limit) : t[3];
  return list;
}

HostPieceList build_pieces_host(const std::vector<int>& row_ptr, int limit, LastWave last) {
  const int block_rows = static_cast<int>(row_ptr.size()) - 1;
  std::vector<int> order(static_cast<std::size_t>(std::max(block_rows, 0)));
  std::iota(order.begin(), order.end(), 0);
  auto length = [&](int r) { return row_ptr[r + 1] - row_ptr[r]; };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return length(a) > length(b); });
  HostPieceList h;
  for (int s = 0; s < block_rows; ++s) {
    const int row = order[s];
    const int p = pieces_at(s, length(row), limit, last);
    if (p > 1) h.split_rows.push_back({row, h.num_slots, p});
    for (int q = 0; q < p; ++q)
      h.pieces.push_back({row, piece_bound(row_ptr[row], length(row), q, p),
                          piece_bound(row_ptr[row], length(row), q + 1, p), p > 1 ? h.num_slots + q : -1});
    if (p > 1) h.num_slots += p;
  }
  return h;
}

namespace {

constexpr int kPerLane = kMaxClusters / 32;

// Sizes of one assignment, checked against the kernel's 32-bit indices.
struct AssignSizes {
  int tail_first;  // first swath group of the tail
  int num_items;
  int num_splits;
  std::int64_t num_partials;
};
AssignSizes assign_sizes(int main_pieces, int main_splits, int main_slots, int tail_pieces, int tail_splits,
                         int tail_slots, const ScheduleShape& s) {
  BSRFLOW_REQUIRE(s.clusters >= 1 && s.clusters <= kMaxClusters, Errc::unsupported,
                  "sm90 schedule: " + std::to_string(s.clusters) + " clusters; at most " +
                      std::to_string(kMaxClusters) + " are supported");
  BSRFLOW_REQUIRE(s.groups >= 1 && s.tail_groups >= 0 && s.tail_groups <= s.groups && s.cluster_size >= 1,
                  Errc::invalid_argument, "sm90 schedule: inconsistent swath groups");
  BSRFLOW_REQUIRE(main_pieces >= 1 && (s.tail_groups == 0 || tail_pieces >= 1), Errc::invalid_argument,
                  "sm90 schedule: empty piece list");
  const int tail_first = s.groups - s.tail_groups;
  const std::int64_t items = static_cast<std::int64_t>(tail_first) * main_pieces +
                             static_cast<std::int64_t>(s.tail_groups) * tail_pieces;
  const std::int64_t splits = static_cast<std::int64_t>(tail_first) * main_splits +
                              static_cast<std::int64_t>(s.tail_groups) * tail_splits;
  const std::int64_t partials = partial_base(s.groups, s, main_slots, tail_slots);  // one past the last group
  BSRFLOW_REQUIRE(items <= INT_MAX && splits <= INT_MAX && partials <= INT_MAX, Errc::unsupported,
                  std::to_string(items) + " tiles (pieces x swath groups) or their " + std::to_string(partials) +
                      " partial tiles exceed the sm90 kernel's 32-bit tile index");
  return {tail_first, static_cast<int>(items), static_cast<int>(splits), partials};
}

// The greedy pass, one warp: lane l keeps the loads of clusters l, l + 32, ...; each item goes to
// the least-loaded cluster, ties to the lowest index (the host twin's rule). Costs are read 32
// pieces at a time, one per lane, and broadcast.
__global__ void __launch_bounds__(32) assign_kernel(const Piece* main, int per_main, const Piece* tail, int per_tail,
                                                    ScheduleShape s, int* item_cluster, int* item_pos,
                                                    int* cluster_begin) {
  const int lane = static_cast<int>(threadIdx.x);
  long long load[kPerLane];
  int count[kPerLane];
#pragma unroll
  for (int k = 0; k < kPerLane; ++k) {
    load[k] = lane + 32 * k < s.clusters ? 0 : LLONG_MAX;
    count[k] = 0;
  }
  int item = 0;
  for (int g = 0; g < s.groups; ++g) {
    const bool in_tail = g >= s.groups - s.tail_groups;
    const Piece* list = in_tail ? tail : main;
    const int n = in_tail ? per_tail : per_main;
    for (int j0 = 0; j0 < n; j0 += 32) {
      const long long mine = j0 + lane < n ? tile_cost(list[j0 + lane], s) : 0;
      const int batch = min(32, n - j0);
      for (int b = 0; b < batch; ++b, ++item) {
        const long long cost = __shfl_sync(0xffffffffu, mine, b);
        long long best = load[0];
        int best_k = 0;
#pragma unroll
        for (int k = 1; k < kPerLane; ++k)
          if (load[k] < best) {
            best = load[k];
            best_k = k;
          }
        int best_c = lane + 32 * best_k;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
          const long long other = __shfl_xor_sync(0xffffffffu, best, off);
          const int other_c = __shfl_xor_sync(0xffffffffu, best_c, off);
          if (other < best || (other == best && other_c < best_c)) {
            best = other;
            best_c = other_c;
          }
        }
        if ((best_c & 31) == lane) {
#pragma unroll
          for (int k = 0; k < kPerLane; ++k)
            if (k == (best_c >> 5)) {  // static indices keep load[] / count[] in registers
              load[k] += cost;
              item_cluster[item] = best_c;
              item_pos[item] = count[k]++;
            }
        }
      }
    }
  }
  __shared__ int counts[kMaxClusters];
#pragma unroll
  for (int k = 0; k < kPerLane; ++k) counts[lane + 32 * k] = count[k];
  __syncwarp();
  if (lane == 0) {
    int sum = 0;
    for (int c = 0; c < s.clusters; ++c) {
      cluster_begin[c] = sum;
      sum += counts[c];
    }
    cluster_begin[s.clusters] = sum;
  }
}

__host__ __device__ inline Tile make_tile(const Piece& pc, int g, const ScheduleShape& s, int main_slots,
                                          int tail_slots) {
  const int slot = pc.slot < 0 ? -1
                               : static_cast<int>(partial_base(g, s, main_slots, tail_slots) +
                                                  static_cast<std::int64_t>(pc.slot) * s.cluster_size);
  const int reverse = (g & 1) != 0 && pc.kb_end - pc.kb_begin <= s.reverse_max ? 1 : 0;
  return {pc.row, pc.kb_begin, pc.kb_end, slot, g, reverse};
}

__host__ __device__ inline SplitTile make_split(const SplitRow& r, int g, const ScheduleShape& s, int main_slots,
                                                int tail_slots) {
  return {r.row, g,
          static_cast<int>(partial_base(g, s, main_slots, tail_slots) +
                           static_cast<std::int64_t>(r.first_slot) * s.cluster_size),
          r.count};
}

__global__ void scatter_tiles_kernel(const Piece* main, int per_main, int main_slots, const Piece* tail, int per_tail,
                                     int tail_slots, ScheduleShape s, const int* item_cluster, const int* item_pos,
                                     const int* cluster_begin, int num_items, Tile* tiles) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= num_items) return;
  const ItemRef ref = item_ref(i, per_main, per_tail, s.groups - s.tail_groups);
  const Piece pc = ref.tail ? tail[ref.entry] : main[ref.entry];
  tiles[cluster_begin[item_cluster[i]] + item_pos[i]] = make_tile(pc, ref.group, s, main_slots, tail_slots);
}

__global__ void fill_splits_kernel(const SplitRow* main, int main_rows, int main_slots, const SplitRow* tail,
                                   int tail_rows, int tail_slots, ScheduleShape s, int num_splits, SplitTile* out) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= num_splits) return;
  const ItemRef ref = item_ref(i, main_rows, tail_rows, s.groups - s.tail_groups);
  out[i] = make_split(ref.tail ? tail[ref.entry] : main[ref.entry], ref.group, s, main_slots, tail_slots);
}

}  // namespace

Schedule assign_tiles(const PieceList& main, const PieceList& tail, const ScheduleShape& shape, cudaStream_t stream) {
  const bool use_tail = shape.tail_groups > 0;
  const int tail_pieces = use_tail ? tail.num_pieces : 0, tail_rows = use_tail ? tail.num_split_rows : 0;
  const int tail_slots = use_tail ? tail.num_slots : 0;
  const AssignSizes z = assign_sizes(main.num_pieces, main.num_split_rows, main.num_slots, tail_pieces, tail_rows,
                                     tail_slots, shape);
  const Piece* tail_list = use_tail ? tail.pieces.data() : nullptr;
  Schedule out;
  out.num_tiles = z.num_items;
  out.num_splits = z.num_splits;
  out.num_partials = z.num_partials;
  out.num_split_rows = std::max(z.tail_first > 0 ? main.num_split_rows : 0, tail_rows);
  out.tiles = DeviceBuffer<Tile>(static_cast<std::size_t>(z.num_items), stream);
  out.cluster_begin = DeviceBuffer<int>(static_cast<std::size_t>(shape.clusters) + 1, stream);
  out.splits = DeviceBuffer<SplitTile>(static_cast<std::size_t>(z.num_splits), stream);
  DeviceBuffer<int> item_cluster(static_cast<std::size_t>(z.num_items), stream);
  DeviceBuffer<int> item_pos(static_cast<std::size_t>(z.num_items), stream);

  assign_kernel<<<1, 32, 0, stream>>>(main.pieces.data(), main.num_pieces, tail_list, tail_pieces, shape,
                                      item_cluster.data(), item_pos.data(), out.cluster_begin.data());
  BSRFLOW_CHECK_LAUNCH("assign_kernel");
  const unsigned grid = static_cast<unsigned>((static_cast<std::int64_t>(z.num_items) + 255) / 256);
  scatter_tiles_kernel<<<grid, 256, 0, stream>>>(main.pieces.data(), main.num_pieces, main.num_slots, tail_list,
                                                 tail_pieces, tail_slots, shape, item_cluster.data(), item_pos.data(),
                                                 out.cluster_begin.data(), z.num_items, out.tiles.data());
  BSRFLOW_CHECK_LAUNCH("scatter_tiles_kernel");
  if (z.num_splits > 0) {
    const unsigned split_grid = static_cast<unsigned>((static_cast<std::int64_t>(z.num_splits) + 255) / 256);
    fill_splits_kernel<<<split_grid, 256, 0, stream>>>(main.split_rows.data(), main.num_split_rows, main.num_slots,
                                                       use_tail ? tail.split_rows.data() : nullptr, tail_rows,
                                                       tail_slots, shape, z.num_splits, out.splits.data());
    BSRFLOW_CHECK_LAUNCH("fill_splits_kernel");
  }
  return out;  // the temporaries are freed in stream order, after the kernels that use them
}

HostSchedule assign_tiles_host(const HostPieceList& main, const HostPieceList& tail, const ScheduleShape& shape) {
  const bool use_tail = shape.tail_groups > 0;
  const int per_main = static_cast<int>(main.pieces.size()), main_rows = static_cast<int>(main.split_rows.size());
  const int per_tail = use_tail ? static_cast<int>(tail.pieces.size()) : 0;
  const int tail_rows = use_tail ? static_cast<int>(tail.split_rows.size()) : 0;
  const int tail_slots = use_tail ? tail.num_slots : 0;
  const AssignSizes z =
      assign_sizes(per_main, main_rows, main.num_slots, per_tail, tail_rows, tail_slots, shape);
  std::vector<long long> load(static_cast<std::size_t>(shape.clusters), 0);
  std::vector<std::vector<Tile>> lists(static_cast<std::size_t>(shape.clusters));
  for (int i = 0; i < z.num_items; ++i) {
    const ItemRef ref = item_ref(i, per_main, per_tail, z.tail_first);
    const Piece& pc = ref.tail ? tail.pieces[ref.entry] : main.pieces[ref.entry];
    const auto c = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());  // first min
    load[c] += tile_cost(pc, shape);
    lists[c].push_back(make_tile(pc, ref.group, shape, main.num_slots, tail_slots));
  }
  HostSchedule h;
  h.num_partials = z.num_partials;
  for (const auto& list : lists) {
    h.cluster_begin.push_back(static_cast<int>(h.tiles.size()));
    h.tiles.insert(h.tiles.end(), list.begin(), list.end());
  }
  h.cluster_begin.push_back(static_cast<int>(h.tiles.size()));
  for (int i = 0; i < z.num_splits; ++i) {
    const ItemRef ref = item_ref(i, main_rows, tail_rows, z.tail_first);
    h.splits.push_back(make_split(ref.tail ? tail.split_rows[ref.entry] : main.split_rows[ref.entry], ref.group,
                                  shape, main.num_slots, tail_slots));
  }
  return h;
}

}  // namespace bsrflow::sm90
