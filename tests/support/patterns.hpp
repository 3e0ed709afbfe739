// Test inputs: sparse patterns (random, power-law, hostile) and integer-valued values, so that
// sums in f32 (and in f16 for small enough ranges) are exact and results compare bit for bit.
// Host-only, header-only; deterministic for a given seed.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/coo.hpp"
#include "bsrflow/formats/csr.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow::test {

// Integer value in [-range, range] \ {0}: never zero, so an unwritten output cannot pass.
template <class T>
T int_value(std::mt19937& rng, int range = 4) {
  std::uniform_int_distribution<int> dist(1, range);
  const int v = dist(rng);
  return from_double<T>((rng() & 1u) ? v : -v);
}

// Uniform real value in [-1, 1) for tests against an fp64 reference.
template <class T>
T real_value(std::mt19937& rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  return from_double<T>(dist(rng));
}

// n integer values in [-range, range] \ {0}.
template <class T>
std::vector<T> int_values(std::size_t n, std::uint32_t seed, int range = 4) {
  std::mt19937 rng(seed);
  std::vector<T> v(n);
  for (auto& e : v) e = int_value<T>(rng, range);
  return v;
}

// n real values in [-1, 1).
template <class T>
std::vector<T> real_values(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<T> v(n);
  for (auto& e : v) e = real_value<T>(rng);
  return v;
}

// Sorted unique column sets per row -> CSR with integer values.
template <class T>
HostCsr<T> csr_from_rows(int rows, int cols, const std::vector<std::vector<int>>& row_cols, std::mt19937& rng,
                         int range = 4) {
  HostCsr<T> csr;
  csr.rows = rows;
  csr.cols = cols;
  csr.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (int r = 0; r < rows; ++r) {
    csr.row_ptr[r + 1] = csr.row_ptr[r] + static_cast<int>(row_cols[r].size());
    for (int c : row_cols[r]) {
      csr.col_idx.push_back(c);
      csr.values.push_back(int_value<T>(rng, range));
    }
  }
  return csr;
}

// Each entry present with probability `density`; rows listed in `empty_every` multiples are
// forced empty (0 = none).
template <class T>
HostCsr<T> random_csr(int rows, int cols, double density, std::uint32_t seed, int empty_every = 0, int range = 4) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution keep(density);
  std::vector<std::vector<int>> row_cols(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    if (empty_every > 0 && r % empty_every == 0) continue;
    for (int c = 0; c < cols; ++c)
      if (keep(rng)) row_cols[r].push_back(c);
  }
  return csr_from_rows<T>(rows, cols, row_cols, rng, range);
}

// Row lengths follow a power law (a few very long rows, many short or empty ones), total close
// to `target_nnz`, each row's columns drawn uniformly without repetition.
template <class T>
HostCsr<T> powerlaw_csr(int rows, int cols, std::int64_t target_nnz, double exponent, std::uint32_t seed,
                        int range = 4) {
  std::mt19937 rng(seed);
  std::vector<double> weight(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) weight[r] = std::pow(static_cast<double>(r + 1), -exponent);
  std::shuffle(weight.begin(), weight.end(), rng);
  const double total = std::accumulate(weight.begin(), weight.end(), 0.0);
  std::vector<std::vector<int>> row_cols(static_cast<std::size_t>(rows));
  std::vector<int> all(static_cast<std::size_t>(cols));
  std::iota(all.begin(), all.end(), 0);
  for (int r = 0; r < rows; ++r) {
    const int len = std::min<std::int64_t>(cols, std::llround(weight[r] / total * static_cast<double>(target_nnz)));
    std::sample(all.begin(), all.end(), std::back_inserter(row_cols[r]), len, rng);
  }
  return csr_from_rows<T>(rows, cols, row_cols, rng, range);
}

// COO in shuffled order with roughly `dup_fraction` of the entries repeated (duplicates are
// summed by conversions).
template <class T>
HostCoo<T> random_coo(int rows, int cols, std::int64_t nnz, double dup_fraction, std::uint32_t seed, int range = 4) {
  std::mt19937 rng(seed);
  HostCoo<T> coo;
  coo.rows = rows;
  coo.cols = cols;
  if (rows == 0 || cols == 0) return coo;
  std::uniform_int_distribution<int> rd(0, rows - 1), cd(0, cols - 1);
  std::bernoulli_distribution dup(dup_fraction);
  for (std::int64_t e = 0; e < nnz; ++e) {
    if (e > 0 && dup(rng)) {
      std::uniform_int_distribution<std::int64_t> pick(0, static_cast<std::int64_t>(coo.row_idx.size()) - 1);
      const auto k = static_cast<std::size_t>(pick(rng));
      coo.row_idx.push_back(coo.row_idx[k]);
      coo.col_idx.push_back(coo.col_idx[k]);
    } else {
      coo.row_idx.push_back(rd(rng));
      coo.col_idx.push_back(cd(rng));
    }
    coo.values.push_back(int_value<T>(rng, range));
  }
  return coo;
}

// BSR with each block present with probability `block_density` (rows/cols need not be
// multiples of R/C: out-of-range entries of edge blocks are zero, as the format requires).
template <class T>
HostBsr<T> random_bsr(int rows, int cols, int R, int C, double block_density, std::uint32_t seed, int range = 4) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution keep(block_density);
  HostBsr<T> bsr;
  bsr.rows = rows;
  bsr.cols = cols;
  bsr.R = R;
  bsr.C = C;
  bsr.row_ptr.assign(static_cast<std::size_t>(bsr.block_rows()) + 1, 0);
  for (int br = 0; br < bsr.block_rows(); ++br) {
    for (int bc = 0; bc < bsr.block_cols(); ++bc) {
      if (!keep(rng)) continue;
      bsr.col_idx.push_back(bc);
      for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
          const bool inside = br * R + r < rows && bc * C + c < cols;
          bsr.values.push_back(inside ? int_value<T>(rng, range) : from_double<T>(0.0));
        }
    }
    bsr.row_ptr[br + 1] = static_cast<int>(bsr.col_idx.size());
  }
  return bsr;
}

// Dense matrix with integer values; `zero_fraction` of the entries set to zero.
template <class T>
HostDense<T> random_dense(int rows, int cols, Layout layout, std::uint32_t seed, double zero_fraction = 0.0,
                          std::int64_t ld = 0, int range = 4) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution zero(zero_fraction);
  HostDense<T> d(rows, cols, layout, ld);
  for (auto& v : d.data) v = from_double<T>(std::nan(""));  // padding beyond the shape: poison
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) d(i, j) = zero(rng) ? from_double<T>(0.0) : int_value<T>(rng, range);
  return d;
}

// n elements of 0xFF bytes (NaN for the floating-point types): the poison outputs start as.
template <class T>
std::vector<T> poisoned(std::size_t n) {
  std::vector<T> v(n);
  if (n > 0) std::memset(static_cast<void*>(v.data()), 0xFF, n * sizeof(T));
  return v;
}

// Bitwise equality of two value arrays (distinguishes -0.0 from 0.0 and compares NaN payloads).
template <class T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// BSR with `pattern` (block columns per block row): entries inside rows x cols get `value()`,
// the padding of partial edge blocks is zero (as the format requires).
template <class T, class ValueFn>
HostBsr<T> make_bsr(int rows, int cols, int R, int C, const std::vector<std::vector<int>>& pattern, ValueFn value) {
  HostBsr<T> a;
  a.rows = rows;
  a.cols = cols;
  a.R = R;
  a.C = C;
  a.row_ptr.assign(pattern.size() + 1, 0);
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    for (int j : pattern[i]) {
      a.col_idx.push_back(j);
      for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
          const bool inside = static_cast<std::int64_t>(i) * R + r < rows && static_cast<std::int64_t>(j) * C + c < cols;
          a.values.push_back(inside ? value() : from_double<T>(0.0));
        }
    }
    a.row_ptr[i + 1] = static_cast<int>(a.col_idx.size());
  }
  return a;
}

// Dense rows x cols with leading dimension `ld`: entries in the shape get `value()`, the
// leading-dimension padding is NaN (a read of it poisons a result).
template <class T, class ValueFn>
HostDense<T> nan_padded_dense(int rows, int cols, Layout layout, std::int64_t ld, ValueFn value) {
  HostDense<T> d(rows, cols, layout, ld);
  for (auto& v : d.data) v = from_double<T>(std::nan(""));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) d(i, j) = value();
  return d;
}

}  // namespace bsrflow::test
