// L2 read-bandwidth probe: every thread streams 16-byte loads over a buffer that fits in L2,
// `passes` times. Loads use ld.global.cg (L2 only), otherwise the per-SM share of the buffer
// would sit in L1 and the probe would measure L1.
#include <algorithm>
#include <cstdint>

#include "bsrflow/apps/common/probes.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {

constexpr int kThreads = 512;

__global__ void l2_read_kernel(const int4* __restrict__ data, std::int64_t count, int passes, int4* sink) {
  int4 acc = make_int4(0, 0, 0, 0);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p) {
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
      const int4 v = __ldcg(data + i);
      acc.x ^= v.x;
      acc.y ^= v.y;
      acc.z ^= v.z;
      acc.w ^= v.w;
    }
  }
  // NOTES: a store the compiler cannot prove dead keeps the loads alive; it (almost) never runs.
  if (acc.x == 0x12345678 && acc.y == 0x9abcdef0) sink[threadIdx.x] = acc;
}

}  // namespace

BandwidthResult measure_l2_read_bandwidth(int passes, const TimingConfig& config, cudaStream_t stream) {
  BSRFLOW_REQUIRE(passes >= 1, Errc::invalid_argument, "L2 probe passes must be at least 1");
  const DeviceInfo info = device_info();
  // A quarter of L2: Hopper's L2 is two partitions, and data may be held in both.
  const std::size_t bytes = std::max<std::size_t>(info.l2_bytes / 4, 1 << 20) / sizeof(int4) * sizeof(int4);
  const auto count = static_cast<std::int64_t>(bytes / sizeof(int4));
  DeviceBuffer<int4> data(static_cast<std::size_t>(count), stream);
  DeviceBuffer<int4> sink(kThreads, stream);
  data.fill_bytes(0x3C, stream);
  const int blocks = 4 * info.sm_count;
  auto launch = [&](cudaStream_t s) {
    l2_read_kernel<<<blocks, kThreads, 0, s>>>(data.data(), count, passes, sink.data());
    BSRFLOW_CHECK_LAUNCH("l2_read_kernel");
  };
  BandwidthResult result;
  result.bytes_per_run = bytes * static_cast<std::size_t>(passes);
  // The buffer must stay in L2 between runs: no flush here, and warm-up runs load it.
  TimingConfig warm = config;
  warm.cold_l2 = false;
  warm.warmup = std::max(warm.warmup, 1);
  result.ms = time_and_summarize(launch, warm, nullptr, stream);
  return result;
}

}  // namespace bsrflow::bench
