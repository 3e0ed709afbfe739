// RAII handles for the peer libraries (cuBLAS, cuSPARSE), made once per benchmark run so that
// library initialisation never lands in a timed region.
#pragma once

#include <cublas_v2.h>
#include <library_types.h>

#include "bsrflow/apps/common/cusparse_check.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/dtype.hpp"

namespace bsrflow::bench {

// CUDA_R_16F, CUDA_R_16BF, CUDA_R_32F, CUDA_R_64F; Error(unsupported) for the fp8 types.
cudaDataType cuda_data_type(DType t);

class CublasHandle {
 public:
  // Also hands cuBLAS a workspace allocated here, so cuBLAS allocates nothing while timed (or
  // inside a stream capture).
  explicit CublasHandle(cudaStream_t stream);
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }
  // Points the handle at `stream` and hands it this object's workspace again: cublasSetStream
  // resets a handle's workspace to cuBLAS's default pool (cuBLAS docs, cublasSetStream), so a bare
  // cublasSetStream would undo what the constructor set. The one way to switch streams here.
  void set_stream(cudaStream_t stream);

 private:
  cublasHandle_t handle_ = nullptr;
  DeviceBuffer<unsigned char> workspace_;
};

class CusparseHandle {
 public:
  CusparseHandle();
  ~CusparseHandle();
  CusparseHandle(const CusparseHandle&) = delete;
  CusparseHandle& operator=(const CusparseHandle&) = delete;
  cusparseHandle_t get() const { return handle_; }

 private:
  cusparseHandle_t handle_ = nullptr;
};

}  // namespace bsrflow::bench
