#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/stream.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;

TEST_CASE("An empty DeviceBuffer holds nothing and moves without CUDA calls", "[core]") {
  DeviceBuffer<float> a;
  CHECK(a.empty());
  CHECK(a.data() == nullptr);
  DeviceBuffer<float> b(0, nullptr);  // zero-sized: no allocation
  CHECK(b.empty());
  DeviceBuffer<float> c(std::move(b));
  CHECK(c.size() == 0);
  CHECK(c.to_host(nullptr).empty());
}

TEST_CASE("gpu_count never throws", "[core]") {
  const int n = gpu_count();
  CHECK(n >= 0);
}

TEST_CASE("DeviceBuffer round-trips data on a stream and poisons with fill_bytes", "[core][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  std::vector<std::int32_t> host(1000);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<std::int32_t>(3 * i + 1);
  auto buffer = DeviceBuffer<std::int32_t>::from_host(host, stream);
  CHECK(buffer.size() == host.size());
  CHECK(buffer.bytes() == host.size() * sizeof(std::int32_t));
  CHECK(buffer.to_host(stream) == host);

  DeviceBuffer<std::int32_t> moved = std::move(buffer);
  CHECK(buffer.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  CHECK(moved.to_host(stream) == host);

  moved.fill_bytes(0xFF, stream);
  for (std::int32_t v : moved.to_host(stream)) REQUIRE(v == -1);
}

TEST_CASE("copy_from_host rejects a size mismatch", "[core][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  DeviceBuffer<float> buffer(4, stream);
  std::vector<float> three(3, 1.f);
  try {
    buffer.copy_from_host(three, stream);
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::invalid_argument);
    CHECK(e.message() == "copy_from_host: 3 elements into a buffer of 4");
  }
}

TEST_CASE("device_info reports the GPU's resources", "[core][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  const DeviceInfo info = device_info();
  INFO(info.name);
  CHECK(!info.name.empty());
  CHECK(info.sm_count > 0);
  CHECK(info.l2_bytes > 0);
  CHECK(info.smem_per_block_optin >= 48 * 1024);
  CHECK(info.compute_capability() >= 50);
  INFO("memory bandwidth " << info.memory_bandwidth << " B/s");
  CHECK(info.memory_bandwidth > 1e11);  // every CUDA GPU's memory is faster than 100 GB/s
  CHECK(info.memory_bandwidth < 2e13);
  // The two-items-per-stage rule (tuning_sm90.hpp kTwoItemsMinBandwidth) reads the H100 SXM as
  // 3.35 TB/s and the H200 as 4.8 TB/s.
  if (info.name.find("H100 80GB HBM3") != std::string::npos) CHECK(info.memory_bandwidth == Approx(3.35e12).epsilon(0.02));
  if (info.name.find("H200") != std::string::npos) CHECK(info.memory_bandwidth == Approx(4.8e12).epsilon(0.03));
  try {
    (void)device_info(1 << 20);
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::invalid_argument);
    CHECK(e.message().find("device 1048576 does not exist") != std::string::npos);
  }
}

TEST_CASE("Events time work on a stream", "[core][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  Event start, end;
  DeviceBuffer<char> buffer(1 << 24, stream);
  start.record(stream);
  buffer.fill_bytes(1, stream);
  end.record(stream);
  CHECK(Event::elapsed_ms(start, end) >= 0.f);
}
