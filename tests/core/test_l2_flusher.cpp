#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/l2_flusher.hpp"
#include "bsrflow/core/stream.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;

// The flush drops its scratch's lines from L2 without writing them back: it must never take other
// data with them. Data written just before the flush (still dirty in L2) and allocations made right
// before and after the scratch keep their values; the scratch is not a multiple of 128 bytes.
TEST_CASE("L2Flusher discards only its own scratch: data written just before a flush survives it", "[core][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  std::vector<std::int32_t> host(std::size_t{1} << 18);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<std::int32_t>(7 * i + 3);
  auto before = DeviceBuffer<std::int32_t>::from_host(host, stream);
  L2Flusher flusher((std::size_t{1} << 20) + 100, stream);
  CHECK(flusher.bytes() == (std::size_t{2} << 20) + 200);
  auto after = DeviceBuffer<std::int32_t>::from_host(host, stream);
  DeviceBuffer<std::int32_t> written(host.size(), stream);
  for (int round = 0; round < 3; ++round) {
    written.fill_bytes(0x40 + round, stream);  // a device write: dirty lines in L2 when the flush starts
    flusher.flush(stream);
    const std::vector<std::int32_t> back = written.to_host(stream);
    const std::int32_t expect = 0x01010101 * (0x40 + round);
    std::size_t wrong = 0;
    for (const std::int32_t v : back) wrong += v != expect;
    CHECK(wrong == 0);
  }
  CHECK(before.to_host(stream) == host);
  CHECK(after.to_host(stream) == host);
}
