// The one translation unit that includes CUB (see detail_primitives.cuh for why), plus the two
// tiny index kernels several conversions share.
#include "bsrflow/formats/detail_primitives.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <climits>
#include <string>

#include "bsrflow/core/device_buffer.hpp"

namespace bsrflow::detail {

void exclusive_sum(const int* in, int* out, std::int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  BSRFLOW_REQUIRE(n <= INT_MAX, Errc::unsupported,
                  "exclusive_sum: " + std::to_string(n) + " items exceed the int32 index range");
  const int items = static_cast<int>(n);
  std::size_t temp_bytes = 0;
  BSRFLOW_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, in, out, items, stream));
  DeviceBuffer<std::byte> temp(temp_bytes > 0 ? temp_bytes : 1, stream);  // null would mean "size query"
  BSRFLOW_CUDA(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, in, out, items, stream));
}

void sort_pairs(const std::uint64_t* keys_in, std::uint64_t* keys_out, const int* values_in, int* values_out,
                std::int64_t n, int end_bit, cudaStream_t stream) {
  if (n <= 0) return;
  BSRFLOW_REQUIRE(n <= INT_MAX, Errc::unsupported,
                  "sort_pairs: " + std::to_string(n) + " items exceed the int32 index range");
  const int items = static_cast<int>(n);
  std::size_t temp_bytes = 0;
  BSRFLOW_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys_in, keys_out, values_in, values_out, items,
                                               0, end_bit, stream));
  DeviceBuffer<std::byte> temp(temp_bytes > 0 ? temp_bytes : 1, stream);  // null would mean "size query"
  BSRFLOW_CUDA(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, keys_in, keys_out, values_in, values_out,
                                               items, 0, end_bit, stream));
}

namespace {

__global__ void iota_kernel(int* __restrict__ out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<int>(i);
}

// One thread per offset; a binary search over the sorted keys (they are L2-resident after the
// sort that produced them, so the log2(n) probes are cheap next to the sort itself).
__global__ void offsets_from_sorted_kernel(const int* __restrict__ sorted, std::int64_t n, int* __restrict__ offsets,
                                           int count) {
  for (std::int64_t r = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; r <= count;
       r += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t lo = 0, hi = n;  // first p with sorted[p] >= r
    while (lo < hi) {
      const std::int64_t mid = (lo + hi) / 2;
      if (sorted[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    offsets[r] = static_cast<int>(lo);
  }
}

}  // namespace

void launch_iota(int* out, std::int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  iota_kernel<<<elementwise_grid(n), kElementwiseThreads, 0, stream>>>(out, n);
  BSRFLOW_CHECK_LAUNCH("iota_kernel");
}

void launch_offsets_from_sorted(const int* sorted, std::int64_t n, int* offsets, int count, cudaStream_t stream) {
  if (count < 0) return;
  offsets_from_sorted_kernel<<<elementwise_grid(static_cast<std::int64_t>(count) + 1), kElementwiseThreads, 0,
                               stream>>>(sorted, n, offsets, count);
  BSRFLOW_CHECK_LAUNCH("offsets_from_sorted_kernel");
}

}  // namespace bsrflow::detail
