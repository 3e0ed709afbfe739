// CPU oracle conversions: simple, obviously right, used by tests to check the GPU conversions
// bit for bit, and by users who want a host-side conversion. Semantics are the GPU ones:
//  - coo_to_csr: sorts by (row, col); duplicates are summed in accumulator_t<T> (f32 for the
//    16-bit types, f64 for f64) in their order of appearance in the input, then rounded once
//    to T. Explicit zeros are kept.
//  - csr_to_bsr: a block is stored when any CSR entry (explicit zeros included) falls in it;
//    other entries of a stored block are zero. Padding as in padding.hpp.
//  - bsr_to_csr: every entry of every stored block that lies inside rows x cols becomes a CSR
//    entry (zeros inside stored blocks included); padding entries are dropped.
//  - dense_to_bsr: a block is stored when any of its entries compares != 0 (NaN counts as
//    non-zero, -0.0 as zero).
//  - bsr_to_dense: stored blocks written, everything else zero.
//  - bsr_transpose: rows x cols with R x C blocks -> cols x rows with C x R blocks, each block
//    transposed, col_idx sorted within each new block row.
// Every function validates its input (validate.hpp) and throws Error(invalid_structure) on a
// broken one.
#pragma once

#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/coo.hpp"
#include "bsrflow/formats/csr.hpp"
#include "bsrflow/formats/dense.hpp"
#include "bsrflow/formats/padding.hpp"

namespace bsrflow::host {

template <class T> HostCsr<T> coo_to_csr(const HostCoo<T>& coo);
template <class T> HostBsr<T> csr_to_bsr(const HostCsr<T>& csr, int R, int C, Padding padding);
template <class T> HostCsr<T> bsr_to_csr(const HostBsr<T>& bsr);
template <class T> HostBsr<T> dense_to_bsr(const HostDense<T>& dense, int R, int C, Padding padding);
template <class T> HostDense<T> bsr_to_dense(const HostBsr<T>& bsr, Layout layout);
template <class T> HostBsr<T> bsr_transpose(const HostBsr<T>& bsr);

// Explicitly instantiated for __half, __nv_bfloat16, float and double in host_convert.cpp.

}  // namespace bsrflow::host
