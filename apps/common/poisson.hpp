// The benchmarks' model matrices, built on the host (simple, and fast enough at the sizes used):
//
//  - poisson3d_csr: the 7-point finite-difference Laplacian on a grid^3 cube (Dirichlet
//    boundary folded in: 6 on the diagonal, -1 for each neighbour inside the cube), rows
//    numbered x fastest, then y, then z. grid = 128 gives 2,097,152 rows and 14,581,760 entries.
//  - poisson3d_block_bsr: the same 7-point node stencil with a dense b x b block per node pair,
//    as a BSR with R = C = b (3 x 3: one block per node of a 3-DOF problem such as elasticity).
//    Diagonal blocks D = (7b + 6) I + (J - I) (7b + 6 on the diagonal, 1 elsewhere), neighbour
//    blocks N = -(I + J) (-2 on the diagonal, -1 elsewhere); J is the all-ones b x b matrix.
//    A = I (x) D + Adj (x) N is symmetric (D, N and the adjacency are) and strictly diagonally
//    dominant with a positive diagonal, hence SPD: every row's off-diagonal magnitudes add to
//    at most (b - 1) + 6 (b + 1) = 7b + 5 < 7b + 6. All values are small integers, exact in
//    every dtype. Row sums: (7b + 6) + (b - 1) - k (b + 1) for a node with k neighbours.
//    grid = 96, b = 3 gives 2,654,208 rows, 6,137,856 blocks.
#pragma once

#include <cstdint>

#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/csr.hpp"

namespace bsrflow::bench {

// Stored entries (blocks) of the grid^3 7-point stencil: 7 * grid^3 - 6 * grid^2.
std::int64_t poisson3d_nnz(int grid);

// Columns sorted within each row. Throws Error(invalid_argument) when grid <= 0 or the matrix
// would have 2^31 or more rows or entries (int32 indices). Instantiated for __half,
// __nv_bfloat16, float and double (6 and -1 are exact in all of them).
template <class T>
HostCsr<T> poisson3d_csr(int grid);

// Block columns sorted within each block row. Throws Error(invalid_argument) when grid <= 0,
// b < 1, or the matrix would have 2^31 or more rows or blocks. Instantiated for float and double.
template <class T>
HostBsr<T> poisson3d_block_bsr(int grid, int b);

}  // namespace bsrflow::bench
