#include "bsrflow/apps/gnn_layer/block_choice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "bsrflow/core/error.hpp"

namespace bsrflow::gnn {
namespace {

double ceiling_of(int block) {
  for (std::size_t k = 0; k < kBlockSizes.size(); ++k)
    if (kBlockSizes[k] == block) return kBsrCeilingTflops[k];
  return 0;
}

std::string format(const char* fmt, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d);
  return buf;
}

void check_pattern(int n, const std::vector<int>& row_ptr, int block) {
  BSRFLOW_REQUIRE(block >= 1, Errc::invalid_argument, "block size must be positive, got " + std::to_string(block));
  BSRFLOW_REQUIRE(n >= 0 && row_ptr.size() == static_cast<std::size_t>(n) + 1, Errc::invalid_argument,
                  "block fill: row_ptr has " + std::to_string(row_ptr.size()) + " entries for " + std::to_string(n) +
                      " rows");
}

// Calls f(block_row, first_row, last_row, counts) per block row, counts[bc] = entries in block
// column bc (only for the touched columns, listed in `touched`).
template <class F>
void for_each_block_row(int n, const std::vector<int>& row_ptr, const std::vector<int>& col_idx, int block, F&& f) {
  std::vector<int> count(static_cast<std::size_t>((n + block - 1) / block) + 1, 0);
  std::vector<int> touched;
  for (int r0 = 0; r0 < n; r0 += block) {
    const int r1 = std::min(n, r0 + block);
    touched.clear();
    for (int k = row_ptr[static_cast<std::size_t>(r0)]; k < row_ptr[static_cast<std::size_t>(r1)]; ++k) {
      const int bc = col_idx[static_cast<std::size_t>(k)] / block;
      if (count[static_cast<std::size_t>(bc)]++ == 0) touched.push_back(bc);
    }
    f(r0, r1, count, touched);
    for (int bc : touched) count[static_cast<std::size_t>(bc)] = 0;
  }
}

}  // namespace

int min_block_entries(int block) {
  const double ceiling = ceiling_of(block);
  if (ceiling == 0) return block * block + 1;
  return std::max(1, static_cast<int>(std::ceil(static_cast<double>(block) * block * kCsrEffectiveTflops / ceiling)));
}

BlockFill measure_fill(int n, const std::vector<int>& row_ptr, const std::vector<int>& col_idx, int block,
                       int min_entries) {
  check_pattern(n, row_ptr, block);
  if (min_entries <= 0) min_entries = min_block_entries(block);
  BlockFill f;
  f.block = block;
  f.nnz = static_cast<std::int64_t>(col_idx.size());
  for_each_block_row(n, row_ptr, col_idx, block, [&](int, int, const std::vector<int>& count, const std::vector<int>& touched) {
    f.nnzb += static_cast<std::int64_t>(touched.size());
    for (int bc : touched) {
      const int c = count[static_cast<std::size_t>(bc)];
      if (c >= min_entries) {
        ++f.nnzb_kept;
        f.nnz_kept += c;
      }
    }
  });
  const double area = static_cast<double>(block) * block;
  f.fill = f.nnzb == 0 ? 0.0 : static_cast<double>(f.nnz) / (static_cast<double>(f.nnzb) * area);
  f.fill_kept = f.nnzb_kept == 0 ? 0.0 : static_cast<double>(f.nnz_kept) / (static_cast<double>(f.nnzb_kept) * area);
  const double ceiling = ceiling_of(block);
  const double bsr_cost = ceiling == 0 ? (f.nnzb_kept == 0 ? 0.0 : std::numeric_limits<double>::infinity())
                                       : static_cast<double>(f.nnzb_kept) * area / ceiling;
  f.predicted_cost = bsr_cost + static_cast<double>(f.nnz - f.nnz_kept) / kCsrEffectiveTflops;
  const double csr_cost = static_cast<double>(f.nnz) / kCsrEffectiveTflops;
  f.predicted_speedup = f.predicted_cost == 0 ? 1.0 : csr_cost / f.predicted_cost;
  return f;
}

PathChoice choose_path(int n, const std::vector<int>& row_ptr, const std::vector<int>& col_idx, int forced_block,
                       bool forced_csr, bool split) {
  PathChoice c;
  if (forced_csr) {
    c.reason = "CSR path: asked for with --path csr";
    return c;
  }
  const auto threshold = [&](int b) { return split ? min_block_entries(b) : 1; };
  const auto describe = [](const BlockFill& f) {
    return format("block %.0f: %.1f%% of the edges in blocks of fill %.3f", f.block,
                  f.nnz == 0 ? 0.0 : 100.0 * static_cast<double>(f.nnz_kept) / static_cast<double>(f.nnz),
                  f.fill_kept) +
           format(", predicted %.2fx plain CSR", f.predicted_speedup);
  };
  if (forced_block > 0) {
    c.fills.push_back(measure_fill(n, row_ptr, col_idx, forced_block, threshold(forced_block)));
    c.use_bsr = true;
    c.block = forced_block;
    c.min_entries = threshold(forced_block);
    c.reason = "BSR path from --block: " + describe(c.fills.back());
    return c;
  }
  for (int b : kBlockSizes) c.fills.push_back(measure_fill(n, row_ptr, col_idx, b, threshold(b)));
  const BlockFill* best = &c.fills.front();
  for (const BlockFill& f : c.fills)
    if (f.predicted_cost < best->predicted_cost) best = &f;
  if (best->nnz_kept > 0 && best->predicted_speedup >= kBsrMargin) {
    c.use_bsr = true;
    c.block = best->block;
    c.min_entries = threshold(best->block);
    c.reason = "BSR path, " + describe(*best);
  } else {
    c.reason = "CSR path: block fill is poor (best " + describe(*best) +
               format(", below the %.1fx margin); reorder (--reorder rcm|community) or force --block", kBsrMargin);
  }
  return c;
}

CsrSplit split_by_blocks(const HostCsr<double>& a, int block, int min_entries) {
  check_pattern(a.rows, a.row_ptr, block);
  const bool values = !a.values.empty();
  CsrSplit s;
  s.kept.rows = s.kept.cols = s.rest.rows = s.rest.cols = a.rows;
  s.kept.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  s.rest.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  s.dest.resize(a.col_idx.size());
  for_each_block_row(a.rows, a.row_ptr, a.col_idx, block,
                     [&](int r0, int r1, const std::vector<int>& count, const std::vector<int>&) {
                       for (int r = r0; r < r1; ++r) {
                         for (int k = a.row_ptr[static_cast<std::size_t>(r)]; k < a.row_ptr[static_cast<std::size_t>(r) + 1]; ++k) {
                           const auto e = static_cast<std::size_t>(k);
                           const bool keep = count[static_cast<std::size_t>(a.col_idx[e] / block)] >= min_entries;
                           HostCsr<float>& part = keep ? s.kept : s.rest;
                           const auto index = static_cast<int>(part.col_idx.size());
                           s.dest[e] = keep ? index : -index - 1;
                           part.col_idx.push_back(a.col_idx[e]);
                           if (values) part.values.push_back(static_cast<float>(a.values[e]));
                         }
                         s.kept.row_ptr[static_cast<std::size_t>(r) + 1] = static_cast<int>(s.kept.col_idx.size());
                         s.rest.row_ptr[static_cast<std::size_t>(r) + 1] = static_cast<int>(s.rest.col_idx.size());
                       }
                     });
  return s;
}

}  // namespace bsrflow::gnn
