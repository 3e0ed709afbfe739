// The conversion benchmark's matrix: the 7-point finite-difference Laplacian on a grid^3 cube
// (Dirichlet boundary folded in: 6 on the diagonal, -1 for each neighbour inside the cube),
// rows numbered x fastest, then y, then z. grid = 128 gives 2,097,152 rows and 14,581,760
// entries. Built on the host: simple, and fast enough for that size.
#pragma once

#include <cstdint>

#include "bsrflow/formats/csr.hpp"

namespace bsrflow::bench {

// nnz of the grid^3 matrix: 7 * grid^3 - 6 * grid^2.
std::int64_t poisson3d_nnz(int grid);

// Columns sorted within each row. Throws Error(invalid_argument) when grid <= 0 or the matrix
// would have 2^31 or more rows or entries (int32 indices). Instantiated for __half,
// __nv_bfloat16, float and double (6 and -1 are exact in all of them).
template <class T>
HostCsr<T> poisson3d_csr(int grid);

}  // namespace bsrflow::bench
