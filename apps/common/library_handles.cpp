#include "bsrflow/apps/common/library_handles.hpp"

#include "bsrflow/ops/cublas_check.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

cudaDataType cuda_data_type(DType t) {
  switch (t) {
    case DType::f16: return CUDA_R_16F;
    case DType::bf16: return CUDA_R_16BF;
    case DType::f32: return CUDA_R_32F;
    case DType::f64: return CUDA_R_64F;
    default: break;
  }
  BSRFLOW_FAIL(Errc::unsupported, "dtype " + std::string(dtype_name(t)) + " has no peer-library equivalent here");
}

namespace {
// NVIDIA's recommendation for Hopper is a 32 MiB cuBLAS workspace.
constexpr std::size_t kCublasWorkspaceBytes = std::size_t{32} << 20;
}  // namespace

CublasHandle::CublasHandle(cudaStream_t stream) : workspace_(kCublasWorkspaceBytes, stream) {
  BSRFLOW_CUBLAS(cublasCreate(&handle_));
  try {
    set_stream(stream);
  } catch (...) {
    (void)cublasDestroy(handle_);
    throw;
  }
}

void CublasHandle::set_stream(cudaStream_t stream) {
  BSRFLOW_CUBLAS(cublasSetStream(handle_, stream));
  BSRFLOW_CUBLAS(cublasSetWorkspace(handle_, workspace_.data(), workspace_.bytes()));
}

CublasHandle::~CublasHandle() {
  if (handle_ != nullptr) (void)cublasDestroy(handle_);
}

CusparseHandle::CusparseHandle() { BSRFLOW_CUSPARSE(cusparseCreate(&handle_)); }

CusparseHandle::~CusparseHandle() {
  if (handle_ != nullptr) (void)cusparseDestroy(handle_);
}

}  // namespace bsrflow::bench
