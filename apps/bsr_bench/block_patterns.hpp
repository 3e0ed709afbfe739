// Block-sparsity patterns for the benchmark, generated on the host at block granularity,
// deterministic for a given seed. Every pattern has sorted, unique block columns per row.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "bsrflow/apps/bsr_bench/bench_case.hpp"

namespace bsrflow::bench {

struct BlockPattern {
  int block_rows = 0;
  int block_cols = 0;
  std::vector<int> row_ptr;  // block_rows + 1
  std::vector<int> col_idx;  // nnzb

  std::int64_t nnzb() const { return static_cast<std::int64_t>(col_idx.size()); }
  int row_length(int i) const { return row_ptr[i + 1] - row_ptr[i]; }
  int longest_row() const;
  int touched_block_cols() const;  // distinct block columns stored: B's block rows a product reads
  double density() const;  // nnzb / (block_rows * block_cols)
};

// Blocks per row of the uniform pattern: round(density * block_cols), at least 1.
int uniform_row_length(int block_cols, double density);

// Exactly round(density * block_cols) random columns in every block row.
BlockPattern uniform_pattern(int block_rows, int block_cols, double density, std::uint32_t seed);

// The uniform pattern's total block count, spread over the rows with lengths proportional to
// (rank + 1)^-exponent (ranks shuffled over the rows), no row longer than block_cols.
BlockPattern powerlaw_pattern(int block_rows, int block_cols, double density, std::uint32_t seed,
                              double exponent = 1.0);

// The uniform row length, as one contiguous run of columns centred on the diagonal (the
// diagonal block is always stored).
BlockPattern banded_pattern(int block_rows, int block_cols, double density);

// Groups of `cluster` block rows share round(density * block_cols / cluster) randomly chosen
// aligned windows of `cluster` block columns: dense cluster x cluster tiles of blocks.
BlockPattern clustered_pattern(int block_rows, int block_cols, double density, std::uint32_t seed, int cluster = 8);

// Dispatch on the case's pattern kind.
BlockPattern make_block_pattern(Pattern pattern, int block_rows, int block_cols, double density, std::uint32_t seed);

// Row lengths that sum to exactly `total`, each <= cap, proportional to (rank + 1)^-exponent
// with the ranks shuffled by `rng`. Throws Error(invalid_argument) if total > rows * cap.
std::vector<int> powerlaw_row_lengths(int rows, int cap, std::int64_t total, double exponent, std::mt19937& rng);

}  // namespace bsrflow::bench
