// GpuMonitor on the CPU: the clock-limit names, the summary of samples, and a monitor that
// cannot reach NVML (no driver) saying why and sampling nothing. The sampling itself is tested
// on a GPU (test_apps_gpu.cpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "bsrflow/apps/common/gpu_monitor.hpp"
#include "bsrflow/core/device_info.hpp"

using namespace bsrflow::bench;

TEST_CASE("clock_limit_names: NVML's clock-event reasons in words", "[apps]") {
  CHECK(clock_limit_names(0) == "none");
  CHECK(clock_limit_names(clock_limit::sw_power_cap) == "power cap");
  CHECK(clock_limit_names(clock_limit::sw_power_cap | clock_limit::sw_thermal) == "power cap, thermal (software)");
  CHECK(clock_limit_names(clock_limit::idle | clock_limit::hw_power_brake) == "idle, power brake");
  CHECK(clock_limit_names(0x1000) == "0x1000");  // a bit this build does not know
  CHECK(clock_limit_names(clock_limit::hw_thermal | 0x3000) == "thermal (hardware), 0x3000");
}

TEST_CASE("summarize_samples: mean, min and max clock, mean power over the samples that have one", "[apps]") {
  const GpuActivity none = summarize_samples({});
  CHECK(none.samples == 0);
  CHECK(std::isnan(none.power_w_mean));
  CHECK(none.reasons_any == 0);

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<GpuSample> samples = {{1500, 600, clock_limit::sw_power_cap},
                                          {1700, nan, 0},
                                          {1600, 500, clock_limit::sw_thermal}};
  const GpuActivity a = summarize_samples(samples);
  CHECK(a.samples == 3);
  CHECK(a.sm_mhz_mean == Approx(1600));
  CHECK(a.sm_mhz_min == 1500);
  CHECK(a.sm_mhz_max == 1700);
  CHECK(a.power_w_mean == Approx(550));  // the sample without a reading is left out
  CHECK(a.reasons_any == (clock_limit::sw_power_cap | clock_limit::sw_thermal));

  const GpuActivity unpowered = summarize_samples({{1400, nan, 0}});
  CHECK(unpowered.samples == 1);
  CHECK(std::isnan(unpowered.power_w_mean));
}

TEST_CASE("GpuMonitor without NVML says why and samples nothing", "[apps]") {
  if (bsrflow::gpu_count() > 0) {
    WARN("SKIPPED: this machine has a GPU (and NVML); test_apps_gpu.cpp tests the sampling");
    return;
  }
  GpuMonitor monitor(0);
  CHECK_FALSE(monitor.available());
  CHECK_FALSE(monitor.unavailable_reason().empty());
  monitor.start();  // no-ops
  const GpuActivity a = monitor.stop();
  CHECK(a.samples == 0);
}
