// Bandwidth probes measured in the same run as the benchmarks they put in context:
//  - device-to-device copy: one large cudaMemcpyAsync; bytes = read + written (2 x size).
//  - L2 read: a kernel re-reading a buffer that fits in L2 (loads bypass L1 with ld.global.cg),
//    bytes = bytes read. A stand-in for the copy-only variant of the Hopper kernel until that
//    probe lands; reports say which one they used.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <ostream>
#include <string_view>

#include "bsrflow/apps/common/stats.hpp"
#include "bsrflow/apps/common/timing.hpp"

namespace bsrflow::bench {

struct BandwidthResult {
  std::size_t bytes_per_run = 0;  // bytes counted per run (read + written for the copy)
  Summary ms;                     // per-run times
  double bytes_per_second() const { return ms.median > 0 ? static_cast<double>(bytes_per_run) / (ms.median * 1e-3) : 0; }
};

// Default copy size: 8 x L2 but at least 256 MiB, at most 1/8 of device memory.
std::size_t default_copy_probe_bytes();

// Times cudaMemcpyAsync(device -> device) of `bytes` bytes.
BandwidthResult measure_copy_bandwidth(std::size_t bytes, const TimingConfig& config, cudaStream_t stream);

// The copy bandwidth a memory-bound benchmark rates itself against: measure_copy_bandwidth at the
// default size, at the start of its run, with one progress line on `log` (when not null):
// "<app> on <device>: device-to-device copy <GB/s> GB/s".
BandwidthResult measure_run_copy_bandwidth(std::string_view app, std::string_view device, const TimingConfig& config,
                                           cudaStream_t stream, std::ostream* log);

// Re-reads a buffer of a quarter of L2 `passes` times per run.
BandwidthResult measure_l2_read_bandwidth(int passes, const TimingConfig& config, cudaStream_t stream);

}  // namespace bsrflow::bench
