#include "bsrflow/apps/common/gpu_monitor.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

namespace bsrflow::bench {

std::string clock_limit_names(std::uint64_t reasons) {
  if (reasons == 0) return "none";
  static const std::pair<std::uint64_t, const char*> kNames[] = {
      {clock_limit::idle, "idle"},
      {clock_limit::app_clocks, "application clocks"},
      {clock_limit::sw_power_cap, "power cap"},
      {clock_limit::hw_slowdown, "hardware slowdown"},
      {clock_limit::sync_boost, "sync boost"},
      {clock_limit::sw_thermal, "thermal (software)"},
      {clock_limit::hw_thermal, "thermal (hardware)"},
      {clock_limit::hw_power_brake, "power brake"},
      {clock_limit::display_clocks, "display clocks"},
  };
  std::string out;
  std::uint64_t known = 0;
  for (const auto& [bit, name] : kNames) {
    known |= bit;
    if ((reasons & bit) == 0) continue;
    if (!out.empty()) out += ", ";
    out += name;
  }
  if ((reasons & ~known) != 0) {
    std::ostringstream hex;
    hex << "0x" << std::hex << (reasons & ~known);
    if (!out.empty()) out += ", ";
    out += hex.str();
  }
  return out;
}

GpuActivity summarize_samples(const std::vector<GpuSample>& samples) {
  GpuActivity a;
  a.samples = static_cast<int>(samples.size());
  a.power_w_mean = std::numeric_limits<double>::quiet_NaN();
  if (samples.empty()) return a;
  double mhz = 0, watts = 0;
  int powered = 0;
  a.sm_mhz_min = samples.front().sm_mhz;
  a.sm_mhz_max = samples.front().sm_mhz;
  for (const GpuSample& s : samples) {
    mhz += s.sm_mhz;
    a.sm_mhz_min = std::min(a.sm_mhz_min, s.sm_mhz);
    a.sm_mhz_max = std::max(a.sm_mhz_max, s.sm_mhz);
    if (std::isfinite(s.power_w)) {
      watts += s.power_w;
      ++powered;
    }
    a.reasons_any |= s.reasons;
  }
  a.sm_mhz_mean = mhz / a.samples;
  if (powered > 0) a.power_w_mean = watts / powered;
  return a;
}

// The few NVML entry points used, looked up in the driver's library (signatures as in nvml.h;
// nvmlReturn_t is an int-sized enum, 0 = NVML_SUCCESS, nvmlDevice_t an opaque pointer).
struct GpuMonitor::Nvml {
  using Device = void*;
  void* lib = nullptr;
  int (*shutdown)() = nullptr;
  int (*clock_info)(Device, int, unsigned*) = nullptr;
  int (*power_usage)(Device, unsigned*) = nullptr;            // milliwatts
  int (*clock_reasons)(Device, unsigned long long*) = nullptr;  // may be absent
  Device device = nullptr;
  static constexpr int kClockSm = 1;  // NVML_CLOCK_SM

  ~Nvml() {
    if (shutdown != nullptr) shutdown();
    if (lib != nullptr) dlclose(lib);
  }
  template <class F>
  F symbol(const char* name) const {
    return reinterpret_cast<F>(dlsym(lib, name));
  }
};

GpuMonitor::GpuMonitor(int cuda_device) {
  auto nvml = std::make_unique<Nvml>();
  nvml->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (nvml->lib == nullptr) {
    reason_ = "libnvidia-ml.so.1 not found (no NVIDIA driver)";
    return;
  }
  const auto init = nvml->symbol<int (*)()>("nvmlInit_v2");
  const auto by_bus_id = nvml->symbol<int (*)(const char*, Nvml::Device*)>("nvmlDeviceGetHandleByPciBusId_v2");
  nvml->clock_info = nvml->symbol<int (*)(Nvml::Device, int, unsigned*)>("nvmlDeviceGetClockInfo");
  nvml->power_usage = nvml->symbol<int (*)(Nvml::Device, unsigned*)>("nvmlDeviceGetPowerUsage");
  nvml->clock_reasons = nvml->symbol<int (*)(Nvml::Device, unsigned long long*)>("nvmlDeviceGetCurrentClocksEventReasons");
  if (nvml->clock_reasons == nullptr)
    nvml->clock_reasons =
        nvml->symbol<int (*)(Nvml::Device, unsigned long long*)>("nvmlDeviceGetCurrentClocksThrottleReasons");
  if (init == nullptr || by_bus_id == nullptr || nvml->clock_info == nullptr) {
    reason_ = "libnvidia-ml.so.1 lacks nvmlInit_v2 / nvmlDeviceGetHandleByPciBusId_v2 / nvmlDeviceGetClockInfo";
    return;
  }
  if (const int rc = init(); rc != 0) {
    reason_ = "nvmlInit_v2 failed (NVML error " + std::to_string(rc) + ")";
    return;
  }
  nvml->shutdown = nvml->symbol<int (*)()>("nvmlShutdown");
  char bus_id[64] = {};
  if (cudaDeviceGetPCIBusId(bus_id, static_cast<int>(sizeof bus_id), cuda_device) != cudaSuccess) {
    (void)cudaGetLastError();
    reason_ = "cudaDeviceGetPCIBusId failed for CUDA device " + std::to_string(cuda_device);
    return;
  }
  if (const int rc = by_bus_id(bus_id, &nvml->device); rc != 0) {
    reason_ = "NVML has no device at PCI bus id " + std::string(bus_id) + " (NVML error " + std::to_string(rc) + ")";
    return;
  }
  nvml_ = std::move(nvml);
}

GpuMonitor::~GpuMonitor() {
  if (thread_.joinable()) {
    running_ = false;
    thread_.join();
  }
}

void GpuMonitor::start() {
  if (!available()) return;
  if (thread_.joinable()) {
    running_ = false;
    thread_.join();
  }
  samples_.clear();
  running_ = true;
  thread_ = std::thread([this] { sample_loop(); });
}

GpuActivity GpuMonitor::stop() {
  if (thread_.joinable()) {
    running_ = false;
    thread_.join();
  }
  return summarize_samples(samples_);
}

void GpuMonitor::sample_loop() {
  const Nvml& n = *nvml_;
  // At least one sample, however short the series: the first is taken at once.
  for (bool first = true; first || running_; first = false) {
    GpuSample s;
    unsigned mhz = 0, milliwatts = 0;
    unsigned long long reasons = 0;
    if (n.clock_info(n.device, Nvml::kClockSm, &mhz) == 0) {
      s.sm_mhz = mhz;
      s.power_w = n.power_usage != nullptr && n.power_usage(n.device, &milliwatts) == 0
                      ? milliwatts / 1000.0
                      : std::numeric_limits<double>::quiet_NaN();
      if (n.clock_reasons != nullptr && n.clock_reasons(n.device, &reasons) == 0) s.reasons = reasons;
      samples_.push_back(s);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace bsrflow::bench
