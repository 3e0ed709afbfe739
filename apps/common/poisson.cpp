#include "bsrflow/apps/common/poisson.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <limits>
#include <string>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {

// The stencil's shape checks, shared by both generators; `rows_per_node` is b (1 for the CSR).
void check_grid(int grid, int rows_per_node) {
  BSRFLOW_REQUIRE(grid > 0, Errc::invalid_argument, "--grid must be positive (got " + std::to_string(grid) + ")");
  const auto g = static_cast<std::int64_t>(grid);
  BSRFLOW_REQUIRE(g * g * g * rows_per_node < std::numeric_limits<int>::max() &&
                      poisson3d_nnz(grid) < std::numeric_limits<int>::max(),
                  Errc::invalid_argument,
                  "--grid " + std::to_string(grid) + " gives " + std::to_string(poisson3d_nnz(grid)) +
                      (rows_per_node > 1 ? " blocks" : " entries") + " and " +
                      std::to_string(g * g * g * rows_per_node) + " rows; int32 indices allow fewer than 2^31");
}

}  // namespace

std::int64_t poisson3d_nnz(int grid) {
  const auto g = static_cast<std::int64_t>(grid);
  return 7 * g * g * g - 6 * g * g;
}

template <class T>
HostCsr<T> poisson3d_csr(int grid) {
  check_grid(grid, 1);
  const int n = grid;
  const int rows = n * n * n;
  HostCsr<T> csr;
  csr.rows = csr.cols = rows;
  csr.row_ptr.resize(static_cast<std::size_t>(rows) + 1);
  csr.col_idx.reserve(static_cast<std::size_t>(poisson3d_nnz(grid)));
  csr.values.reserve(static_cast<std::size_t>(poisson3d_nnz(grid)));
  const T diagonal = from_double<T>(6.0), neighbour = from_double<T>(-1.0);
  csr.row_ptr[0] = 0;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const int i = x + n * (y + n * z);
        // Ascending column order: -z, -y, -x, centre, +x, +y, +z.
        auto add = [&](int col, T value) {
          csr.col_idx.push_back(col);
          csr.values.push_back(value);
        };
        if (z > 0) add(i - n * n, neighbour);
        if (y > 0) add(i - n, neighbour);
        if (x > 0) add(i - 1, neighbour);
        add(i, diagonal);
        if (x < n - 1) add(i + 1, neighbour);
        if (y < n - 1) add(i + n, neighbour);
        if (z < n - 1) add(i + n * n, neighbour);
        csr.row_ptr[static_cast<std::size_t>(i) + 1] = static_cast<int>(csr.col_idx.size());
      }
  return csr;
}

template <class T>
HostBsr<T> poisson3d_block_bsr(int grid, int b) {
  BSRFLOW_REQUIRE(b >= 1, Errc::invalid_argument, "block size must be positive (got " + std::to_string(b) + ")");
  check_grid(grid, b);
  // The node pattern is the scalar stencil's; its values say which block goes where (6: the
  // node itself, -1: a neighbour).
  const HostCsr<float> nodes = poisson3d_csr<float>(grid);
  HostBsr<T> bsr;
  bsr.rows = bsr.cols = nodes.rows * b;
  bsr.R = bsr.C = b;
  bsr.row_ptr = nodes.row_ptr;
  bsr.col_idx = nodes.col_idx;
  const std::size_t block_values = static_cast<std::size_t>(b) * b;
  bsr.values.resize(nodes.col_idx.size() * block_values);
  for (std::size_t k = 0; k < nodes.col_idx.size(); ++k) {
    const bool self = nodes.values[k] > 0;
    for (int r = 0; r < b; ++r)
      for (int c = 0; c < b; ++c) {
        const double v = self ? (r == c ? 7.0 * b + 6.0 : 1.0) : (r == c ? -2.0 : -1.0);
        bsr.values[k * block_values + static_cast<std::size_t>(r) * b + c] = static_cast<T>(v);
      }
  }
  return bsr;
}

template HostCsr<__half> poisson3d_csr<__half>(int);
template HostCsr<__nv_bfloat16> poisson3d_csr<__nv_bfloat16>(int);
template HostCsr<float> poisson3d_csr<float>(int);
template HostCsr<double> poisson3d_csr<double>(int);
template HostBsr<float> poisson3d_block_bsr<float>(int, int);
template HostBsr<double> poisson3d_block_bsr<double>(int, int);

}  // namespace bsrflow::bench
