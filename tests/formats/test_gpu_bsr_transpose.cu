// BsrTranspose on the GPU against the CPU oracle (host::bsr_transpose), bit for bit, in every
// value type, over hostile BSR patterns and block shapes; argument and structure errors; the
// numeric phase captured into a CUDA Graph and replayed with new values; determinism; and a
// double transpose giving back the input.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "bsrflow/formats/bsr_transpose.hpp"
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
HostBsr<T> gpu_transpose(const HostBsr<T>& host, cudaStream_t stream) {
  const Bsr<T> bsr = Bsr<T>::from_host(host, stream);
  BsrTranspose<T> transpose(bsr.view(), stream);
  transpose.output().values().fill_bytes(0xFF, stream);
  transpose.numeric(bsr.values().data(), stream);
  return transpose.output().to_host(stream);
}

}  // namespace

TEMPLATE_TEST_CASE("bsr_transpose on the GPU matches the CPU oracle bit for bit", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  const int which = GENERATE(range(0, kBsrCases));
  const auto shape = GENERATE(table<int, int>({{1, 1}, {3, 3}, {3, 5}, {5, 3}, {16, 16}, {16, 64}, {64, 16}}));
  const int R = std::get<0>(shape), C = std::get<1>(shape);
  const NamedBsr<T> c = bsr_case<T>(which, R, C);
  INFO(c.name << " (" << c.bsr.rows << "x" << c.bsr.cols << ", nnzb " << c.bsr.nnzb() << "), block " << R << "x" << C);
  Stream stream;
  const HostBsr<T> once = gpu_transpose(c.bsr, stream);
  check_same(once, host::bsr_transpose(c.bsr));
  check_same(gpu_transpose(once, stream), c.bsr);  // transposing twice is the identity
}

TEST_CASE("bsr_transpose on the GPU rejects bad arguments with a specific error", "[formats][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const HostBsr<float> h = random_bsr<float>(20, 30, 4, 5, 0.4, 91);
  REQUIRE(h.nnzb() > 0);
  const Bsr<float> bsr = Bsr<float>::from_host(h, stream);
  const BsrView<const float> good = bsr.view();
  const std::string nnzb = std::to_string(h.nnzb());

  SECTION("non-positive block") {
    BsrView<const float> v = good;
    v.R = -2;
    BSRFLOW_CHECK_ERROR(BsrTranspose<float>(v, stream), Errc::invalid_argument, "block shape -2x5 must be positive");
  }
  SECTION("negative nnzb") {
    BsrView<const float> v = good;
    v.nnzb = -5;
    BSRFLOW_CHECK_ERROR(BsrTranspose<float>(v, stream), Errc::invalid_argument,
                        "bsr_transpose: nnzb (-5) must be in [0, 2^31)");
  }
  SECTION("null col_idx") {
    BsrView<const float> v = good;
    v.col_idx = nullptr;
    BSRFLOW_CHECK_ERROR(BsrTranspose<float>(v, stream), Errc::invalid_argument,
                        "bsr_transpose: bsr.col_idx is null but nnzb is " + nnzb);
  }
  SECTION("host col_idx") {
    if (gpu_reads_pageable_memory()) {
      WARN("this GPU reads pageable host memory: host pointers are legal here, check not run");
      return;
    }
    BsrView<const float> v = good;
    v.col_idx = h.col_idx.data();
    BSRFLOW_CHECK_ERROR(BsrTranspose<float>(v, stream), Errc::invalid_argument,
                        "bsr_transpose: bsr.col_idx points to host memory the GPU cannot access");
  }
  SECTION("numeric: null input values") {
    const BsrTranspose<float> transpose(good, stream);
    DeviceBuffer<float> out(h.values.size(), stream);
    BSRFLOW_CHECK_ERROR(transpose.numeric(nullptr, out.data(), stream), Errc::invalid_argument,
                        "BsrTranspose::numeric: in_values is null but the pattern has " + nnzb + " blocks");
  }
  SECTION("numeric: output values moved out") {
    BsrTranspose<float> transpose(good, stream);
    DeviceBuffer<float> taken = std::move(transpose.output().values());
    BSRFLOW_CHECK_ERROR(transpose.numeric(bsr.values().data(), stream), Errc::invalid_argument,
                        "BsrTranspose::numeric: out_values is null but the output has " + nnzb +
                            " blocks (were output().values() moved out?)");
  }
}

TEST_CASE("bsr_transpose on the GPU reports a broken BSR pattern with validate()'s message", "[formats][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  int tested = 0;
  for (const Invalid<HostBsr<float>>& c : invalid_bsrs()) {
    if (!pattern_only_broken(c)) continue;
    INFO(c.name);
    const Bsr<float> bsr = Bsr<float>::from_host(c.matrix, stream);
    BSRFLOW_CHECK_ERROR(BsrTranspose<float>(bsr.view(), stream), Errc::invalid_structure, c.message);
    ++tested;
  }
  CHECK(tested >= 6);
}

TEMPLATE_TEST_CASE("bsr_transpose numeric phase replays from a CUDA Graph and is deterministic", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  HostBsr<T> h = random_bsr<T>(150, 203, 12, 16, 0.3, 92);
  Bsr<T> bsr = Bsr<T>::from_host(h, stream);
  BsrTranspose<T> transpose(std::as_const(bsr).view(), stream);
  free_now(bsr.row_ptr(), stream);
  free_now(bsr.col_idx(), stream);

  check_numeric_replays(
      transpose, bsr.values(), h.values, [&](int replay) { refill_blocks(h, 400 + replay); },
      [&] { return host::bsr_transpose(h); }, stream);
}
