// The CPU reference GEMM (host::gemm, host::gemm_f64, host::relative_error) on hand-computed
// cases: block layout, partial edge blocks, empty block rows, alpha / beta, beta == 0 with NaN
// in C, both layouts with padded leading dimensions, single rounding, and its input checks.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/cpu_gemm.hpp"
#include "support/expect_error.hpp"

using namespace bsrflow;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Dense matrix from row-major nested values; entries outside the shape (ld padding) are NaN.
template <class T>
HostDense<T> dense(const std::vector<std::vector<double>>& rows, Layout layout = Layout::row_major,
                   std::int64_t ld = 0) {
  const int m = static_cast<int>(rows.size());
  const int n = m == 0 ? 0 : static_cast<int>(rows[0].size());
  HostDense<T> d(m, n, layout, ld);
  for (auto& v : d.data) v = from_double<T>(kNaN);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) d(i, j) = from_double<T>(rows[i][j]);
  return d;
}

template <class T>
HostDense<T> nan_filled(int rows, int cols, Layout layout = Layout::row_major, std::int64_t ld = 0) {
  HostDense<T> d(rows, cols, layout, ld);
  for (auto& v : d.data) v = from_double<T>(kNaN);
  return d;
}

template <class T>
std::vector<std::vector<double>> values_of(const HostDense<T>& d) {
  std::vector<std::vector<double>> out(static_cast<std::size_t>(d.rows), std::vector<double>(d.cols));
  for (int i = 0; i < d.rows; ++i)
    for (int j = 0; j < d.cols; ++j) out[i][j] = to_double(d(i, j));
  return out;
}

// 4 x 6 in 2 x 3 blocks; block row 0 stores block columns 0 and 1, block row 1 stores 1:
//    1  2  3 | -1  0  2
//    4  5  6 |  1  1  1
//    0  0  0 |  2 -2  1
//    0  0  0 |  0  3 -1
template <class T>
HostBsr<T> a_4x6() {
  HostBsr<T> a;
  a.rows = 4;
  a.cols = 6;
  a.R = 2;
  a.C = 3;
  a.row_ptr = {0, 2, 3};
  a.col_idx = {0, 1, 1};
  for (double v : {1, 2, 3, 4, 5, 6, -1, 0, 2, 1, 1, 1, 2, -2, 1, 0, 3, -1}) a.values.push_back(from_double<T>(v));
  return a;
}
const std::vector<std::vector<double>> kB6x2 = {{1, 2}, {0, 1}, {-1, 1}, {2, 0}, {1, -1}, {3, 2}};
const std::vector<std::vector<double>> kAB = {{2, 11}, {4, 20}, {5, 4}, {0, -5}};  // a_4x6 * kB6x2

}  // namespace

TEMPLATE_TEST_CASE("host::gemm computes A * B block by block", "[ops]", __half, __nv_bfloat16, float, double) {
  using T = TestType;
  const HostBsr<T> a = a_4x6<T>();
  const HostDense<T> b = dense<T>(kB6x2);
  SECTION("alpha = 1, beta = 0: C's NaN is not read") {
    HostDense<T> c = nan_filled<T>(4, 2);
    host::gemm(a, b, c, 1.0, 0.0);
    CHECK(values_of(c) == kAB);
  }
  SECTION("alpha = 2, beta = -1") {
    HostDense<T> c = dense<T>({{1, 1}, {2, 2}, {3, 3}, {4, 4}});
    host::gemm(a, b, c, 2.0, -1.0);
    CHECK(values_of(c) == std::vector<std::vector<double>>{{3, 21}, {6, 38}, {7, 5}, {-4, -14}});
  }
  SECTION("column-major B and C with padded leading dimensions; C's padding untouched") {
    const HostDense<T> b_cm = dense<T>(kB6x2, Layout::col_major, 8);
    HostDense<T> c = nan_filled<T>(4, 2, Layout::col_major, 5);
    host::gemm(a, b_cm, c, 1.0, 0.0);
    CHECK(values_of(c) == kAB);
    CHECK(std::isnan(to_double(c.data[4])));  // (row 4 of column 0) = padding
    CHECK(std::isnan(to_double(c.data[9])));
  }
  SECTION("empty block row: C = beta * C, or 0 when beta == 0") {
    HostBsr<T> a1 = a;
    a1.row_ptr = {0, 0, 1};  // only block (1, 1) is stored
    a1.col_idx = {1};
    a1.values.erase(a1.values.begin(), a1.values.begin() + 12);
    HostDense<T> c = dense<T>({{1, -1}, {2, 3}, {1, 1}, {1, 1}});
    host::gemm(a1, b, c, 1.0, -2.0);
    CHECK(values_of(c) == std::vector<std::vector<double>>{{-2, 2}, {-4, -6}, {3, 2}, {-2, -7}});
    HostDense<T> c0 = nan_filled<T>(4, 2);
    host::gemm(a1, b, c0, 1.0, 0.0);
    CHECK(values_of(c0) == std::vector<std::vector<double>>{{0, 0}, {0, 0}, {5, 4}, {0, -5}});
  }
}

TEST_CASE("host::gemm with partial edge blocks reads only inside the shape", "[ops]") {
  // 3 x 5 in 2 x 3 blocks: block row 1 and block column 1 are partial.
  //    1 -1  2 | 0  0
  //    3  0  1 | 0  0
  //    --------+------
  //    0  0  0 | 2  4
  HostBsr<float> a;
  a.rows = 3;
  a.cols = 5;
  a.R = 2;
  a.C = 3;
  a.row_ptr = {0, 1, 2};
  a.col_idx = {0, 1};
  a.values = {1, -1, 2, 3, 0, 1,   // block (0, 0)
              2, 4, 0, 0, 0, 0};   // block (1, 1): column 5 and row 3 are zero padding
  const HostDense<float> b = dense<float>({{1}, {2}, {3}, {-1}, {1}});  // exactly K = 5 rows
  HostDense<float> c = nan_filled<float>(3, 1);
  host::gemm(a, b, c, 1.0, 0.0);
  CHECK(values_of(c) == std::vector<std::vector<double>>{{5}, {6}, {2}});
}

TEST_CASE("host::gemm rounds once from the fp64 result", "[ops]") {
  SECTION("f32: 1 + 2^-30 - 1 is 2^-30 (an f32 running sum would give 0)") {
    HostBsr<float> a;
    a.rows = 1;
    a.cols = 3;
    a.R = 1;
    a.C = 3;
    a.row_ptr = {0, 1};
    a.col_idx = {0};
    a.values = {1.f, std::ldexp(1.f, -30), -1.f};
    HostDense<float> c = nan_filled<float>(1, 1);
    host::gemm(a, dense<float>({{1}, {1}, {1}}), c, 1.0, 0.0);
    CHECK(c(0, 0) == std::ldexp(1.f, -30));
  }
  SECTION("f16: 1 + 2^-11 + 2^-40 rounds up to 1 + 2^-10 (through f32 it would tie to 1)") {
    HostBsr<__half> a;
    a.rows = 1;
    a.cols = 3;
    a.R = 1;
    a.C = 3;
    a.row_ptr = {0, 1};
    a.col_idx = {0};
    a.values = {from_double<__half>(1), from_double<__half>(std::ldexp(1.0, -11)), from_double<__half>(std::ldexp(1.0, -20))};
    HostDense<__half> c = nan_filled<__half>(1, 1);
    host::gemm(a, dense<__half>({{1}, {1}, {std::ldexp(1.0, -20)}}), c, 1.0, 0.0);
    CHECK(to_double(c(0, 0)) == 1.0 + std::ldexp(1.0, -10));
  }
  SECTION("f16 output ties round to even: 2049 -> 2048, 2051 -> 2052; f32 output keeps them") {
    HostBsr<__half> a;
    a.rows = 1;
    a.cols = 2;
    a.R = 1;
    a.C = 1;
    a.row_ptr = {0, 2};
    a.col_idx = {0, 1};
    a.values = {from_double<__half>(32), from_double<__half>(1)};
    const HostDense<__half> b = dense<__half>({{64, 64}, {1, 3}});
    HostDense<__half> c16 = nan_filled<__half>(1, 2);
    host::gemm(a, b, c16, 1.0, 0.0);
    CHECK(values_of(c16) == std::vector<std::vector<double>>{{2048, 2052}});
    HostDense<float> c32 = nan_filled<float>(1, 2);
    host::gemm(a, b, c32, 1.0, 0.0);
    CHECK(values_of(c32) == std::vector<std::vector<double>>{{2049, 2051}});
  }
}

TEST_CASE("host::gemm_f64 returns the unrounded result, row-major", "[ops]") {
  const HostBsr<__half> a = a_4x6<__half>();
  const HostDense<__half> b = dense<__half>(kB6x2, Layout::col_major, 7);
  const HostDense<float> c = dense<float>({{0.5, 1}, {2, 2}, {3, 3}, {4, 4}}, Layout::col_major, 6);
  const HostDense<double> r = host::gemm_f64(a, b, c, 0.5, 0.25);
  CHECK(r.layout == Layout::row_major);
  CHECK(values_of(r) == std::vector<std::vector<double>>{{1.125, 5.75}, {2.5, 10.5}, {3.25, 2.75}, {1, -1.5}});
  const HostDense<float> c_nan = nan_filled<float>(4, 2);
  CHECK(values_of(host::gemm_f64(a, b, c_nan, 1.0, 0.0)) == kAB);
}

TEST_CASE("host::relative_error is the relative Frobenius norm of the difference", "[ops]") {
  const HostDense<double> ref = dense<double>({{3, 4}});
  CHECK(host::relative_error(dense<float>({{3, 4}}), ref) == 0.0);
  CHECK(host::relative_error(dense<float>({{3, 5}}), ref) == Approx(0.2));
  CHECK(host::relative_error(dense<__half>({{3, 4}}, Layout::col_major, 3), ref) == 0.0);
  CHECK(host::relative_error(dense<float>({{0, 1}}), dense<double>({{0, 0}})) == 1.0);  // zero reference: absolute
  CHECK(std::isnan(host::relative_error(dense<float>({{kNaN, 4}}), ref)));
  BSRFLOW_CHECK_ERROR(host::relative_error(dense<float>({{3, 4}, {1, 1}}), ref), Errc::invalid_argument,
                      "relative_error: output is 2 x 2 but the reference is 1 x 2");
}

TEST_CASE("host::gemm checks its inputs", "[ops]") {
  const HostBsr<float> a = a_4x6<float>();
  const HostDense<float> b = dense<float>(kB6x2);
  HostDense<float> c = nan_filled<float>(4, 2);
  SECTION("shapes (check_gemm_operands)") {
    BSRFLOW_CHECK_ERROR(host::gemm(a, dense<float>({{1, 2}, {0, 1}, {-1, 1}, {2, 0}, {1, -1}}), c, 1.0, 0.0),
                        Errc::invalid_argument, "B has 5 rows, expected A.cols = 6");
    HostDense<float> c_wide = nan_filled<float>(4, 3);
    BSRFLOW_CHECK_ERROR(host::gemm(a, b, c_wide, 1.0, 0.0), Errc::invalid_argument,
                        "C is 4 x 3, expected A.rows x B.cols = 4 x 2");
  }
  SECTION("B holds fewer elements than its shape and ld address") {
    HostDense<float> b_short = b;
    b_short.data.resize(10);
    BSRFLOW_CHECK_ERROR(host::gemm(a, b_short, c, 1.0, 0.0), Errc::invalid_argument,
                        "B holds 10 elements, a row-major 6 x 2 matrix with ld 2 needs 12");
  }
  SECTION("C holds fewer elements than its shape and ld address") {
    HostDense<float> c_short = nan_filled<float>(4, 2, Layout::col_major, 5);
    c_short.data.resize(8);  // column 1 ends at 1 * 5 + 4 = 9
    BSRFLOW_CHECK_ERROR(host::gemm(a, b, c_short, 1.0, 0.0), Errc::invalid_argument,
                        "C holds 8 elements, a column-major 4 x 2 matrix with ld 5 needs 9");
  }
  SECTION("a block column out of range is a structure error") {
    HostBsr<float> bad = a;
    bad.col_idx[2] = 7;
    CHECK_THROWS_WITH(host::gemm(bad, b, c, 1.0, 0.0), Catch::Contains("block column 7 out of range"));
    try {
      host::gemm(bad, b, c, 1.0, 0.0);
      FAIL_CHECK("no exception");
    } catch (const Error& e) {
      CHECK(e.code() == Errc::invalid_structure);
    }
  }
  SECTION("values shorter than nnzb * R * C is a structure error") {
    HostBsr<float> bad = a;
    bad.values.resize(11);
    CHECK_THROWS_WITH(host::gemm(bad, b, c, 1.0, 0.0), Catch::Contains("values has 11 entries"));
    try {
      host::gemm(bad, b, c, 1.0, 0.0);
      FAIL_CHECK("no exception");
    } catch (const Error& e) {
      CHECK(e.code() == Errc::invalid_structure);
    }
  }
}
