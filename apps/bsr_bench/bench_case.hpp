// One benchmark case of bsr_bench: C[m,n] = A[m,k] * B[k,n] with A block-sparse (R x C blocks,
// a block pattern of the given kind and density), B and C dense in the given layouts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow::bench {

enum class Pattern : std::uint8_t {
  uniform,    // exactly round(density * block_cols) blocks in every block row, random columns
  powerlaw,   // the same total, row lengths power-law distributed (capped at block_cols)
  banded,     // the same count per row, in a band around the diagonal
  clustered,  // dense clusters of blocks, about the same density
};

std::string_view pattern_name(Pattern p);
// Error(invalid_argument) naming the accepted values.
Pattern parse_pattern(std::string_view name);

std::string_view layout_name(Layout l);  // "row" / "col"
Layout parse_layout(std::string_view name, std::string_view option);

struct BenchCase {
  int m = 0;
  int n = 0;
  int k = 0;
  int R = 32;  // block height
  int C = 32;  // block width
  double density = 0.125;  // fraction of blocks stored
  Pattern pattern = Pattern::uniform;
  DType dtype = DType::f16;  // inputs and output
  Layout b_layout = Layout::row_major;
  Layout c_layout = Layout::row_major;
  std::uint32_t seed = 1;
  // Products per timed run (--chain): each multiplies its own weights (A's values on A's pattern)
  // by B into C, all launched back to back on one stream, as an LLM decode step runs its layers;
  // times and rates are per product. 1: one launch after an L2 flush (a cold, isolated product).
  int chain = 1;

  int block_rows() const { return m / R; }
  int block_cols() const { return k / C; }
  // Leading dimensions of the packed B and C in their layouts.
  std::int64_t ldb() const { return b_layout == Layout::row_major ? n : k; }
  std::int64_t ldc() const { return c_layout == Layout::row_major ? n : m; }
  // Memory-bound cases (few right-hand columns) are reported as GB/s against the copy bandwidth.
  bool skinny() const { return n <= 64; }
  // e.g. "8192^3 32x32 12.5% uniform f16" plus " B:col" / " C:col" when not row-major and
  // " chain8" when chained.
  std::string label() const;
  // The label without block shape and dtype ("8192^3 12.5% uniform B:col"): the cases a chart
  // panel compares across block shapes.
  std::string panel_label() const;
  // "32" for square blocks, "16x64" otherwise.
  std::string block_label() const;
  bool operator==(const BenchCase&) const = default;
};

// The longest --chain: each link holds its own copy of A's values on the GPU.
inline constexpr int kMaxChain = 64;

// Throws Error(invalid_argument) for a case bsr_bench cannot run: non-positive sizes, m or k
// not a multiple of the block, density outside (0, 1], a dtype other than f16/bf16, a chain
// outside [1, kMaxChain].
void check_case(const BenchCase& c);

// A density as the user typed it ("0.125", "1e-05"): %g.
std::string format_density(double density);

}  // namespace bsrflow::bench
