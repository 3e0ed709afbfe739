// BSR -> CSR on the GPU, split into a symbolic phase (BSR pattern -> CSR structure + block
// placements) and a numeric phase (BSR values -> CSR values).
//
// Semantics are those of host::bsr_to_csr (host_convert.hpp): every entry of every stored block
// that lies inside rows x cols becomes a CSR entry, zeros included (the CSR pattern follows the
// BSR pattern, never the values); padding entries of partial edge blocks are dropped. Columns
// come out sorted because the BSR block columns are.
#pragma once

#include <cstdint>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/csr.hpp"

namespace bsrflow {

template <class T>
class BsrToCsr {
 public:
  // Symbolic phase: reads bsr.row_ptr / bsr.col_idx (values ignored, may be null), builds the
  // CSR structure and allocates its values. Allocates and synchronises `stream`; the work after
  // the synchronisation is stream-ordered, so the input must stay valid until `stream` gets past
  // it. Throws Error(invalid_argument) for a bad shape / block shape, a null or host index array,
  // or a result of more than 2^31 - 1 entries; Error(invalid_structure) with validate()'s message
  // for a broken BSR pattern.
  BsrToCsr(BsrView<const T> bsr, cudaStream_t stream);

  // Numeric phase: bsr_values (nnzb * R * C, same pattern as at construction) -> csr_values
  // (output().nnz()). No allocation, no synchronisation: capturable in a CUDA Graph.
  void numeric(const T* bsr_values, T* csr_values, cudaStream_t stream) const;
  // Same, into output().values().
  void numeric(const T* bsr_values, cudaStream_t stream) { numeric(bsr_values, out_.values().data(), stream); }

  Csr<T>& output() { return out_; }
  const Csr<T>& output() const { return out_; }

 private:
  Csr<T> out_;
  // Per stored block: where its rows land in the CSR (see detail_bsr_to_csr_kernels.cuh).
  DeviceBuffer<int> placement_;  // 4 ints per block
  int R_ = 1;
  int C_ = 1;
  std::int64_t nnzb_ = 0;
  std::int64_t csr_nnz_ = 0;
};

}  // namespace bsrflow
