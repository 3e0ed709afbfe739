// The CPU oracle conversions: hand-checked small cases, then invariants (round trips) on
// hostile and random patterns for every value type.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bsrflow/formats/host_convert.hpp"
#include "support/expect_error.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;

namespace {

template <class T>
std::vector<T> vals(std::initializer_list<double> v) {
  std::vector<T> out;
  for (double x : v) out.push_back(from_double<T>(x));
  return out;
}

template <class T>
std::vector<double> as_doubles(const std::vector<T>& v) {
  std::vector<double> out;
  for (const T& x : v) out.push_back(to_double(x));
  return out;
}

// Row-major fp64 copy of a CSR (duplicates cannot occur in a valid CSR).
template <class T>
std::vector<double> dense_of(const HostCsr<T>& csr) {
  std::vector<double> d(static_cast<std::size_t>(csr.rows) * csr.cols, 0.0);
  for (int r = 0; r < csr.rows; ++r)
    for (int k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k)
      d[static_cast<std::size_t>(r) * csr.cols + csr.col_idx[k]] = to_double(csr.values[k]);
  return d;
}

// Checks that `bsr` holds exactly the blocks `csr`'s pattern touches, with csr's values and
// zeros elsewhere (padding included).
template <class T>
void check_bsr_matches_csr(const HostCsr<T>& csr, const HostBsr<T>& bsr) {
  REQUIRE(bsr.rows == csr.rows);
  REQUIRE(bsr.cols == csr.cols);
  REQUIRE(bsr.row_ptr.size() == static_cast<std::size_t>(bsr.block_rows()) + 1);
  REQUIRE(bsr.values.size() == bsr.col_idx.size() * static_cast<std::size_t>(bsr.R * bsr.C));
  std::map<std::pair<int, int>, bool> touched;
  for (int r = 0; r < csr.rows; ++r)
    for (int k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k) touched[{r / bsr.R, csr.col_idx[k] / bsr.C}] = true;
  std::size_t stored = 0;
  const std::vector<double> d = dense_of(csr);
  for (int br = 0; br < bsr.block_rows(); ++br) {
    for (int k = bsr.row_ptr[br]; k < bsr.row_ptr[br + 1]; ++k) {
      const int bc = bsr.col_idx[k];
      CHECK(touched.count({br, bc}) == 1);
      if (k > bsr.row_ptr[br]) CHECK(bc > bsr.col_idx[k - 1]);
      ++stored;
      for (int i = 0; i < bsr.R; ++i)
        for (int j = 0; j < bsr.C; ++j) {
          const int r = br * bsr.R + i, c = bc * bsr.C + j;
          const double expect = (r < csr.rows && c < csr.cols) ? d[static_cast<std::size_t>(r) * csr.cols + c] : 0.0;
          if (to_double(bsr.at(k, i, j)) != expect) FAIL_CHECK("block (" << br << ", " << bc << ") entry (" << i << ", " << j << ")");
        }
    }
  }
  CHECK(stored == touched.size());
}

}  // namespace

TEST_CASE("coo_to_csr sorts, sums duplicates in order of appearance and keeps explicit zeros", "[formats]") {
  HostCoo<float> coo;
  coo.rows = 4;
  coo.cols = 5;
  // Row 1 is empty; (2, 3) appears three times, interleaved with other entries; (3, 0) is an
  // explicit zero. In float, 1e8 + 1 == 1e8, so only the order of appearance gives exactly 0.
  coo.row_idx = {2, 0, 2, 3, 0, 2, 2};
  coo.col_idx = {3, 4, 3, 0, 1, 0, 3};
  coo.values = {1e8f, 5.f, 1.f, 0.f, -2.f, 7.f, -1e8f};
  const HostCsr<float> csr = host::coo_to_csr(coo);
  CHECK(csr.rows == 4);
  CHECK(csr.cols == 5);
  CHECK(csr.row_ptr == std::vector<int>{0, 2, 2, 4, 5});
  CHECK(csr.col_idx == std::vector<int>{1, 4, 0, 3, 0});
  CHECK(csr.values == std::vector<float>{-2.f, 5.f, 7.f, 0.f, 0.f});
}

TEST_CASE("coo_to_csr keeps the order of appearance among many interleaved duplicates", "[formats]") {
  // (0, 0) gets 1e8, then 98 ones, then -1e8; in float each +1 after 1e8 is lost, so only the
  // order of appearance sums to exactly 0 (any 1 moved after -1e8 would survive). Other entries
  // are interleaved so that an unstable sort would reorder the run.
  std::mt19937 rng(42);
  HostCoo<float> coo{8, 8, {}, {}, {}};
  std::vector<float> run{1e8f};
  run.insert(run.end(), 98, 1.f);
  run.push_back(-1e8f);
  for (float v : run) {
    for (int extra = static_cast<int>(rng() % 4); extra > 0; --extra) {
      coo.row_idx.push_back(static_cast<int>(rng() % 8));
      coo.col_idx.push_back(1 + static_cast<int>(rng() % 7));
      coo.values.push_back(1.f);
    }
    coo.row_idx.push_back(0);
    coo.col_idx.push_back(0);
    coo.values.push_back(v);
  }
  const HostCsr<float> csr = host::coo_to_csr(coo);
  REQUIRE(csr.col_idx.at(0) == 0);
  CHECK(csr.values.at(0) == 0.f);
}

TEST_CASE("coo_to_csr accumulates 16-bit duplicates in f32 and rounds once", "[formats]") {
  // In f16, 2048 + 1 rounds back to 2048 (spacing 2); in f32 2048 + 1 + 1 = 2050 is exact and
  // representable in f16.
  HostCoo<__half> coo;
  coo.rows = 1;
  coo.cols = 1;
  coo.row_idx = {0, 0, 0};
  coo.col_idx = {0, 0, 0};
  coo.values = vals<__half>({2048, 1, 1});
  const HostCsr<__half> csr = host::coo_to_csr(coo);
  REQUIRE(csr.values.size() == 1);
  CHECK(to_double(csr.values[0]) == 2050.0);
}

TEMPLATE_TEST_CASE("coo_to_csr equals a map-based sum on random COO with duplicates", "[formats]", __half,
                   __nv_bfloat16, float, double) {
  const auto [rows, cols, nnz] = GENERATE(std::tuple{0, 0, 0}, std::tuple{1, 1, 5}, std::tuple{7, 3, 40},
                                          std::tuple{50, 80, 600}, std::tuple{200, 10, 3000});
  const HostCoo<TestType> coo = test::random_coo<TestType>(rows, cols, nnz, 0.3, 17u + rows);
  std::map<std::pair<int, int>, double> expect;  // integer values: every sum is exact
  for (std::size_t e = 0; e < coo.row_idx.size(); ++e) expect[{coo.row_idx[e], coo.col_idx[e]}] += to_double(coo.values[e]);
  const HostCsr<TestType> csr = host::coo_to_csr(coo);
  REQUIRE(csr.row_ptr.size() == static_cast<std::size_t>(rows) + 1);
  REQUIRE(csr.col_idx.size() == expect.size());
  auto it = expect.begin();
  for (int r = 0; r < rows; ++r)
    for (int k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k, ++it) {
      CHECK(it->first == std::pair{r, csr.col_idx[k]});
      CHECK(to_double(csr.values[k]) == it->second);
    }
}

TEST_CASE("csr_to_bsr on a hand-checked 5x7 matrix with 2x3 blocks and zero_fill", "[formats]") {
  // . 1 . | . . . | 2
  // . . . | . . . | .
  // -----------------
  // 3 . . | . . 0 | .      (explicit zero at (2, 5): its block is stored)
  // . . . | . . . | .
  // -----------------
  // . . . | 4 . . | .      (row 4 is the partial edge block row)
  HostCsr<double> csr;
  csr.rows = 5;
  csr.cols = 7;
  csr.row_ptr = {0, 2, 2, 4, 4, 5};
  csr.col_idx = {1, 6, 0, 5, 3};
  csr.values = {1, 2, 3, 0, 4};
  const HostBsr<double> bsr = host::csr_to_bsr(csr, 2, 3, Padding::zero_fill);
  CHECK(bsr.R == 2);
  CHECK(bsr.C == 3);
  CHECK(bsr.block_rows() == 3);
  CHECK(bsr.block_cols() == 3);
  CHECK(bsr.row_ptr == std::vector<int>{0, 2, 4, 5});
  CHECK(bsr.col_idx == std::vector<int>{0, 2, 0, 1, 1});
  CHECK(bsr.values == std::vector<double>{
                          0, 1, 0, 0, 0, 0,  // block (0, 0)
                          2, 0, 0, 0, 0, 0,  // block (0, 2): columns 7, 8 are padding
                          3, 0, 0, 0, 0, 0,  // block (1, 0)
                          0, 0, 0, 0, 0, 0,  // block (1, 1): only the explicit zero
                          4, 0, 0, 0, 0, 0,  // block (2, 1): row 5 is padding
                      });
  BSRFLOW_CHECK_ERROR(host::csr_to_bsr(csr, 2, 3, Padding::reject), Errc::invalid_argument,
                      "rows (5) is not a multiple of the block height R (2); pass Padding::zero_fill to pad");
  BSRFLOW_CHECK_ERROR(host::csr_to_bsr(csr, 5, 3, Padding::reject), Errc::invalid_argument,
                      "cols (7) is not a multiple of the block width C (3); pass Padding::zero_fill to pad");
  BSRFLOW_CHECK_ERROR(host::csr_to_bsr(csr, 0, 3, Padding::zero_fill), Errc::invalid_argument,
                      "block shape 0x3 must be positive");
}

TEST_CASE("bsr_to_csr keeps stored zeros inside the matrix and drops padding", "[formats]") {
  // 3x3 matrix, 2x2 blocks: block (0, 0) full, block (1, 1) is the corner with one real entry.
  HostBsr<float> bsr;
  bsr.rows = 3;
  bsr.cols = 3;
  bsr.R = 2;
  bsr.C = 2;
  bsr.row_ptr = {0, 1, 2};
  bsr.col_idx = {0, 1};
  bsr.values = {1, 0, 3, 4,   // block (0, 0): a stored zero at (0, 1)
                5, 0, 0, 0};  // block (1, 1): (2, 2) = 5, the rest is padding
  const HostCsr<float> csr = host::bsr_to_csr(bsr);
  CHECK(csr.row_ptr == std::vector<int>{0, 2, 4, 5});
  CHECK(csr.col_idx == std::vector<int>{0, 1, 0, 1, 2});
  CHECK(csr.values == std::vector<float>{1, 0, 3, 4, 5});
}

TEST_CASE("dense_to_bsr stores a block for NaN but not for -0.0", "[formats]") {
  HostDense<float> dense(4, 4, Layout::col_major);
  for (auto& v : dense.data) v = 0.f;
  dense(0, 0) = -0.f;                                    // block (0, 0): only -0.0 -> not stored
  dense(1, 3) = std::numeric_limits<float>::quiet_NaN();  // block (0, 1): NaN -> stored
  dense(3, 2) = 6.f;                                     // block (1, 1)
  const HostBsr<float> bsr = host::dense_to_bsr(dense, 2, 2, Padding::reject);
  CHECK(bsr.row_ptr == std::vector<int>{0, 1, 2});
  CHECK(bsr.col_idx == std::vector<int>{1, 1});
  REQUIRE(bsr.values.size() == 8);
  CHECK(std::isnan(bsr.at(0, 1, 1)));
  CHECK(bsr.at(1, 1, 0) == 6.f);
  CHECK(bsr.at(0, 0, 0) == 0.f);
}

TEST_CASE("dense_to_bsr rejects a dense matrix whose storage is too small", "[formats]") {
  HostDense<double> dense(3, 4, Layout::row_major);
  dense.data.resize(11);
  BSRFLOW_CHECK_ERROR(host::dense_to_bsr(dense, 1, 1, Padding::reject), Errc::invalid_argument,
                      "dense data has 11 elements, a 3x4 matrix with leading dimension 4 needs 12");
  dense.data.resize(12);
  dense.ld = 3;
  BSRFLOW_CHECK_ERROR(host::dense_to_bsr(dense, 1, 1, Padding::reject), Errc::invalid_argument,
                      "dense leading dimension 3 is below 4 for a row-major 3x4 matrix");
}

TEST_CASE("bsr_to_dense writes stored blocks in both layouts, zeros elsewhere", "[formats]") {
  HostBsr<double> bsr;
  bsr.rows = 3;
  bsr.cols = 5;
  bsr.R = 3;
  bsr.C = 2;
  bsr.row_ptr = {0, 1};
  bsr.col_idx = {2};  // the partial block: column 5 is padding
  bsr.values = {1, 9, 2, 9, 3, 9};
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    const HostDense<double> dense = host::bsr_to_dense(bsr, layout);
    CHECK(dense.layout == layout);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) CHECK(dense(i, j) == (j == 4 ? i + 1.0 : 0.0));
  }
}

TEST_CASE("bsr_transpose transposes blocks and sorts the new block rows", "[formats]") {
  // 4x6 matrix, 2x3 blocks: block row 0 holds block column 1 (A), block row 1 holds block
  // columns 0 (B) and 1 (C). Transposed (6x4, 3x2 blocks): block row 0 = {B^T at 1},
  // block row 1 = {A^T at 0, C^T at 1}.
  HostBsr<double> bsr;
  bsr.rows = 4;
  bsr.cols = 6;
  bsr.R = 2;
  bsr.C = 3;
  bsr.row_ptr = {0, 1, 3};
  bsr.col_idx = {1, 0, 1};
  bsr.values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
  const HostBsr<double> t = host::bsr_transpose(bsr);
  CHECK(t.rows == 6);
  CHECK(t.cols == 4);
  CHECK(t.R == 3);
  CHECK(t.C == 2);
  CHECK(t.row_ptr == std::vector<int>{0, 1, 3});
  CHECK(t.col_idx == std::vector<int>{1, 0, 1});
  CHECK(t.values == std::vector<double>{7, 10, 8, 11, 9, 12,     // B^T
                                        1, 4, 2, 5, 3, 6,        // A^T
                                        13, 16, 14, 17, 15, 18});  // C^T
}

namespace {

struct Case {
  const char* name;
  int rows, cols, R, C;
};

// Hostile shapes: empty, one entry, full, non-square and non-dividing blocks, power law.
template <class T>
HostCsr<T> make_pattern(const Case& c, std::uint32_t seed) {
  const std::string name = c.name;
  if (name == "empty rows") return test::random_csr<T>(c.rows, c.cols, 0.2, seed, 3);
  if (name == "one entry") {
    std::mt19937 rng(seed);
    std::vector<std::vector<int>> row_cols(static_cast<std::size_t>(c.rows));
    row_cols[c.rows - 1].push_back(c.cols - 1);
    return test::csr_from_rows<T>(c.rows, c.cols, row_cols, rng);
  }
  if (name == "full") return test::random_csr<T>(c.rows, c.cols, 1.0, seed);
  if (name == "power law") return test::powerlaw_csr<T>(c.rows, c.cols, 4 * c.rows, 1.2, seed);
  return test::random_csr<T>(c.rows, c.cols, 0.05, seed);
}

const Case kCases[] = {
    {"empty 0x0", 0, 0, 4, 4},      {"random", 0, 9, 2, 3},          {"random", 9, 0, 2, 3},
    {"empty rows", 24, 24, 4, 4},   {"one entry", 37, 41, 16, 64},   {"full", 15, 20, 3, 5},
    {"full", 16, 16, 16, 16},       {"random", 64, 256, 16, 64},     {"random", 100, 130, 16, 64},
    {"random", 31, 29, 3, 5},       {"power law", 300, 200, 8, 8},   {"power law", 257, 259, 32, 32},
    {"random", 40, 40, 1, 1},       {"random", 10, 10, 64, 64},
};

}  // namespace

TEMPLATE_TEST_CASE("host conversions round-trip on hostile patterns", "[formats]", __half, __nv_bfloat16, float,
                   double) {
  const Case c = GENERATE(from_range(std::begin(kCases), std::end(kCases)));
  CAPTURE(c.name, c.rows, c.cols, c.R, c.C);
  const HostCsr<TestType> csr = make_pattern<TestType>(c, 1234u + c.rows * 7 + c.cols);
  const bool divides = c.rows % c.R == 0 && c.cols % c.C == 0;

  SECTION("csr -> bsr -> csr keeps every CSR entry and adds only zeros of stored blocks") {
    if (!divides)
      CHECK_THROWS_AS(host::csr_to_bsr(csr, c.R, c.C, Padding::reject), Error);
    const HostBsr<TestType> bsr = host::csr_to_bsr(csr, c.R, c.C, Padding::zero_fill);
    check_bsr_matches_csr(csr, bsr);
    const HostCsr<TestType> back = host::bsr_to_csr(bsr);
    CHECK(dense_of(back) == dense_of(csr));
    // Every stored block contributes its in-range entries, no more.
    std::int64_t in_range = 0;
    for (int br = 0; br < bsr.block_rows(); ++br)
      for (int k = bsr.row_ptr[br]; k < bsr.row_ptr[br + 1]; ++k)
        in_range += static_cast<std::int64_t>(std::min(c.R, c.rows - br * c.R)) *
                    std::min(c.C, c.cols - bsr.col_idx[k] * c.C);
    CHECK(back.nnz() == in_range);
    // bsr_to_csr of a BSR with 1x1 blocks is the identity when there are no explicit zeros.
    if (c.R == 1 && c.C == 1) {
      CHECK(back.row_ptr == csr.row_ptr);
      CHECK(back.col_idx == csr.col_idx);
      CHECK(test::bitwise_equal(back.values, csr.values));
    }
  }

  SECTION("dense -> bsr -> dense is the identity") {
    for (Layout layout : {Layout::row_major, Layout::col_major}) {
      const HostDense<TestType> dense = test::random_dense<TestType>(c.rows, c.cols, layout, 99u, 0.7);
      const HostBsr<TestType> bsr = host::dense_to_bsr(dense, c.R, c.C, Padding::zero_fill);
      const HostDense<TestType> back = host::bsr_to_dense(bsr, layout);
      REQUIRE(back.rows == c.rows);
      REQUIRE(back.cols == c.cols);
      for (int i = 0; i < c.rows; ++i)
        for (int j = 0; j < c.cols; ++j)
          if (to_double(back(i, j)) != to_double(dense(i, j))) FAIL_CHECK("entry (" << i << ", " << j << ")");
    }
  }

  SECTION("transpose twice is the identity, once matches the transposed CSR") {
    const HostBsr<TestType> bsr = host::csr_to_bsr(csr, c.R, c.C, Padding::zero_fill);
    const HostBsr<TestType> t = host::bsr_transpose(bsr);
    const HostBsr<TestType> tt = host::bsr_transpose(t);
    CHECK(tt.rows == bsr.rows);
    CHECK(tt.cols == bsr.cols);
    CHECK(tt.R == bsr.R);
    CHECK(tt.C == bsr.C);
    CHECK(tt.row_ptr == bsr.row_ptr);
    CHECK(tt.col_idx == bsr.col_idx);
    CHECK(test::bitwise_equal(tt.values, bsr.values));
    const std::vector<double> d = dense_of(csr);
    const std::vector<double> dt = dense_of(host::bsr_to_csr(t));
    REQUIRE(dt.size() == d.size());
    for (int i = 0; i < c.rows; ++i)
      for (int j = 0; j < c.cols; ++j)
        if (dt[static_cast<std::size_t>(j) * c.rows + i] != d[static_cast<std::size_t>(i) * c.cols + j])
          FAIL_CHECK("entry (" << i << ", " << j << ")");
  }
}

TEST_CASE("host conversions validate their input", "[formats]") {
  HostCsr<float> csr;
  csr.rows = 2;
  csr.cols = 4;
  csr.row_ptr = {0, 2, 3};
  csr.col_idx = {3, 1, 0};  // row 0 unsorted
  csr.values = {1, 2, 3};
  BSRFLOW_CHECK_ERROR(host::csr_to_bsr(csr, 1, 1, Padding::reject), Errc::invalid_structure,
                      "row 0: column 1 appears after 3");

  HostBsr<float> bsr;
  bsr.rows = 2;
  bsr.cols = 2;
  bsr.R = 1;
  bsr.C = 1;
  bsr.row_ptr = {0, 1, 2};
  bsr.col_idx = {0, 2};
  bsr.values = {1, 2};
  const char* out_of_range = "block row 1: block column 2 out of range [0, 2)";
  BSRFLOW_CHECK_ERROR(host::bsr_to_csr(bsr), Errc::invalid_structure, out_of_range);
  BSRFLOW_CHECK_ERROR(host::bsr_to_dense(bsr, Layout::row_major), Errc::invalid_structure, out_of_range);
  BSRFLOW_CHECK_ERROR(host::bsr_transpose(bsr), Errc::invalid_structure, out_of_range);

  HostCoo<float> coo;
  coo.rows = 2;
  coo.cols = 2;
  coo.row_idx = {0, 1};
  coo.col_idx = {0, -1};
  coo.values = {1, 2};
  BSRFLOW_CHECK_ERROR(host::coo_to_csr(coo), Errc::invalid_structure, "entry 1: column -1 out of range [0, 2)");
}
