// What the driver said about the GPU's clock and power while a timed series ran. A GEMM's rate
// follows the SM clock, and the clock follows power: the same kernel runs 3-4% slower on random
// f16 values than on bf16 ones, cuBLAS 17% faster on a matrix that is 87.5% zeros (perf_log
// entries 34 and 44), and a short case timed right after a long, power-hungry one can run at a
// lower clock setting than the same plan timed later (entry 45). The monitor shows the last.
//
// GpuMonitor samples NVML (the driver's management library, loaded at run time with dlopen:
// no build or link dependency, and machines without a driver simply report it unavailable) on
// a host thread: the SM clock, the board power and the reasons the driver gives for holding the
// clock below its maximum, about once a millisecond between start() and stop().
//
// What NVML's SM clock is (measured on H100s, perf_log entry 45): the driver's clock setting,
// which moves on a scale of ~100 ms with the power state (1500-1980 MHz across one bsr_bench
// suite), not the effective clock inside a kernel: power capping runs the 128 x 128 GEMM at
// 1.44-1.51 GHz by its own cycle counts while NVML reads ~1965 MHz. Power readings lag similarly.
// So a record's figures tell which power state its series ran in, not how fast its kernel clocked.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace bsrflow::bench {

// NVML's clock-event reasons (nvmlClocksEventReason*, formerly ClocksThrottleReason*), as bits.
namespace clock_limit {
inline constexpr std::uint64_t idle = 0x1;
inline constexpr std::uint64_t app_clocks = 0x2;
inline constexpr std::uint64_t sw_power_cap = 0x4;
inline constexpr std::uint64_t hw_slowdown = 0x8;
inline constexpr std::uint64_t sync_boost = 0x10;
inline constexpr std::uint64_t sw_thermal = 0x20;
inline constexpr std::uint64_t hw_thermal = 0x40;
inline constexpr std::uint64_t hw_power_brake = 0x80;
inline constexpr std::uint64_t display_clocks = 0x100;
}  // namespace clock_limit

// "power cap, thermal (software)" for the bits set; "none" for 0. Unknown bits print as hex.
std::string clock_limit_names(std::uint64_t reasons);

struct GpuSample {
  double sm_mhz = 0;
  double power_w = 0;         // NaN where the board does not report power
  std::uint64_t reasons = 0;  // clock_limit bits
};

struct GpuActivity {
  int samples = 0;  // 0: nothing sampled (monitor unavailable, or the series was too short)
  double sm_mhz_mean = 0, sm_mhz_min = 0, sm_mhz_max = 0;
  double power_w_mean = 0;       // NaN if no sample had a power reading
  std::uint64_t reasons_any = 0;  // OR over the samples
};

// Mean / min / max over the samples (a pure function, tested on the CPU).
GpuActivity summarize_samples(const std::vector<GpuSample>& samples);

class GpuMonitor {
 public:
  // For the CUDA device `cuda_device` (matched to NVML's by PCI bus id).
  explicit GpuMonitor(int cuda_device);
  ~GpuMonitor();
  GpuMonitor(const GpuMonitor&) = delete;
  GpuMonitor& operator=(const GpuMonitor&) = delete;

  bool available() const { return nvml_ != nullptr; }
  // Why not, e.g. "libnvidia-ml.so.1 not found (no NVIDIA driver)"; "" when available.
  const std::string& unavailable_reason() const { return reason_; }

  // Starts sampling (a no-op when unavailable); stop() ends it and summarises (at least one
  // sample when available). start() while running restarts the series.
  void start();
  GpuActivity stop();

 private:
  struct Nvml;
  void sample_loop();

  std::unique_ptr<Nvml> nvml_;
  std::string reason_;
  std::thread thread_;
  std::atomic<bool> running_{false};
  std::vector<GpuSample> samples_;  // written by the sampling thread until it is joined
};

}  // namespace bsrflow::bench
