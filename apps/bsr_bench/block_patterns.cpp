#include "bsrflow/apps/bsr_bench/block_patterns.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <string>

#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {

void check_shape(int block_rows, int block_cols, double density) {
  BSRFLOW_REQUIRE(block_rows >= 0 && block_cols > 0, Errc::invalid_argument,
                  "block pattern of " + std::to_string(block_rows) + " x " + std::to_string(block_cols) + " blocks");
  BSRFLOW_REQUIRE(density > 0.0 && density <= 1.0, Errc::invalid_argument,
                  "block density " + format_density(density) + " is outside (0, 1]");
}

// Row-wise lists of sorted columns -> CSR-like pattern.
BlockPattern from_rows(int block_rows, int block_cols, const std::vector<std::vector<int>>& rows) {
  BlockPattern p;
  p.block_rows = block_rows;
  p.block_cols = block_cols;
  p.row_ptr.assign(static_cast<std::size_t>(block_rows) + 1, 0);
  for (int i = 0; i < block_rows; ++i) {
    p.row_ptr[i + 1] = p.row_ptr[i] + static_cast<int>(rows[i].size());
    p.col_idx.insert(p.col_idx.end(), rows[i].begin(), rows[i].end());
  }
  return p;
}

// `count` distinct sorted values of [0, n): std::sample keeps the input order.
std::vector<int> sorted_sample(int n, int count, std::mt19937& rng) {
  std::vector<int> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), 0);
  std::vector<int> out;
  out.reserve(static_cast<std::size_t>(count));
  std::sample(all.begin(), all.end(), std::back_inserter(out), count, rng);
  return out;
}

}  // namespace

int BlockPattern::longest_row() const {
  int longest = 0;
  for (int i = 0; i < block_rows; ++i) longest = std::max(longest, row_length(i));
  return longest;
}

int BlockPattern::touched_block_cols() const {
  std::vector<char> seen(static_cast<std::size_t>(block_cols), 0);
  for (const int j : col_idx) seen[static_cast<std::size_t>(j)] = 1;
  return static_cast<int>(std::count(seen.begin(), seen.end(), 1));
}

double BlockPattern::density() const {
  const double cells = static_cast<double>(block_rows) * block_cols;
  return cells > 0 ? static_cast<double>(nnzb()) / cells : 0.0;
}

int uniform_row_length(int block_cols, double density) {
  const auto len = static_cast<int>(std::llround(density * block_cols));
  return std::clamp(len, 1, block_cols);
}

BlockPattern uniform_pattern(int block_rows, int block_cols, double density, std::uint32_t seed) {
  check_shape(block_rows, block_cols, density);
  std::mt19937 rng(seed);
  const int len = uniform_row_length(block_cols, density);
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(block_rows));
  for (auto& row : rows) row = sorted_sample(block_cols, len, rng);
  return from_rows(block_rows, block_cols, rows);
}

std::vector<int> powerlaw_row_lengths(int rows, int cap, std::int64_t total, double exponent, std::mt19937& rng) {
  BSRFLOW_REQUIRE(rows >= 0 && cap >= 0 && total >= 0, Errc::invalid_argument, "power-law lengths: negative input");
  BSRFLOW_REQUIRE(total <= static_cast<std::int64_t>(rows) * cap, Errc::invalid_argument,
                  "power-law lengths: " + std::to_string(total) + " blocks do not fit in " + std::to_string(rows) +
                      " rows of at most " + std::to_string(cap));
  std::vector<int> length(static_cast<std::size_t>(rows), 0);
  if (rows == 0 || total == 0) return length;
  std::vector<double> weight(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) weight[r] = std::pow(static_cast<double>(r + 1), -exponent);
  std::shuffle(weight.begin(), weight.end(), rng);

  // NOTES: water-filling. Visit rows by decreasing weight; a row whose proportional share of
  // what is left reaches the cap gets the cap and leaves the pool. Shares of the remaining rows
  // only shrink as capped rows leave (each took more than the average), so once one row is
  // below the cap all lighter rows are too, and one pass suffices.
  std::vector<int> order(static_cast<std::size_t>(rows));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return weight[a] > weight[b]; });
  std::int64_t left = total;
  double pool = std::accumulate(weight.begin(), weight.end(), 0.0);
  std::size_t first_free = 0;
  while (first_free < order.size()) {
    const int r = order[first_free];
    if (static_cast<double>(left) * weight[r] / pool < static_cast<double>(cap)) break;
    length[r] = cap;
    left -= cap;
    pool -= weight[r];
    ++first_free;
  }
  // Proportional shares of the rest, floored, then the remainder by largest fraction.
  std::vector<std::pair<double, int>> fraction;
  std::int64_t given = 0;
  for (std::size_t i = first_free; i < order.size(); ++i) {
    const int r = order[i];
    const double share = pool > 0 ? static_cast<double>(left) * weight[r] / pool : 0.0;
    length[r] = std::min(cap, static_cast<int>(std::floor(share)));
    given += length[r];
    fraction.emplace_back(share - std::floor(share), r);
  }
  std::stable_sort(fraction.begin(), fraction.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  // Rounding can leave a few blocks over; hand them out by fraction (cycling, never past the cap).
  for (std::size_t i = 0; given < left && !fraction.empty(); i = (i + 1) % fraction.size()) {
    const int r = fraction[i].second;
    if (length[r] < cap) {
      ++length[r];
      ++given;
    }
  }
  return length;
}

BlockPattern powerlaw_pattern(int block_rows, int block_cols, double density, std::uint32_t seed, double exponent) {
  check_shape(block_rows, block_cols, density);
  std::mt19937 rng(seed);
  const std::int64_t total = static_cast<std::int64_t>(block_rows) * uniform_row_length(block_cols, density);
  const std::vector<int> length = powerlaw_row_lengths(block_rows, block_cols, total, exponent, rng);
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(block_rows));
  for (int i = 0; i < block_rows; ++i) rows[i] = sorted_sample(block_cols, length[i], rng);
  return from_rows(block_rows, block_cols, rows);
}

BlockPattern banded_pattern(int block_rows, int block_cols, double density) {
  check_shape(block_rows, block_cols, density);
  const int len = uniform_row_length(block_cols, density);
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(block_rows));
  for (int i = 0; i < block_rows; ++i) {
    // The diagonal of a rectangular block grid: row i maps to column (i + 0.5) * cols / rows.
    const auto diagonal = static_cast<int>((static_cast<double>(i) + 0.5) * block_cols / block_rows);
    const int start = std::clamp(diagonal - len / 2, 0, block_cols - len);
    rows[i].resize(static_cast<std::size_t>(len));
    std::iota(rows[i].begin(), rows[i].end(), start);
  }
  return from_rows(block_rows, block_cols, rows);
}

BlockPattern clustered_pattern(int block_rows, int block_cols, double density, std::uint32_t seed, int cluster) {
  check_shape(block_rows, block_cols, density);
  BSRFLOW_REQUIRE(cluster > 0, Errc::invalid_argument, "cluster size must be positive");
  std::mt19937 rng(seed);
  const int s = std::max(1, std::min({cluster, block_cols, std::max(block_rows, 1)}));
  const int windows = (block_cols + s - 1) / s;
  const int per_group = std::clamp(static_cast<int>(std::llround(density * block_cols / s)), 1, windows);
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(block_rows));
  for (int group = 0; group * s < block_rows; ++group) {
    std::vector<int> cols;
    for (const int w : sorted_sample(windows, per_group, rng))
      for (int c = w * s; c < std::min(block_cols, w * s + s); ++c) cols.push_back(c);
    for (int i = group * s; i < std::min(block_rows, group * s + s); ++i) rows[i] = cols;
  }
  return from_rows(block_rows, block_cols, rows);
}

BlockPattern make_block_pattern(Pattern pattern, int block_rows, int block_cols, double density, std::uint32_t seed) {
  switch (pattern) {
    case Pattern::uniform: return uniform_pattern(block_rows, block_cols, density, seed);
    case Pattern::powerlaw: return powerlaw_pattern(block_rows, block_cols, density, seed);
    case Pattern::banded: return banded_pattern(block_rows, block_cols, density);
    case Pattern::clustered: return clustered_pattern(block_rows, block_cols, density, seed);
  }
  BSRFLOW_FAIL(Errc::invalid_argument, "unknown pattern");
}

}  // namespace bsrflow::bench
