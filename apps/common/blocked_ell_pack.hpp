// BSR -> cuSPARSE Blocked-ELL on the device, as a user of cuSPARSE's Blocked-ELL SpMM has to do.
//
// Blocked-ELL stores every block row with the same number of block slots (`slots`, the
// longest block row); shorter rows are padded with column index -1 and zero blocks. Layout
// (cuSPARSE's): ell_col_idx is block_rows x slots, row-major; ell_values is a dense
// rows x (slots * b) row-major matrix in which slot s of block row i occupies rows
// [i*b, i*b+b) and columns [s*b, s*b+b). So a block is not contiguous there (unlike BSR).
#pragma once

#include <cuda_runtime_api.h>

#include "bsrflow/formats/bsr.hpp"

namespace bsrflow::bench {

// A must have square b x b blocks and whole blocks (rows % b == cols % b == 0); `slots` >= the
// longest block row. ell_col_idx: block_rows * slots ints; ell_values: rows * slots * b
// elements. Instantiated for __half and __nv_bfloat16. Throws Error(invalid_argument).
template <class T>
void pack_blocked_ell(BsrView<const T> A, int slots, int* ell_col_idx, T* ell_values, cudaStream_t stream);

}  // namespace bsrflow::bench
