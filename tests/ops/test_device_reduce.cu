// grid_sum (device_reduce.cuh) through a test kernel: every thread contributes K values, the
// last block writes the totals and counts itself.
//
// Checks, for K = 1..4, 128 / 256 / 1024 threads per block, f32 and f64, and grids from 1 block
// to exactly ws.max_blocks: integer data sums exactly; exactly one block (all of its threads)
// sees `true`, and each of its threads holds the same totals; the ticket is back at 0 after
// every launch, so back-to-back launches on one workspace need no reset; real data gives
// bitwise identical sums run to run; a launch that breaks the preconditions writes nothing.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/ops/device_reduce.cuh"
#include "support/device_vectors.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;

namespace {

struct LastBlockReport {
  unsigned threads_true;   // threads that got `true`
  unsigned block;          // the block they belong to
  unsigned disagreements;  // threads of the last block whose totals differ from thread 0's
};

// Thread i of the grid contributes values[k * count + i] to sum k (0 past count).
template <int kThreads, int K, class T>
__global__ void grid_sum_kernel(const T* values, std::int64_t count, ReduceWorkspace<T> ws, T* totals,
                                LastBlockReport* report) {
  __shared__ T s_first[K];
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  T mine[K];
  for (int k = 0; k < K; ++k) mine[k] = i < count ? values[k * count + i] : T(0);
  T total[K];
  if (!grid_sum<kThreads, K>(mine, ws, total)) return;
  atomicAdd(&report->threads_true, 1u);
  if (threadIdx.x == 0) {
    report->block = blockIdx.x;
    for (int k = 0; k < K; ++k) {
      totals[k] = total[k];
      s_first[k] = total[k];
    }
  }
  __syncthreads();  // every thread of this block reached here (the whole block got `true`)
  for (int k = 0; k < K; ++k)
    if (total[k] != s_first[k]) atomicAdd(&report->disagreements, 1u);
}

template <int kThreads, int K, class T>
struct Harness {
  Stream stream;
  int max_blocks;
  ReduceScratch<T> scratch;
  DeviceBuffer<T> totals{K, stream};
  DeviceBuffer<LastBlockReport> report{1, stream};

  explicit Harness(int max) : max_blocks(max), scratch(max, K, stream) {}

  // Runs `blocks` blocks over `values` (K rows of `count`); returns the K totals.
  std::vector<T> run(const DeviceBuffer<T>& values, std::int64_t count, int blocks, LastBlockReport* out_report) {
    totals.fill_bytes(0xFF, stream);
    report.fill_bytes(0, stream);
    grid_sum_kernel<kThreads, K, T><<<blocks, kThreads, 0, stream>>>(values.data(), count, scratch.view(), totals.data(),
                                                                     report.data());
    BSRFLOW_CHECK_LAUNCH("grid_sum_kernel");
    *out_report = report.to_host(stream).front();
    return totals.to_host(stream);
  }

  unsigned ticket() {
    unsigned t = 0xFFFFFFFFu;
    BSRFLOW_CUDA(cudaMemcpyAsync(&t, scratch.view().ticket, sizeof t, cudaMemcpyDeviceToHost, stream));
    stream.synchronize();
    return t;
  }
};

// Integer data, K rows of `count` values; returns the exact sums.
template <class T>
std::vector<T> integer_rows(int K, std::int64_t count, std::uint32_t seed, std::vector<double>* sums) {
  std::mt19937 rng(seed);
  std::vector<T> v(static_cast<std::size_t>(K * count));
  sums->assign(K, 0.0);
  for (int k = 0; k < K; ++k)
    for (std::int64_t i = 0; i < count; ++i) {
      v[k * count + i] = test::int_value<T>(rng, 3 + k);  // a different range per k: rows must not mix
      (*sums)[k] += static_cast<double>(v[k * count + i]);
    }
  return v;
}

template <int kThreads, int K, class T>
void check_integer_sums(int max_blocks, const std::vector<int>& grids) {
  Harness<kThreads, K, T> h(max_blocks);
  for (const int blocks : grids) {
    CAPTURE(kThreads, K, max_blocks, blocks);
    const std::int64_t count = std::int64_t{blocks} * kThreads - kThreads / 3;  // last block partly empty
    std::vector<double> sums;
    const auto host = integer_rows<T>(K, count, 100 + blocks, &sums);
    const auto values = DeviceBuffer<T>::from_host(host, h.stream);
    for (int repeat = 0; repeat < 2; ++repeat) {  // the second launch reuses the workspace as left
      LastBlockReport report{};
      const std::vector<T> totals = h.run(values, count, blocks, &report);
      for (int k = 0; k < K; ++k) CHECK(totals[k] == static_cast<T>(sums[k]));
      CHECK(report.threads_true == static_cast<unsigned>(kThreads));
      CHECK(report.block < static_cast<unsigned>(blocks));
      CHECK(report.disagreements == 0u);
      CHECK(h.ticket() == 0u);
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("grid_sum sums K values over the grid exactly, in one last block", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  // |sum| <= 6 * 5000 * 256 < 2^24: exact in f32.
  const std::vector<int> grids = {1, 2, 3, 31, 132, 1000, 5000};
  check_integer_sums<256, 1, T>(5000, grids);
  check_integer_sums<256, 2, T>(5000, grids);
  check_integer_sums<256, 3, T>(5000, grids);
  check_integer_sums<256, 4, T>(5000, grids);
  check_integer_sums<128, 2, T>(777, {1, 5, 776, 777});
  check_integer_sums<1024, 4, T>(300, {1, 299, 300});
  check_integer_sums<32, 1, T>(64, {1, 64});
}

TEMPLATE_TEST_CASE("grid_sum is bitwise reproducible on real data", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  constexpr int kThreads = 256, K = 2;
  const int blocks = 4000;
  const std::int64_t count = std::int64_t{blocks} * kThreads;
  std::mt19937 rng(7);
  std::vector<T> host(static_cast<std::size_t>(K * count));
  double ref[K] = {0, 0}, abs_sum[K] = {0, 0};
  for (int k = 0; k < K; ++k)
    for (std::int64_t i = 0; i < count; ++i) {
      host[k * count + i] = test::real_value<T>(rng);
      ref[k] += static_cast<double>(host[k * count + i]);
      abs_sum[k] += std::fabs(static_cast<double>(host[k * count + i]));
    }
  Harness<kThreads, K, T> h(blocks);
  const auto values = DeviceBuffer<T>::from_host(host, h.stream);
  LastBlockReport report{};
  const std::vector<T> first = h.run(values, count, blocks, &report);
  for (int repeat = 0; repeat < 5; ++repeat) {
    const std::vector<T> again = h.run(values, count, blocks, &report);
    CHECK(test::bitwise_equal(first, again));
  }
  const double eps = std::is_same_v<T, float> ? 6e-8 : 1.2e-16;
  for (int k = 0; k < K; ++k) CHECK(std::fabs(static_cast<double>(first[k]) - ref[k]) <= 64 * eps * abs_sum[k]);
}

TEST_CASE("grid_sum writes nothing when a launch breaks its preconditions", "[ops][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Harness<256, 2, double> h(8);
  std::vector<double> sums;
  const auto too_many = DeviceBuffer<double>::from_host(integer_rows<double>(2, 9 * 256, 1, &sums), h.stream);
  LastBlockReport report{};
  const std::vector<double> totals = h.run(too_many, 9 * 256, 9, &report);  // 9 blocks > max_blocks 8
  CHECK(test::bitwise_equal(totals, test::poisoned<double>(2)));
  CHECK(report.threads_true == 0u);
  CHECK(h.ticket() == 0u);
  // The workspace still works afterwards.
  const auto fits = DeviceBuffer<double>::from_host(integer_rows<double>(2, 8 * 256, 2, &sums), h.stream);
  const std::vector<double> ok = h.run(fits, 8 * 256, 8, &report);
  CHECK(report.threads_true == 256u);
  CHECK(ok[0] == sums[0]);
  CHECK(ok[1] == sums[1]);
}
