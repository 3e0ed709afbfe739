#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/bsr_bench/block_patterns.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {
// Structure invariants every pattern must meet: row_ptr consistent, columns in range, sorted
// and unique per row.
void check_well_formed(const BlockPattern& p) {
  REQUIRE(p.row_ptr.size() == static_cast<std::size_t>(p.block_rows) + 1);
  CHECK(p.row_ptr.front() == 0);
  CHECK(p.row_ptr.back() == static_cast<int>(p.col_idx.size()));
  for (int i = 0; i < p.block_rows; ++i) {
    REQUIRE(p.row_ptr[i] <= p.row_ptr[i + 1]);
    for (int k = p.row_ptr[i]; k < p.row_ptr[i + 1]; ++k) {
      REQUIRE(p.col_idx[k] >= 0);
      REQUIRE(p.col_idx[k] < p.block_cols);
      if (k > p.row_ptr[i]) REQUIRE(p.col_idx[k - 1] < p.col_idx[k]);
    }
  }
}
}  // namespace

TEST_CASE("uniform pattern: exactly round(density * block_cols) blocks in every row", "[apps]") {
  const BlockPattern p = uniform_pattern(64, 256, 0.125, 3);
  check_well_formed(p);
  for (int i = 0; i < p.block_rows; ++i) CHECK(p.row_length(i) == 32);
  CHECK(p.nnzb() == 64 * 32);
  CHECK(p.density() == 0.125);
  CHECK(uniform_row_length(64, 0.03) == 2);   // 1.92 rounds to 2
  CHECK(uniform_row_length(64, 0.001) == 1);  // never an empty matrix
  CHECK(uniform_row_length(64, 1.0) == 64);
  // Seeded: the same seed gives the same pattern, another seed another one.
  CHECK(uniform_pattern(64, 256, 0.125, 3).col_idx == p.col_idx);
  CHECK(uniform_pattern(64, 256, 0.125, 4).col_idx != p.col_idx);
  const BlockPattern full = uniform_pattern(4, 8, 1.0, 1);
  CHECK(full.col_idx == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7,
                                         0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("power-law pattern: the uniform block count, skewed rows, capped at block_cols", "[apps]") {
  for (const auto& [rows, cols, density] : {std::tuple{256, 256, 0.125}, std::tuple{512, 512, 0.125},
                                            std::tuple{64, 64, 0.5}, std::tuple{344, 128, 0.25}}) {
    CAPTURE(rows, cols, density);
    const BlockPattern p = powerlaw_pattern(rows, cols, density, 11);
    check_well_formed(p);
    const std::int64_t expected = static_cast<std::int64_t>(rows) * uniform_row_length(cols, density);
    CHECK(p.nnzb() == expected);  // exactly the uniform case's stored blocks
    std::vector<int> lengths(static_cast<std::size_t>(rows));
    for (int i = 0; i < rows; ++i) lengths[i] = p.row_length(i);
    std::sort(lengths.rbegin(), lengths.rend());
    const double mean = static_cast<double>(expected) / rows;
    CHECK(lengths.front() <= cols);
    // Skew: the longest row is far above the mean (or full), the median row below the mean,
    // and the top 10% of rows hold far more than 10% of the blocks (less so at 50% density,
    // where the cap of block_cols flattens the head).
    CHECK(lengths.front() >= std::min(static_cast<double>(cols), 3.0 * mean));
    CHECK(lengths[lengths.size() / 2] < mean);
    const std::int64_t top = std::accumulate(lengths.begin(), lengths.begin() + rows / 10, std::int64_t{0});
    CHECK(static_cast<double>(top) >= (density >= 0.5 ? 0.15 : 0.3) * static_cast<double>(expected));
  }
}

TEST_CASE("power-law row lengths: exact total under the cap, errors when impossible", "[apps]") {
  std::mt19937 rng(5);
  for (const std::int64_t total : {std::int64_t{0}, std::int64_t{1}, std::int64_t{999}, std::int64_t{100 * 10}}) {
    const std::vector<int> len = powerlaw_row_lengths(100, 10, total, 1.2, rng);
    CHECK(std::accumulate(len.begin(), len.end(), std::int64_t{0}) == total);
    CHECK(*std::max_element(len.begin(), len.end()) <= 10);
    CHECK(*std::min_element(len.begin(), len.end()) >= 0);
  }
  CHECK_APP_ERROR(powerlaw_row_lengths(10, 10, 101, 1.0, rng), Errc::invalid_argument,
                  "power-law lengths: 101 blocks do not fit in 10 rows of at most 10");
}

TEST_CASE("banded pattern: contiguous runs around the diagonal, the uniform count", "[apps]") {
  for (const auto& [rows, cols] : {std::pair{128, 128}, std::pair{344, 128}, std::pair{128, 344}}) {
    const BlockPattern p = banded_pattern(rows, cols, 0.125);
    check_well_formed(p);
    const int len = uniform_row_length(cols, 0.125);
    for (int i = 0; i < rows; ++i) {
      REQUIRE(p.row_length(i) == len);
      const int first = p.col_idx[p.row_ptr[i]];
      CHECK(p.col_idx[p.row_ptr[i + 1] - 1] == first + len - 1);  // contiguous
      const auto diagonal = static_cast<int>((i + 0.5) * cols / rows);
      CHECK(first <= diagonal);
      CHECK(diagonal < first + len);  // the diagonal block is stored
    }
  }
}

TEST_CASE("clustered pattern: dense aligned tiles shared by groups of rows", "[apps]") {
  const BlockPattern p = clustered_pattern(64, 256, 0.125, 2, 8);
  check_well_formed(p);
  CHECK(p.density() == Approx(0.125).margin(8.0 / 256));
  for (int i = 0; i < p.block_rows; ++i) {
    // Rows of one group of 8 have identical columns...
    const int leader = i / 8 * 8;
    CHECK(std::equal(p.col_idx.begin() + p.row_ptr[i], p.col_idx.begin() + p.row_ptr[i + 1],
                     p.col_idx.begin() + p.row_ptr[leader], p.col_idx.begin() + p.row_ptr[leader + 1]));
    // ...made of whole aligned windows of 8 columns.
    CHECK(p.row_length(i) % 8 == 0);
    for (int k = p.row_ptr[i]; k < p.row_ptr[i + 1]; k += 8) CHECK(p.col_idx[k] % 8 == 0);
  }
}

TEST_CASE("pattern generators reject bad densities and shapes", "[apps]") {
  CHECK_APP_ERROR(uniform_pattern(4, 4, 0.0, 1), Errc::invalid_argument, "block density 0 is outside (0, 1]");
  CHECK_APP_ERROR(powerlaw_pattern(4, 4, 1.5, 1), Errc::invalid_argument, "block density 1.5 is outside (0, 1]");
  CHECK_APP_ERROR(banded_pattern(4, 0, 0.5), Errc::invalid_argument, "block pattern of 4 x 0 blocks");
  CHECK_APP_ERROR(clustered_pattern(4, 4, 0.5, 1, 0), Errc::invalid_argument, "cluster size must be positive");
  for (const Pattern kind : {Pattern::uniform, Pattern::powerlaw, Pattern::banded, Pattern::clustered}) {
    const BlockPattern p = make_block_pattern(kind, 16, 32, 0.25, 9);
    check_well_formed(p);
    CHECK(p.nnzb() > 0);
  }
}

TEST_CASE("touched block columns: the distinct columns a pattern stores", "[apps]") {
  BlockPattern p;
  p.block_rows = 3;
  p.block_cols = 10;
  p.row_ptr = {0, 2, 2, 5};
  p.col_idx = {1, 7, 0, 1, 7};
  CHECK(p.touched_block_cols() == 3);
  CHECK(uniform_pattern(4, 8, 1.0, 1).touched_block_cols() == 8);
  CHECK(banded_pattern(64, 64, 0.03).touched_block_cols() <= 64);
}
