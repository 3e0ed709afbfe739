// BsrToCsr on the GPU against the CPU oracle (host::bsr_to_csr), bit for bit, in every value
// type, over hostile BSR patterns and block shapes (partial edge blocks: padding dropped);
// argument and structure errors; the numeric phase captured into a CUDA Graph and replayed with
// new values; determinism.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "bsrflow/formats/bsr_to_csr.hpp"
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
HostCsr<T> gpu_bsr_to_csr(const HostBsr<T>& host, cudaStream_t stream) {
  const Bsr<T> bsr = Bsr<T>::from_host(host, stream);
  BsrToCsr<T> conversion(bsr.view(), stream);
  conversion.output().values().fill_bytes(0xFF, stream);
  conversion.numeric(bsr.values().data(), stream);
  return conversion.output().to_host(stream);
}

}  // namespace

TEMPLATE_TEST_CASE("bsr_to_csr on the GPU matches the CPU oracle bit for bit", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  const int which = GENERATE(range(0, kBsrCases));
  const auto shape = GENERATE(table<int, int>({{1, 1}, {3, 3}, {3, 5}, {5, 3}, {16, 16}, {16, 64}, {64, 16}}));
  const int R = std::get<0>(shape), C = std::get<1>(shape);
  const NamedBsr<T> c = bsr_case<T>(which, R, C);
  INFO(c.name << " (" << c.bsr.rows << "x" << c.bsr.cols << ", nnzb " << c.bsr.nnzb() << "), block " << R << "x" << C);
  Stream stream;
  check_same(gpu_bsr_to_csr(c.bsr, stream), host::bsr_to_csr(c.bsr));
}

TEST_CASE("bsr_to_csr on the GPU rejects bad arguments with a specific error", "[formats][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const HostBsr<float> h = random_bsr<float>(20, 30, 4, 5, 0.4, 81);
  REQUIRE(h.nnzb() > 0);
  const Bsr<float> bsr = Bsr<float>::from_host(h, stream);
  const BsrView<const float> good = bsr.view();
  const std::string nnzb = std::to_string(h.nnzb());

  SECTION("non-positive block") {
    BsrView<const float> v = good;
    v.C = 0;
    BSRFLOW_CHECK_ERROR(BsrToCsr<float>(v, stream), Errc::invalid_argument, "block shape 4x0 must be positive");
  }
  SECTION("negative shape") {
    BsrView<const float> v = good;
    v.rows = -20;
    BSRFLOW_CHECK_ERROR(BsrToCsr<float>(v, stream), Errc::invalid_argument, "matrix shape -20x30 is negative");
  }
  SECTION("negative nnzb") {
    BsrView<const float> v = good;
    v.nnzb = -1;
    BSRFLOW_CHECK_ERROR(BsrToCsr<float>(v, stream), Errc::invalid_argument, "bsr_to_csr: nnzb (-1) must be in [0, 2^31)");
  }
  SECTION("blocks without block rows") {
    BsrView<const float> v = good;
    v.rows = 0;
    BSRFLOW_CHECK_ERROR(BsrToCsr<float>(v, stream), Errc::invalid_argument,
                        "bsr_to_csr: a BSR matrix with 0 block rows has nnzb = " + nnzb);
  }
  SECTION("null row_ptr") {
    BsrView<const float> v = good;
    v.row_ptr = nullptr;
    BSRFLOW_CHECK_ERROR(BsrToCsr<float>(v, stream), Errc::invalid_argument, "bsr_to_csr: bsr.row_ptr is null");
  }
  SECTION("null col_idx") {
    BsrView<const float> v = good;
    v.col_idx = nullptr;
    BSRFLOW_CHECK_ERROR(BsrToCsr<float>(v, stream), Errc::invalid_argument,
                        "bsr_to_csr: bsr.col_idx is null but nnzb is " + nnzb);
  }
  SECTION("host row_ptr") {
    if (gpu_reads_pageable_memory()) {
      WARN("this GPU reads pageable host memory: host pointers are legal here, check not run");
      return;
    }
    BsrView<const float> v = good;
    v.row_ptr = h.row_ptr.data();
    BSRFLOW_CHECK_ERROR(BsrToCsr<float>(v, stream), Errc::invalid_argument,
                        "bsr_to_csr: bsr.row_ptr points to host memory the GPU cannot access");
  }
  SECTION("numeric: null input values") {
    const BsrToCsr<float> conversion(good, stream);
    DeviceBuffer<float> out(static_cast<std::size_t>(conversion.output().nnz()), stream);
    BSRFLOW_CHECK_ERROR(conversion.numeric(nullptr, out.data(), stream), Errc::invalid_argument,
                        "BsrToCsr::numeric: bsr_values is null but the pattern has " + nnzb + " blocks");
  }
  SECTION("numeric: output values moved out") {
    BsrToCsr<float> conversion(good, stream);
    const std::int64_t entries = conversion.output().nnz();
    DeviceBuffer<float> taken = std::move(conversion.output().values());
    BSRFLOW_CHECK_ERROR(conversion.numeric(bsr.values().data(), stream), Errc::invalid_argument,
                        "BsrToCsr::numeric: csr_values is null but the output has " + std::to_string(entries) +
                            " entries (were output().values() moved out?)");
  }
}

TEST_CASE("bsr_to_csr on the GPU reports a broken BSR pattern with validate()'s message", "[formats][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  int tested = 0;
  for (const Invalid<HostBsr<float>>& c : invalid_bsrs()) {
    if (!pattern_only_broken(c)) continue;
    INFO(c.name);
    const Bsr<float> bsr = Bsr<float>::from_host(c.matrix, stream);
    BSRFLOW_CHECK_ERROR(BsrToCsr<float>(bsr.view(), stream), Errc::invalid_structure, c.message);
    ++tested;
  }
  CHECK(tested >= 6);
}

TEMPLATE_TEST_CASE("bsr_to_csr numeric phase replays from a CUDA Graph and is deterministic", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  HostBsr<T> h = random_bsr<T>(203, 150, 16, 12, 0.3, 82);
  Bsr<T> bsr = Bsr<T>::from_host(h, stream);
  BsrToCsr<T> conversion(std::as_const(bsr).view(), stream);
  free_now(bsr.row_ptr(), stream);
  free_now(bsr.col_idx(), stream);

  check_numeric_replays(
      conversion, bsr.values(), h.values, [&](int replay) { refill_blocks(h, 300 + replay); },
      [&] { return host::bsr_to_csr(h); }, stream);
}
