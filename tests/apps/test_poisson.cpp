// The benchmarks' model matrices (apps/common/poisson.hpp): the scalar 7-point Poisson CSR and
// its dense-block variant.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/common/poisson.hpp"
#include "bsrflow/core/dtype.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {

// Neighbours of node i of a grid^3 cube inside the cube.
int neighbours(int i, int grid) {
  const int x = i % grid, y = i / grid % grid, z = i / (grid * grid);
  return (x > 0) + (x < grid - 1) + (y > 0) + (y < grid - 1) + (z > 0) + (z < grid - 1);
}

// Row-major dense copy of a (small) BSR.
std::vector<double> dense(const HostBsr<double>& a) {
  std::vector<double> d(static_cast<std::size_t>(a.rows) * a.cols, 0.0);
  for (int br = 0; br < a.block_rows(); ++br)
    for (int k = a.row_ptr[br]; k < a.row_ptr[br + 1]; ++k)
      for (int r = 0; r < a.R; ++r)
        for (int c = 0; c < a.C; ++c) d[(br * a.R + r) * static_cast<std::size_t>(a.cols) + a.col_idx[k] * a.C + c] = a.at(k, r, c);
  return d;
}

// True when the symmetric n x n matrix has a Cholesky factorisation with positive pivots.
bool cholesky_succeeds(std::vector<double> m, int n) {
  for (int j = 0; j < n; ++j) {
    double pivot = m[j * n + j];
    for (int k = 0; k < j; ++k) pivot -= m[j * n + k] * m[j * n + k];
    if (!(pivot > 0)) return false;
    const double l = std::sqrt(pivot);
    m[j * n + j] = l;
    for (int i = j + 1; i < n; ++i) {
      double v = m[i * n + j];
      for (int k = 0; k < j; ++k) v -= m[i * n + k] * m[j * n + k];
      m[i * n + j] = v / l;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("Poisson 7-point matrix: structure and values", "[apps]") {
  const HostCsr<double> a = poisson3d_csr<double>(4);
  CHECK(a.rows == 64);
  CHECK(a.cols == 64);
  CHECK(a.nnz() == poisson3d_nnz(4));
  CHECK(poisson3d_nnz(4) == 7 * 64 - 6 * 16);
  CHECK(poisson3d_nnz(128) == 14581760);
  for (int r = 0; r < a.rows; ++r) {
    double sum = 0;
    int diagonal = 0;
    for (int k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      if (k > a.row_ptr[r]) REQUIRE(a.col_idx[k - 1] < a.col_idx[k]);  // sorted
      if (a.col_idx[k] == r) {
        CHECK(a.values[k] == 6.0);
        ++diagonal;
      } else {
        CHECK(a.values[k] == -1.0);
      }
      sum += a.values[k];
    }
    CHECK(diagonal == 1);
    // Interior rows sum to 0; a boundary row loses one -1 per missing neighbour.
    const int x = r % 4, y = r / 4 % 4, z = r / 16;
    const int missing = (x == 0) + (x == 3) + (y == 0) + (y == 3) + (z == 0) + (z == 3);
    CHECK(sum == missing);
  }
  // Row 0 = corner (0,0,0): itself, +x, +y, +z.
  CHECK(std::vector<int>(a.col_idx.begin(), a.col_idx.begin() + a.row_ptr[1]) == std::vector<int>{0, 1, 4, 16});
  const HostCsr<__half> h = poisson3d_csr<__half>(2);
  CHECK(to_double(h.values[0]) == 6.0);
  CHECK_APP_ERROR(poisson3d_csr<float>(0), Errc::invalid_argument, "--grid must be positive (got 0)");
  CHECK_APP_ERROR(poisson3d_csr<float>(1000), Errc::invalid_argument, "int32 indices allow fewer than 2^31");
}

TEST_CASE("Poisson block BSR: the scalar stencil with dense b x b blocks", "[apps]") {
  const int grid = 4;
  const HostCsr<double> nodes = poisson3d_csr<double>(grid);
  for (const int b : {1, 2, 3, 5}) {
    CAPTURE(b);
    const HostBsr<double> a = poisson3d_block_bsr<double>(grid, b);
    CHECK(a.rows == 64 * b);
    CHECK(a.cols == 64 * b);
    CHECK(a.R == b);
    CHECK(a.C == b);
    CHECK(a.nnzb() == poisson3d_nnz(grid));
    CHECK(a.row_ptr == nodes.row_ptr);
    CHECK(a.col_idx == nodes.col_idx);
    REQUIRE(a.values.size() == static_cast<std::size_t>(a.nnzb()) * b * b);

    const std::vector<double> d = dense(a);
    const int n = a.rows;
    for (int i = 0; i < n; ++i) {
      double sum = 0, off = 0;
      for (int j = 0; j < n; ++j) {
        REQUIRE(d[i * n + j] == d[j * n + i]);  // symmetric
        sum += d[i * n + j];
        if (j != i) off += std::fabs(d[i * n + j]);
      }
      CHECK(d[i * n + i] == 7.0 * b + 6.0);
      CHECK(off < d[i * n + i]);  // strictly diagonally dominant
      const int k = neighbours(i / b, grid);
      CHECK(sum == (7.0 * b + 6.0) + (b - 1) - k * (b + 1.0));
    }
  }
  // Every stored value is a small nonzero integer: exact in f32 too.
  const HostBsr<float> f = poisson3d_block_bsr<float>(3, 3);
  for (float v : f.values) CHECK((v != 0 && v == std::round(v)));
}

TEST_CASE("Poisson block BSR is positive definite (Cholesky)", "[apps]") {
  for (const auto& [grid, b] : std::vector<std::pair<int, int>>{{3, 3}, {4, 2}, {2, 8}}) {
    CAPTURE(grid, b);
    const HostBsr<double> a = poisson3d_block_bsr<double>(grid, b);
    CHECK(cholesky_succeeds(dense(a), a.rows));
  }
}

TEST_CASE("Poisson block BSR rejects what int32 indices cannot hold", "[apps]") {
  CHECK_APP_ERROR(poisson3d_block_bsr<double>(4, 0), Errc::invalid_argument, "block size must be positive (got 0)");
  CHECK_APP_ERROR(poisson3d_block_bsr<double>(0, 3), Errc::invalid_argument, "--grid must be positive (got 0)");
  CHECK_APP_ERROR(poisson3d_block_bsr<double>(600, 10), Errc::invalid_argument,
                  "--grid 600 gives 1509840000 blocks and 2160000000 rows; int32 indices allow fewer than 2^31");
  CHECK_APP_ERROR(poisson3d_block_bsr<float>(900, 1), Errc::invalid_argument, "int32 indices allow fewer than 2^31");
}
