#include <algorithm>

#include "bsrflow/apps/common/probes.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

std::size_t default_copy_probe_bytes() {
  const DeviceInfo info = device_info();
  const std::size_t want = std::max<std::size_t>(8 * info.l2_bytes, std::size_t{256} << 20);
  return std::min(want, info.global_mem_bytes / 8);
}

BandwidthResult measure_copy_bandwidth(std::size_t bytes, const TimingConfig& config, cudaStream_t stream) {
  BSRFLOW_REQUIRE(bytes > 0, Errc::invalid_argument, "copy probe size must be positive");
  DeviceBuffer<unsigned char> src(bytes, stream), dst(bytes, stream);
  src.fill_bytes(0x5A, stream);  // written once so the copy moves real pages
  BandwidthResult result;
  result.bytes_per_run = 2 * bytes;  // read + write
  // The buffers are far larger than L2, so no flush is needed (and it would only cost time).
  result.ms = time_and_summarize(
      [&](cudaStream_t s) { BSRFLOW_CUDA(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, s)); },
      config, nullptr, stream);
  return result;
}

BandwidthResult measure_run_copy_bandwidth(std::string_view app, std::string_view device, const TimingConfig& config,
                                           cudaStream_t stream, std::ostream* log) {
  const BandwidthResult copy = measure_copy_bandwidth(default_copy_probe_bytes(), config, stream);
  if (log != nullptr)
    *log << app << " on " << device << ": device-to-device copy " << copy.bytes_per_second() / 1e9 << " GB/s\n";
  return copy;
}

}  // namespace bsrflow::bench
