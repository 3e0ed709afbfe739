// BSR -> dense on the device for the dense peer (cuBLAS runs on the densified matrix in the
// same dtype). Stored blocks are written, everything else is zero.
#pragma once

#include <cuda_runtime_api.h>

#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow::bench {

// `out` is A.rows x A.cols, either layout, ld >= min_ld. Entries of partial edge blocks that
// fall outside the matrix are dropped. Instantiated for __half and __nv_bfloat16.
// Throws Error(invalid_argument) on a shape mismatch.
template <class T>
void densify_bsr(BsrView<const T> A, DenseView<T> out, cudaStream_t stream);

}  // namespace bsrflow::bench
