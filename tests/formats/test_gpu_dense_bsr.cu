// DenseToBsr and bsr_to_dense on the GPU against the CPU oracle (host::dense_to_bsr,
// host::bsr_to_dense), bit for bit, in every value type, both layouts, leading dimensions above
// the minimum (the gaps hold NaN on input and must stay untouched on output), NaN and -0.0
// entries, hostile shapes; argument errors; numeric phases captured into a CUDA Graph and
// replayed with new values; determinism.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/formats/dense_bsr.hpp"
#include "bsrflow/formats/host_convert.hpp"
#include "formats/test_gpu_convert_support.hpp"
#include "support/expect_error.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;
using namespace bsrflow::test;

namespace {

template <class T>
struct NamedDense {
  std::string name;
  HostDense<T> dense;
};

constexpr int kDenseCases = 8;

// `layout`, leading dimension min + extra (extra = 0: the minimum).
template <class T>
NamedDense<T> dense_case(int which, Layout layout, int extra) {
  auto make = [&](int rows, int cols, std::uint32_t seed, double zeros) {
    const std::int64_t min_ld = layout == Layout::row_major ? cols : rows;
    return random_dense<T>(rows, cols, layout, seed, zeros, min_ld + extra);
  };
  switch (which) {
    case 0: return {"0x0", HostDense<T>(0, 0, layout)};
    case 1: return {"5x0", HostDense<T>(5, 0, layout)};
    case 2: return {"0x5", HostDense<T>(0, 5, layout)};
    case 3: return {"all zero", make(33, 47, 101, 1.0)};
    case 4: {
      NamedDense<T> d{"one non-zero", make(33, 47, 102, 1.0)};
      d.dense(20, 31) = from_double<T>(-2.0);
      return d;
    }
    case 5: return {"97% zeros", make(101, 77, 103, 0.97)};
    case 6: return {"no zeros", make(40, 52, 104, 0.0)};
    default: {
      // -0.0 alone does not store a block; NaN alone does (and is copied as it is).
      NamedDense<T> d{"only -0.0 and NaN", make(64, 64, 105, 1.0)};
      for (int i = 0; i < 8; ++i) d.dense(i, 3 * i) = from_double<T>(-0.0);
      d.dense(40, 9) = from_double<T>(std::nan(""));
      d.dense(63, 63) = from_double<T>(-0.0);
      return d;
    }
  }
}

template <class T>
DeviceBuffer<T> upload(const HostDense<T>& d, cudaStream_t stream) {
  return DeviceBuffer<T>::from_host(d.data, stream);
}

template <class T>
DenseView<const T> device_view(const HostDense<T>& d, const DeviceBuffer<T>& data) {
  return {data.data(), d.rows, d.cols, d.ld, d.layout};
}

template <class T>
HostBsr<T> gpu_dense_to_bsr(const HostDense<T>& host, int R, int C, Padding padding, cudaStream_t stream) {
  const DeviceBuffer<T> data = upload(host, stream);
  DenseToBsr<T> conversion(device_view(host, data), R, C, padding, stream);
  conversion.output().values().fill_bytes(0xFF, stream);
  conversion.numeric(data.data(), stream);
  return conversion.output().to_host(stream);
}

// bsr_to_dense into a poisoned buffer with leading dimension min + extra; checks the shape
// against the oracle and that the gaps between leading-dimension strides still hold the poison.
template <class T>
void check_bsr_to_dense(const HostBsr<T>& host, Layout layout, int extra, cudaStream_t stream) {
  const HostDense<T> expected = host::bsr_to_dense(host, layout);
  HostDense<T> out(host.rows, host.cols, layout, (layout == Layout::row_major ? host.cols : host.rows) + extra);
  DeviceBuffer<T> data(out.data.size(), stream);
  data.fill_bytes(0xFF, stream);
  const Bsr<T> bsr = Bsr<T>::from_host(host, stream);
  bsr_to_dense(bsr.view(), DenseView<T>{data.data(), out.rows, out.cols, out.ld, out.layout}, stream);
  out.data = data.to_host(stream);
  T poison;
  std::memset(&poison, 0xFF, sizeof(T));
  long wrong = 0, gap_written = 0;
  const std::int64_t outer = layout == Layout::row_major ? out.rows : out.cols;
  const std::int64_t inner = layout == Layout::row_major ? out.cols : out.rows;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t x = 0; x < out.ld; ++x) {
      const T got = out.data[static_cast<std::size_t>(o * out.ld + x)];
      if (x >= inner) {
        gap_written += std::memcmp(&got, &poison, sizeof(T)) != 0;
      } else {
        const std::int64_t i = layout == Layout::row_major ? o : x, j = layout == Layout::row_major ? x : o;
        const T want = expected(i, j);
        wrong += std::memcmp(&got, &want, sizeof(T)) != 0;
      }
    }
  CHECK(wrong == 0);
  CHECK(gap_written == 0);
}

}  // namespace

TEMPLATE_TEST_CASE("dense_to_bsr on the GPU matches the CPU oracle bit for bit", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  const int which = GENERATE(range(0, kDenseCases));
  const Layout layout = GENERATE(Layout::row_major, Layout::col_major);
  const int extra = GENERATE(0, 5);
  const auto shape = GENERATE(table<int, int>({{1, 1}, {3, 5}, {5, 3}, {16, 16}, {16, 64}, {64, 16}}));
  const int R = std::get<0>(shape), C = std::get<1>(shape);
  const NamedDense<T> c = dense_case<T>(which, layout, extra);
  INFO(c.name << " (" << c.dense.rows << "x" << c.dense.cols << ", "
                << (layout == Layout::row_major ? "row" : "column") << "-major, ld " << c.dense.ld << "), block " << R
                << "x" << C);
  Stream stream;
  check_same(gpu_dense_to_bsr(c.dense, R, C, Padding::zero_fill, stream),
             host::dense_to_bsr(c.dense, R, C, Padding::zero_fill));
}

TEMPLATE_TEST_CASE("bsr_to_dense on the GPU matches the CPU oracle and leaves the ld gaps alone", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  const int which = GENERATE(range(0, kBsrCases));
  const Layout layout = GENERATE(Layout::row_major, Layout::col_major);
  const int extra = GENERATE(0, 3);
  const auto shape = GENERATE(table<int, int>({{1, 1}, {3, 5}, {16, 16}, {16, 64}, {64, 16}}));
  const int R = std::get<0>(shape), C = std::get<1>(shape);
  const NamedBsr<T> c = bsr_case<T>(which, R, C);
  INFO(c.name << ", " << (layout == Layout::row_major ? "row" : "column") << "-major, ld + " << extra << ", block "
              << R << "x" << C);
  Stream stream;
  check_bsr_to_dense(c.bsr, layout, extra, stream);
}

TEST_CASE("dense_to_bsr and bsr_to_dense on the GPU reject bad arguments with a specific error", "[formats][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const HostDense<float> h = random_dense<float>(12, 20, Layout::row_major, 111, 0.5);
  const DeviceBuffer<float> data = upload(h, stream);
  const DenseView<const float> good = device_view(h, data);

  SECTION("dense_to_bsr: rows do not divide under reject") {
    BSRFLOW_CHECK_ERROR(DenseToBsr<float>(good, 5, 4, Padding::reject, stream), Errc::invalid_argument,
                        "rows (12) is not a multiple of the block height R (5); pass Padding::zero_fill to pad");
  }
  SECTION("dense_to_bsr: divisible under reject") {
    check_same(gpu_dense_to_bsr(h, 4, 5, Padding::reject, stream), host::dense_to_bsr(h, 4, 5, Padding::reject));
  }
  SECTION("dense_to_bsr: non-positive block") {
    BSRFLOW_CHECK_ERROR(DenseToBsr<float>(good, 3, 0, Padding::zero_fill, stream), Errc::invalid_argument,
                        "block shape 3x0 must be positive");
  }
  SECTION("dense_to_bsr: negative shape") {
    DenseView<const float> v = good;
    v.rows = -3;
    BSRFLOW_CHECK_ERROR(DenseToBsr<float>(v, 2, 2, Padding::zero_fill, stream), Errc::invalid_argument,
                        "dense_to_bsr: dense matrix shape -3x20 is negative");
  }
  SECTION("dense_to_bsr: leading dimension too small") {
    DenseView<const float> v = good;
    v.ld = 19;
    BSRFLOW_CHECK_ERROR(DenseToBsr<float>(v, 2, 2, Padding::zero_fill, stream), Errc::invalid_argument,
                        "dense_to_bsr: dense leading dimension 19 is below 20 for a row-major 12x20 matrix");
  }
  SECTION("dense_to_bsr: null data") {
    DenseView<const float> v = good;
    v.data = nullptr;
    BSRFLOW_CHECK_ERROR(DenseToBsr<float>(v, 2, 2, Padding::zero_fill, stream), Errc::invalid_argument,
                        "dense_to_bsr: dense data is null");
  }
  SECTION("dense_to_bsr: host data") {
    if (gpu_reads_pageable_memory()) {
      WARN("this GPU reads pageable host memory: host pointers are legal here, check not run");
      return;
    }
    DenseView<const float> v = good;
    v.data = h.data.data();
    BSRFLOW_CHECK_ERROR(DenseToBsr<float>(v, 2, 2, Padding::zero_fill, stream), Errc::invalid_argument,
                        "dense_to_bsr: dense data points to host memory the GPU cannot access");
  }
  SECTION("dense_to_bsr numeric: null input") {
    const DenseToBsr<float> conversion(good, 2, 2, Padding::zero_fill, stream);
    REQUIRE(conversion.output().nnzb() > 0);
    DeviceBuffer<float> out(static_cast<std::size_t>(conversion.output().nnzb() * 4), stream);
    BSRFLOW_CHECK_ERROR(conversion.numeric(nullptr, out.data(), stream), Errc::invalid_argument,
                        "DenseToBsr::numeric: dense_data is null");
  }

  const HostBsr<float> hb = random_bsr<float>(12, 20, 4, 5, 0.5, 112);
  const Bsr<float> bsr = Bsr<float>::from_host(hb, stream);
  DeviceBuffer<float> out(12 * 20, stream);
  const DenseView<float> out_view{out.data(), 12, 20, 20, Layout::row_major};
  SECTION("bsr_to_dense: shapes differ") {
    DenseView<float> v = out_view;
    v.cols = 19;
    v.ld = 19;
    BSRFLOW_CHECK_ERROR(bsr_to_dense(bsr.view(), v, stream), Errc::invalid_argument,
                        "bsr_to_dense: the output is 12x19 but the BSR matrix is 12x20");
  }
  SECTION("bsr_to_dense: leading dimension too small") {
    DenseView<float> v = out_view;
    v.layout = Layout::col_major;
    v.ld = 11;
    BSRFLOW_CHECK_ERROR(bsr_to_dense(bsr.view(), v, stream), Errc::invalid_argument,
                        "bsr_to_dense: dense leading dimension 11 is below 12 for a column-major 12x20 matrix");
  }
  SECTION("bsr_to_dense: null output") {
    DenseView<float> v = out_view;
    v.data = nullptr;
    BSRFLOW_CHECK_ERROR(bsr_to_dense(bsr.view(), v, stream), Errc::invalid_argument, "bsr_to_dense: dense data is null");
  }
  SECTION("bsr_to_dense: null values") {
    BsrView<const float> v = bsr.view();
    v.values = nullptr;
    BSRFLOW_CHECK_ERROR(bsr_to_dense(v, out_view, stream), Errc::invalid_argument,
                        "bsr_to_dense: bsr.row_ptr, bsr.col_idx or bsr.values is null but nnzb is " +
                            std::to_string(hb.nnzb()));
  }
}

TEMPLATE_TEST_CASE("dense_to_bsr and bsr_to_dense numeric phases replay from a CUDA Graph", "[formats][gpu]",
                   BSRFLOW_TEST_VALUE_TYPES) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;

  SECTION("dense_to_bsr: new values in the stored blocks, pattern kept") {
    HostDense<T> h = random_dense<T>(70, 90, Layout::col_major, 121, 0.95, 75);
    DeviceBuffer<T> data = upload(h, stream);
    DenseToBsr<T> conversion(device_view(h, data), 8, 16, Padding::zero_fill, stream);
    const HostBsr<T> pattern = host::dense_to_bsr(h, 8, 16, Padding::zero_fill);
    const CapturedGraph graph(stream, [&](cudaStream_t s) { conversion.numeric(data.data(), s); });
    CHECK(graph.foreign_nodes().empty());
    for (int replay = 0; replay < 3; ++replay) {
      // New non-zero values inside the stored blocks only, so the oracle keeps the pattern.
      HostBsr<T> expected = pattern;
      refill_blocks(expected, 500 + replay);
      for (int br = 0; br < expected.block_rows(); ++br)
        for (int k = expected.row_ptr[br]; k < expected.row_ptr[br + 1]; ++k)
          for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 16; ++j) {
              const int r = br * 8 + i, col = expected.col_idx[k] * 16 + j;
              if (r < h.rows && col < h.cols) h(r, col) = expected.at(k, i, j);
            }
      data.copy_from_host(h.data, stream);
      conversion.output().values().fill_bytes(0xFF, stream);
      graph.launch(stream);
      check_same(conversion.output().to_host(stream), host::dense_to_bsr(h, 8, 16, Padding::zero_fill));
    }
    conversion.output().values().fill_bytes(0xFF, stream);
    conversion.numeric(data.data(), stream);
    const std::vector<T> first = conversion.output().values().to_host(stream);
    conversion.output().values().fill_bytes(0xFF, stream);
    conversion.numeric(data.data(), stream);
    const std::vector<T> second = conversion.output().values().to_host(stream);
    BSRFLOW_CHECK_SAME_BITS(second, first);
  }
  SECTION("bsr_to_dense: new values, output poisoned before each replay") {
    HostBsr<T> h = random_bsr<T>(70, 90, 16, 8, 0.4, 122);
    Bsr<T> bsr = Bsr<T>::from_host(h, stream);
    DeviceBuffer<T> out(static_cast<std::size_t>(70 * 90), stream);
    const DenseView<T> view{out.data(), 70, 90, 70, Layout::col_major};
    const CapturedGraph graph(stream, [&](cudaStream_t s) { bsr_to_dense(std::as_const(bsr).view(), view, s); });
    CHECK(graph.foreign_nodes().empty());
    for (int replay = 0; replay < 3; ++replay) {
      refill_blocks(h, 600 + replay);
      bsr.values().copy_from_host(h.values, stream);
      out.fill_bytes(0xFF, stream);
      graph.launch(stream);
      const std::vector<T> got = out.to_host(stream);
      const std::vector<T> expected = host::bsr_to_dense(h, Layout::col_major).data;
      BSRFLOW_CHECK_SAME_BITS(got, expected);
    }
  }
}
