#include "bsrflow/apps/convert_bench/poisson.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <limits>
#include <string>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

std::int64_t poisson3d_nnz(int grid) {
  const auto g = static_cast<std::int64_t>(grid);
  return 7 * g * g * g - 6 * g * g;
}

template <class T>
HostCsr<T> poisson3d_csr(int grid) {
  BSRFLOW_REQUIRE(grid > 0, Errc::invalid_argument, "--grid must be positive (got " + std::to_string(grid) + ")");
  const auto g = static_cast<std::int64_t>(grid);
  BSRFLOW_REQUIRE(g * g * g < std::numeric_limits<int>::max() && poisson3d_nnz(grid) < std::numeric_limits<int>::max(),
                  Errc::invalid_argument,
                  "--grid " + std::to_string(grid) + " gives " + std::to_string(poisson3d_nnz(grid)) +
                      " entries; int32 indices allow fewer than 2^31");
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

template HostCsr<__half> poisson3d_csr<__half>(int);
template HostCsr<__nv_bfloat16> poisson3d_csr<__nv_bfloat16>(int);
template HostCsr<float> poisson3d_csr<float>(int);
template HostCsr<double> poisson3d_csr<double>(int);

}  // namespace bsrflow::bench
