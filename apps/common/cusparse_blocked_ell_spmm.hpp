// The cuSPARSE Blocked-ELL peer: the BSR matrix is packed into Blocked-ELL (every block row
// padded to the longest one, as the format requires) and multiplied with cusparseSpMM,
// CUSPARSE_SPMM_BLOCKED_ELL_ALG1. Square blocks only. f16/bf16 in, f32 compute, same dtype out.
//
// What a user pays is reported, not hidden: pack_ms() is the one-time conversion (allocation +
// packing), padded_blocks() and bytes() the storage including padding; the SpMM itself also
// walks the padding blocks, so skewed rows make it slow, and its time shows that.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bsrflow/apps/common/cusparse_spmm_call.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow::bench {

template <class T>
class CusparseBlockedEllSpmm {
 public:
  // `longest_row` = the largest number of blocks in a block row of A (the user knows the
  // pattern). Packs A, makes the descriptors and the workspace; synchronises `stream`.
  // Throws Error(unsupported) for non-square blocks or when cuSPARSE answers NOT_SUPPORTED.
  CusparseBlockedEllSpmm(cusparseHandle_t handle, BsrView<const T> A, int longest_row, DenseView<const T> B,
                         DenseView<T> C, cudaStream_t stream);

  // C = A * B on `stream`.
  void run(cudaStream_t stream) { call_.run(stream); }

  double pack_ms() const { return pack_ms_; }
  std::int64_t padded_blocks() const { return padded_blocks_; }  // stored + padding blocks
  std::size_t bytes() const { return col_idx_.bytes() + values_.bytes(); }

 private:
  DeviceBuffer<int> col_idx_;
  DeviceBuffer<T> values_;
  CusparseSpmmCall call_;  // after the packed arrays its descriptor points into
  double pack_ms_ = 0;
  std::int64_t padded_blocks_ = 0;
};

}  // namespace bsrflow::bench
