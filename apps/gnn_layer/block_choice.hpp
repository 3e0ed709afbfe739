// How well a sparse pattern packs into square b x b blocks, and the choice the app makes from
// it: a block size and a split of the matrix into a BSR part (the blocks dense enough to pay on
// the tensor cores) and a CSR remainder (scattered edges, on CUDA cores), or plain CSR when no
// block size pays. Real graphs mix dense communities with scattered edges, and each scattered
// edge would cost a whole block (DESIGN.md, gnn_layer).
//
// The cost model (docs/gnn_layer.md), in units of work / TFLOPS:
//   a stored block of b x b costs b^2 / ceiling(b), whatever its fill;
//   a CSR entry costs 1 / kCsrEffectiveTflops.
// ceiling(b) is the copy-only TFLOPS of the Hopper kernel (DESIGN.md's probe, swath 256: 102,
// 263, 462, 737 for b = 16, 32, 64, 128). So a block belongs in the BSR part exactly when it
// holds at least min_block_entries(b) = b^2 * kCsrEffectiveTflops / ceiling(b) entries, and
// the split's predicted cost is nnzb_kept * b^2 / ceiling(b) + nnz_rest / kCsrEffectiveTflops.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "bsrflow/formats/csr.hpp"

namespace bsrflow::gnn {

inline constexpr std::array<int, 4> kBlockSizes = {16, 32, 64, 128};
// Effective TFLOPS ceilings of the sm90 kernel per block size (DESIGN.md copy-only probe,
// H200, swath 256).
inline constexpr std::array<double, 4> kBsrCeilingTflops = {102, 263, 462, 737};
// A CSR SpMM (cuSPARSE, f16, 64-256 features) gathers one feature row per edge and reaches a
// few effective TFLOPS on H100/H200; 8 is a deliberately generous estimate, so that the app
// picks BSR only where it should clearly win. To be replaced by the measured peer rate.
inline constexpr double kCsrEffectiveTflops = 8.0;
inline constexpr double kBsrMargin = 1.5;  // the split must beat plain CSR by this factor

// Entries a b x b block needs to be worth a tensor-core block (at least 1). Blocks that are not
// an sm90 size get the reference kernel, which never pays: returns b*b + 1.
int min_block_entries(int block);

struct BlockFill {
  int block = 0;
  std::int64_t nnz = 0;
  std::int64_t nnzb = 0;        // every block holding an entry
  double fill = 0;              // nnz / (nnzb * b^2): the fill if everything went to BSR
  std::int64_t nnzb_kept = 0;   // blocks with >= min_entries entries: the BSR part
  std::int64_t nnz_kept = 0;    // entries in those blocks
  double fill_kept = 0;         // nnz_kept / (nnzb_kept * b^2)
  double predicted_cost = 0;    // the model's cost of the split (lower is better)
  double predicted_speedup = 0; // plain-CSR cost / split cost
};

// Block statistics of a square n x n pattern (row_ptr n+1; duplicates counted as given; a
// partial last block counts whole). min_entries <= 0: min_block_entries(block).
BlockFill measure_fill(int n, const std::vector<int>& row_ptr, const std::vector<int>& col_idx, int block,
                       int min_entries = 0);

struct PathChoice {
  bool use_bsr = false;
  int block = 0;                 // chosen block (0 on the CSR path)
  int min_entries = 0;           // split threshold (blocks below go to the CSR remainder)
  std::vector<BlockFill> fills;  // one per candidate measured
  std::string reason;            // one line: why this path and block
};

// forced_csr: CSR. forced_block > 0: BSR split with that block whatever the prediction. Else
// the block with the lowest predicted cost, if it beats plain CSR by kBsrMargin, or CSR.
// split = false keeps every block in the BSR part (min_entries 1): pure BSR, no remainder.
PathChoice choose_path(int n, const std::vector<int>& row_ptr, const std::vector<int>& col_idx, int forced_block,
                       bool forced_csr, bool split = true);

// The split itself: entry e of `a` goes to `kept` (its block has >= min_entries entries) or to
// `rest`; both n x n, same order within rows. dest[e] = index in kept, or -(index in rest) - 1.
struct CsrSplit {
  HostCsr<float> kept;
  HostCsr<float> rest;
  std::vector<int> dest;
};
// Values are copied (as float) when `a` has them, else left empty.
CsrSplit split_by_blocks(const HostCsr<double>& a, int block, int min_entries);

}  // namespace bsrflow::gnn
