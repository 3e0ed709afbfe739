// CooToCsr on the GPU against the CPU oracle (host::coo_to_csr), bit for bit, in every value
// type: duplicates summed in order of appearance (real values, where the order changes the
// bits), -0.0 kept, keys wider than 32 bits; argument and structure errors; the numeric phase
// captured into a CUDA Graph and replayed with new values; determinism.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/formats/coo_to_csr.hpp"
#include "bsrflow/formats/host_convert.hpp"
#include "formats/invalid_structures.hpp"
#include "formats/test_gpu_convert_support.hpp"
#include "support/expect_error.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;
using namespace bsrflow::test;

namespace {

template <class T>
struct NamedCoo {
  std::string name;
  HostCoo<T> coo;
};

template <class T>
HostCoo<T> with_real_values(HostCoo<T> coo, std::uint32_t seed) {
  std::mt19937 rng(seed);
  for (auto& v : coo.values) v = real_value<T>(rng);
  return coo;
}

constexpr int kCooCases = 9;

template <class T>
NamedCoo<T> coo_case(int which) {
  switch (which) {
    case 0: return {"0x0", HostCoo<T>{0, 0, {}, {}, {}}};
    case 1: return {"5x0", HostCoo<T>{5, 0, {}, {}, {}}};
    case 2: return {"one entry", HostCoo<T>{9, 7, {4}, {6}, {from_double<T>(3.0)}}};
    case 3: return {"random, 30% duplicates", random_coo<T>(120, 90, 2000, 0.3, 51)};
    case 4: return {"few cells, 90% duplicates", random_coo<T>(4, 3, 500, 0.9, 52)};
    case 5: return {"mostly empty rows", random_coo<T>(500, 10, 50, 0.1, 53)};
    case 6: return {"real values, 50% duplicates", with_real_values(random_coo<T>(60, 50, 3000, 0.5, 54), 55)};
    case 7: return {"keys beyond 32 bits", random_coo<T>(100000, 100000, 500, 0.2, 56)};
    default: return {"no duplicates", random_coo<T>(300, 300, 1000, 0.0, 57)};
  }
}

template <class T>
HostCsr<T> gpu_coo_to_csr(const HostCoo<T>& host, cudaStream_t stream) {
  const Coo<T> coo = Coo<T>::from_host(host, stream);
  CooToCsr<T> conversion(coo.view(), stream);
  conversion.output().values().fill_bytes(0xFF, stream);
  conversion.numeric(coo.values().data(), stream);
  return conversion.output().to_host(stream);
}

}  // namespace

TEMPLATE_TEST_CASE("coo_to_csr on the GPU matches the CPU oracle bit for bit", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  const NamedCoo<T> c = coo_case<T>(GENERATE(range(0, kCooCases)));
  INFO(c.name << " (" << c.coo.rows << "x" << c.coo.cols << ", nnz " << c.coo.nnz() << ")");
  Stream stream;
  check_same(gpu_coo_to_csr(c.coo, stream), host::coo_to_csr(c.coo));
}

TEMPLATE_TEST_CASE("coo_to_csr on the GPU sums duplicates in order of appearance", "[formats][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  // (0, 0) appears as 1e8, -1e8, 1: left to right that is 0 + 1 = 1 in f32 and f64; starting
  // with the 1 (1 + 1e8 rounds to 1e8 in f32) would give 0.
  const HostCoo<T> coo{2, 2, {0, 1, 0, 0}, {0, 1, 0, 0}, {T(1e8), T(5), T(-1e8), T(1)}};
  const HostCsr<T> got = gpu_coo_to_csr(coo, stream);
  CHECK(got.row_ptr == std::vector<int>{0, 1, 2});
  CHECK(got.col_idx == std::vector<int>{0, 1});
  CHECK(got.values == std::vector<T>{T(1), T(5)});
  check_same(got, host::coo_to_csr(coo));
}

TEMPLATE_TEST_CASE("coo_to_csr on the GPU keeps a lone -0.0 and explicit zeros", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const HostCoo<T> coo{3, 3, {2, 0}, {1, 2}, {from_double<T>(-0.0), from_double<T>(0.0)}};
  const HostCsr<T> got = gpu_coo_to_csr(coo, stream);
  REQUIRE(got.values.size() == 2);
  CHECK(std::signbit(to_double(got.values[1])));  // (2, 1) = -0.0 comes second
  CHECK(!std::signbit(to_double(got.values[0])));
  check_same(got, host::coo_to_csr(coo));
}

TEST_CASE("coo_to_csr on the GPU rejects bad arguments with a specific error", "[formats][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const HostCoo<float> h = random_coo<float>(10, 12, 40, 0.2, 58);
  const Coo<float> coo = Coo<float>::from_host(h, stream);
  const CooView<const float> good = coo.view();

  SECTION("negative shape") {
    CooView<const float> v = good;
    v.cols = -4;
    BSRFLOW_CHECK_ERROR(CooToCsr<float>(v, stream), Errc::invalid_argument, "coo_to_csr: matrix shape 10x-4 is negative");
  }
  SECTION("negative nnz") {
    CooView<const float> v = good;
    v.nnz = -2;
    BSRFLOW_CHECK_ERROR(CooToCsr<float>(v, stream), Errc::invalid_argument, "coo_to_csr: nnz (-2) must be in [0, 2^31)");
  }
  SECTION("null indices") {
    CooView<const float> v = good;
    v.row_idx = nullptr;
    BSRFLOW_CHECK_ERROR(CooToCsr<float>(v, stream), Errc::invalid_argument,
                        "coo_to_csr: coo.row_idx or coo.col_idx is null but nnz is 40");
  }
  SECTION("host row_idx") {
    if (gpu_reads_pageable_memory()) {
      WARN("this GPU reads pageable host memory: host pointers are legal here, check not run");
      return;
    }
    CooView<const float> v = good;
    v.row_idx = h.row_idx.data();
    BSRFLOW_CHECK_ERROR(CooToCsr<float>(v, stream), Errc::invalid_argument,
                        "coo_to_csr: coo.row_idx points to host memory the GPU cannot access");
  }
  SECTION("numeric: null input values") {
    const CooToCsr<float> conversion(good, stream);
    DeviceBuffer<float> out(static_cast<std::size_t>(conversion.output().nnz()), stream);
    BSRFLOW_CHECK_ERROR(conversion.numeric(nullptr, out.data(), stream), Errc::invalid_argument,
                        "CooToCsr::numeric: coo_values is null but the pattern has 40 entries");
  }
  SECTION("numeric: output values moved out") {
    CooToCsr<float> conversion(good, stream);
    const std::int64_t entries = conversion.output().nnz();
    DeviceBuffer<float> taken = std::move(conversion.output().values());
    BSRFLOW_CHECK_ERROR(conversion.numeric(coo.values().data(), stream), Errc::invalid_argument,
                        "CooToCsr::numeric: csr_values is null but the output has " + std::to_string(entries) +
                            " entries (were output().values() moved out?)");
  }
}

TEST_CASE("coo_to_csr on the GPU reports an entry outside the shape with validate()'s message", "[formats][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  int tested = 0;
  for (const Invalid<HostCoo<float>>& c : invalid_coos()) {
    const HostCoo<float>& m = c.matrix;
    if (m.rows < 0 || m.cols < 0 || m.col_idx.size() != m.row_idx.size() || m.values.size() != m.row_idx.size())
      continue;
    INFO(c.name);
    const auto row_idx = DeviceBuffer<int>::from_host(m.row_idx, stream);
    const auto col_idx = DeviceBuffer<int>::from_host(m.col_idx, stream);
    const CooView<const float> view{m.rows, m.cols, m.nnz(), row_idx.data(), col_idx.data(), nullptr};
    BSRFLOW_CHECK_ERROR(CooToCsr<float>(view, stream), Errc::invalid_structure, c.message);
    ++tested;
  }
  CHECK(tested >= 4);
}

TEMPLATE_TEST_CASE("coo_to_csr numeric phase replays from a CUDA Graph and is deterministic", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  HostCoo<T> h = with_real_values(random_coo<T>(200, 150, 4000, 0.4, 61), 62);
  Coo<T> coo = Coo<T>::from_host(h, stream);
  CooToCsr<T> conversion(std::as_const(coo).view(), stream);
  free_now(coo.row_idx(), stream);
  free_now(coo.col_idx(), stream);

  check_numeric_replays(
      conversion, coo.values(), h.values, [&](int replay) { h.values = fresh_values<T>(h.values.size(), 200 + replay); },
      [&] { return host::coo_to_csr(h); }, stream);
}
