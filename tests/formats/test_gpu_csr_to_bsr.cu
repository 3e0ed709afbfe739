// CsrToBsr on the GPU against the CPU oracle (host::csr_to_bsr), bit for bit, in every value
// type, over hostile patterns and block shapes that reach every merge variant (rows per lane
// 1, 2, 4, 8 and the shared-memory cursors for R > 256); argument and structure errors; the
// numeric phase captured into a CUDA Graph and replayed with new values; determinism; output
// pointers at every alignment. Every numeric variant (CsrToBsrNumeric) runs each check. Plus a
// CPU check of the fast division every conversion kernel relies on.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/formats/csr_to_bsr.hpp"
#include "bsrflow/formats/detail_fastdiv.cuh"
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
struct NamedCsr {
  std::string name;
  HostCsr<T> csr;
};

constexpr int kCsrCases = 11;

// Every numeric kernel; each must give the oracle's bits.
const auto& kNumericVariants = kCsrToBsrNumericVariants;
#define BSRFLOW_EVERY_NUMERIC_VARIANT()                                                                  \
  GENERATE(from_range(std::vector<CsrToBsrNumeric>(std::begin(kCsrToBsrNumericVariants),               \
                                                   std::end(kCsrToBsrNumericVariants))))

template <class T>
NamedCsr<T> csr_case(int which) {
  switch (which) {
    case 0: return {"0x0", HostCsr<T>{0, 0, {0}, {}, {}}};
    case 1: return {"5x0", HostCsr<T>{5, 0, {0, 0, 0, 0, 0, 0}, {}, {}}};
    case 2: return {"0x7", HostCsr<T>{0, 7, {0}, {}, {}}};
    case 3: return {"every third row empty", random_csr<T>(97, 83, 0.1, 31, 3)};
    case 4: return {"no entries", random_csr<T>(40, 40, 0.0, 32)};
    case 5: {
      HostCsr<T> one{64, 64, std::vector<int>(65, 0), {50}, {from_double<T>(-3.0)}};
      for (int r = 38; r <= 64; ++r) one.row_ptr[r] = 1;  // the entry is (37, 50)
      return {"one entry", one};
    }
    case 6: return {"fully dense", random_csr<T>(48, 70, 1.0, 33)};
    case 7: return {"random 5%", random_csr<T>(203, 301, 0.05, 34)};
    case 8: return {"power-law rows", powerlaw_csr<T>(300, 500, 6000, 1.1, 35)};
    case 9: return {"three long rows", random_csr<T>(3, 2000, 0.5, 36)};
    // A block row longer than a tile (64 KiB of work) and than the staged kernel's stage at every
    // block shape from 16 rows up.
    default: return {"block rows longer than a tile", random_csr<T>(70, 2500, 0.3, 37)};
  }
}

template <class T>
HostBsr<T> gpu_csr_to_bsr(const HostCsr<T>& host, int R, int C, Padding padding, cudaStream_t stream,
                          CsrToBsrNumeric variant = CsrToBsrNumeric::scatter) {
  const Csr<T> csr = Csr<T>::from_host(host, stream);
  CsrToBsr<T> conversion(csr.view(), R, C, padding, stream);
  conversion.output().values().fill_bytes(0xFF, stream);  // NaN: an unwritten value cannot pass
  conversion.numeric(csr.values().data(), stream, variant);
  return conversion.output().to_host(stream);
}

}  // namespace

TEMPLATE_TEST_CASE("csr_to_bsr on the GPU matches the CPU oracle bit for bit", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  const int which = GENERATE(range(0, kCsrCases));
  // Shapes: square, non-square both ways, R > 32 with 2, 4 and 8 rows per lane, R > 256.
  const auto shape = GENERATE(table<int, int>({{1, 1}, {3, 3}, {3, 5}, {5, 3}, {16, 16}, {16, 64}, {64, 16},
                                               {1, 32}, {40, 7}, {100, 3}, {200, 2}, {300, 1}}));
  const int R = std::get<0>(shape), C = std::get<1>(shape);
  const CsrToBsrNumeric variant = BSRFLOW_EVERY_NUMERIC_VARIANT();
  const NamedCsr<T> c = csr_case<T>(which);
  INFO(c.name << " (" << c.csr.rows << "x" << c.csr.cols << ", nnz " << c.csr.nnz() << "), block " << R << "x" << C
              << ", numeric " << numeric_variant_name(variant));
  Stream stream;
  check_same(gpu_csr_to_bsr(c.csr, R, C, Padding::zero_fill, stream, variant),
             host::csr_to_bsr(c.csr, R, C, Padding::zero_fill));
}

TEMPLATE_TEST_CASE("csr_to_bsr numeric writes an output at any alignment and nothing outside it", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  const CsrToBsrNumeric variant = BSRFLOW_EVERY_NUMERIC_VARIANT();
  const auto shape = GENERATE(table<int, int>({{3, 3}, {5, 3}, {16, 16}, {64, 16}}));
  const int R = std::get<0>(shape), C = std::get<1>(shape);
  const NamedCsr<T> c = csr_case<T>(10);
  const HostBsr<T> expected = host::csr_to_bsr(c.csr, R, C, Padding::zero_fill);
  Stream stream;
  const Csr<T> csr = Csr<T>::from_host(c.csr, stream);
  const CsrToBsr<T> conversion(csr.view(), R, C, Padding::zero_fill, stream);
  const std::size_t count = expected.values.size();
  constexpr std::size_t kGuard = 16;  // values on each side, more than a 16-byte vector
  for (std::size_t offset = 0; offset < 16 / sizeof(T); ++offset) {
    INFO("block " << R << "x" << C << ", numeric " << numeric_variant_name(variant) << ", output at element "
                  << offset << " past a 256-byte boundary");
    DeviceBuffer<T> out(count + 2 * kGuard + offset, stream);
    out.fill_bytes(0xFF, stream);
    conversion.numeric(csr.values().data(), out.data() + kGuard + offset, stream, variant);
    const std::vector<T> all = out.to_host(stream);
    const std::vector<T> got(all.begin() + static_cast<long>(kGuard + offset),
                             all.begin() + static_cast<long>(kGuard + offset + count));
    BSRFLOW_CHECK_SAME_BITS(got, expected.values);
    long touched = 0;
    const auto* bytes = reinterpret_cast<const unsigned char*>(all.data());
    for (std::size_t i = 0; i < all.size() * sizeof(T); ++i)
      if ((i < (kGuard + offset) * sizeof(T) || i >= (kGuard + offset + count) * sizeof(T)) && bytes[i] != 0xFF)
        ++touched;
    CHECK(touched == 0);
  }
}

TEST_CASE("csr_to_bsr numeric refuses an unknown variant", "[formats][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const HostCsr<float> h = random_csr<float>(10, 12, 0.3, 8);
  const Csr<float> csr = Csr<float>::from_host(h, stream);
  CsrToBsr<float> conversion(csr.view(), 2, 3, Padding::zero_fill, stream);
  BSRFLOW_CHECK_ERROR(conversion.numeric(csr.values().data(), stream, static_cast<CsrToBsrNumeric>(7)),
                      Errc::invalid_argument, "CsrToBsr::numeric: unknown variant 7");
}

TEST_CASE("csr_to_bsr on the GPU: shapes that divide pass under Padding::reject, others are refused",
          "[formats][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const HostCsr<float> h = random_csr<float>(12, 20, 0.3, 7);
  SECTION("divisible") {
    check_same(gpu_csr_to_bsr(h, 4, 5, Padding::reject, stream), host::csr_to_bsr(h, 4, 5, Padding::reject));
  }
  const Csr<float> csr = Csr<float>::from_host(h, stream);
  SECTION("rows do not divide") {
    BSRFLOW_CHECK_ERROR(CsrToBsr<float>(csr.view(), 5, 5, Padding::reject, stream), Errc::invalid_argument,
                        "rows (12) is not a multiple of the block height R (5); pass Padding::zero_fill to pad");
  }
  SECTION("columns do not divide") {
    BSRFLOW_CHECK_ERROR(CsrToBsr<float>(csr.view(), 4, 6, Padding::reject, stream), Errc::invalid_argument,
                        "cols (20) is not a multiple of the block width C (6); pass Padding::zero_fill to pad");
  }
}

TEST_CASE("csr_to_bsr on the GPU rejects bad arguments with a specific error", "[formats][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const HostCsr<float> h = random_csr<float>(10, 12, 0.3, 8);
  const Csr<float> csr = Csr<float>::from_host(h, stream);
  const CsrView<const float> good = csr.view();
  const std::string nnz = std::to_string(h.nnz());
  REQUIRE(h.nnz() > 0);

  SECTION("non-positive block") {
    BSRFLOW_CHECK_ERROR(CsrToBsr<float>(good, 0, 3, Padding::zero_fill, stream), Errc::invalid_argument,
                        "block shape 0x3 must be positive");
  }
  SECTION("negative shape") {
    CsrView<const float> v = good;
    v.rows = -1;
    BSRFLOW_CHECK_ERROR(CsrToBsr<float>(v, 2, 3, Padding::zero_fill, stream), Errc::invalid_argument,
                        "matrix shape -1x12 is negative");
  }
  SECTION("negative nnz") {
    CsrView<const float> v = good;
    v.nnz = -1;
    BSRFLOW_CHECK_ERROR(CsrToBsr<float>(v, 2, 3, Padding::zero_fill, stream), Errc::invalid_argument,
                        "csr_to_bsr: nnz (-1) must be in [0, 2^31)");
  }
  SECTION("entries without rows") {
    CsrView<const float> v = good;
    v.rows = 0;
    BSRFLOW_CHECK_ERROR(CsrToBsr<float>(v, 2, 3, Padding::zero_fill, stream), Errc::invalid_argument,
                        "csr_to_bsr: a CSR matrix with 0 rows has nnz = " + nnz);
  }
  SECTION("null row_ptr") {
    CsrView<const float> v = good;
    v.row_ptr = nullptr;
    BSRFLOW_CHECK_ERROR(CsrToBsr<float>(v, 2, 3, Padding::zero_fill, stream), Errc::invalid_argument,
                        "csr_to_bsr: csr.row_ptr is null");
  }
  SECTION("null col_idx") {
    CsrView<const float> v = good;
    v.col_idx = nullptr;
    BSRFLOW_CHECK_ERROR(CsrToBsr<float>(v, 2, 3, Padding::zero_fill, stream), Errc::invalid_argument,
                        "csr_to_bsr: csr.col_idx is null but nnz is " + nnz);
  }
  SECTION("host col_idx") {
    if (gpu_reads_pageable_memory()) {
      WARN("this GPU reads pageable host memory: host pointers are legal here, check not run");
      return;
    }
    CsrView<const float> v = good;
    v.col_idx = h.col_idx.data();
    BSRFLOW_CHECK_ERROR(CsrToBsr<float>(v, 2, 3, Padding::zero_fill, stream), Errc::invalid_argument,
                        "csr_to_bsr: csr.col_idx points to host memory the GPU cannot access");
  }
  SECTION("block height beyond the merge's limit") {
    BSRFLOW_CHECK_ERROR(CsrToBsr<float>(good, 5000, 1, Padding::zero_fill, stream), Errc::unsupported,
                        "csr_to_bsr: block height R (5000) exceeds 4096, the largest supported");
  }
  SECTION("numeric: null input values") {
    const CsrToBsr<float> conversion(good, 2, 3, Padding::zero_fill, stream);
    DeviceBuffer<float> out(static_cast<std::size_t>(conversion.output().nnzb() * 6), stream);
    BSRFLOW_CHECK_ERROR(conversion.numeric(nullptr, out.data(), stream), Errc::invalid_argument,
                        "CsrToBsr::numeric: csr_values is null but the pattern has " + nnz + " entries");
  }
  SECTION("numeric: output values moved out") {
    CsrToBsr<float> conversion(good, 2, 3, Padding::zero_fill, stream);
    const std::int64_t values = conversion.output().nnzb() * 6;
    DeviceBuffer<float> taken = std::move(conversion.output().values());
    BSRFLOW_CHECK_ERROR(conversion.numeric(csr.values().data(), stream), Errc::invalid_argument,
                        "CsrToBsr::numeric: bsr_values is null but the output has " + std::to_string(values) +
                            " values (were output().values() moved out?)");
  }
}

TEST_CASE("csr_to_bsr on the GPU reports a broken CSR pattern with validate()'s message", "[formats][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  int tested = 0;
  for (const Invalid<HostCsr<float>>& c : invalid_csrs()) {
    const HostCsr<float>& m = c.matrix;
    // Only what a view can express: lengths are implied by rows and nnz.
    if (m.rows < 0 || m.cols < 0 || m.row_ptr.size() != static_cast<std::size_t>(m.rows) + 1 ||
        m.values.size() != m.col_idx.size())
      continue;
    INFO(c.name);
    const auto row_ptr = DeviceBuffer<int>::from_host(m.row_ptr, stream);
    const auto col_idx = DeviceBuffer<int>::from_host(m.col_idx, stream);
    const CsrView<const float> view{m.rows, m.cols, m.nnz(), row_ptr.data(), col_idx.data(), nullptr};
    BSRFLOW_CHECK_ERROR(CsrToBsr<float>(view, 2, 3, Padding::zero_fill, stream), Errc::invalid_structure, c.message);
    ++tested;
  }
  CHECK(tested >= 10);
}

TEMPLATE_TEST_CASE("csr_to_bsr numeric phase replays from a CUDA Graph and is deterministic", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  // Generated at the top (not inside a SECTION): each section runs once per variant.
  const CsrToBsrNumeric variant = BSRFLOW_EVERY_NUMERIC_VARIANT();
  Stream stream;
  HostCsr<T> h = powerlaw_csr<T>(500, 400, 8000, 1.0, 41);
  Csr<T> csr = Csr<T>::from_host(h, stream);
  CsrToBsr<T> conversion(std::as_const(csr).view(), 16, 8, Padding::zero_fill, stream);
  // The conversion may not point into its input: free the CSR structure now.
  free_now(csr.row_ptr(), stream);
  free_now(csr.col_idx(), stream);
  DeviceBuffer<T>& in = csr.values();

  SECTION("captured and replayed with new values") {
    INFO("numeric " << numeric_variant_name(variant));
    const CapturedGraph graph(stream, [&](cudaStream_t s) { conversion.numeric(in.data(), s, variant); });
    CHECK(graph.foreign_nodes().empty());
    for (int replay = 0; replay < 3; ++replay) {
      h.values = fresh_values<T>(h.values.size(), 100 + replay);
      in.copy_from_host(h.values, stream);
      conversion.output().values().fill_bytes(0xFF, stream);
      graph.launch(stream);
      check_same(conversion.output().to_host(stream), host::csr_to_bsr(h, 16, 8, Padding::zero_fill));
    }
  }
  SECTION("two runs give the same bits, and every variant the same as the default") {
    conversion.output().values().fill_bytes(0xFF, stream);
    conversion.numeric(in.data(), stream);
    const std::vector<T> first = conversion.output().values().to_host(stream);
    for (const CsrToBsrNumeric other : kNumericVariants) {
      INFO("numeric " << numeric_variant_name(other) << " (generated: " << numeric_variant_name(variant) << ")");
      conversion.output().values().fill_bytes(0xFF, stream);
      conversion.numeric(in.data(), stream, other);
      const std::vector<T> second = conversion.output().values().to_host(stream);
      BSRFLOW_CHECK_SAME_BITS(second, first);
    }
  }
}

TEST_CASE("FastDiv divides like / and % for block-shape divisors and the whole int32 range", "[formats]") {
  std::vector<std::uint32_t> divisors;
  for (std::uint32_t d = 1; d <= 300; ++d) divisors.push_back(d);
  for (std::uint32_t d : {511u, 512u, 513u, 1000u, 4095u, 4096u, 65535u, 65536u, 1u << 20, (1u << 30) + 7u,
                          (1u << 31) - 1u})
    divisors.push_back(d);
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> any(0, 2147483647);
  long wrong = 0;
  for (const std::uint32_t d : divisors) {
    const detail::FastDiv f(d);
    std::vector<int> ns = {0, 1, 2147483647, 2147483646};
    for (int i = 0; i < 200; ++i) ns.push_back(any(rng));
    for (std::int64_t m : {std::int64_t{1}, std::int64_t{2}, std::int64_t{1000}, 2147483647 / static_cast<std::int64_t>(d)})
      for (std::int64_t delta = -1; delta <= 1; ++delta) {
        const std::int64_t n = m * d + delta;  // around multiples of d
        if (n >= 0 && n <= 2147483647) ns.push_back(static_cast<int>(n));
      }
    for (const int n : ns) {
      const int q = f.div(n);
      if (q != static_cast<int>(static_cast<std::uint32_t>(n) / d) || f.mod(n, q) != static_cast<int>(n % d)) {
        if (++wrong <= 5) FAIL_CHECK(n << " / " << d << ": got " << q);
      }
    }
  }
  CHECK(wrong == 0);
}
