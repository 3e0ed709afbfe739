#include "bsrflow/apps/common/cusparse_spmm_call.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <utility>

#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {
constexpr float kAlpha = 1.0f;  // CUDA_R_32F compute: float scalars, host pointer mode
constexpr float kBeta = 0.0f;
}  // namespace

cusparseOrder_t cusparse_order(Layout layout) {
  return layout == Layout::row_major ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
}

template <class T>
CusparseSpmmCall::CusparseSpmmCall(cusparseHandle_t handle, cusparseConstSpMatDescr_t a, DenseView<const T> B,
                                   DenseView<T> C, cusparseSpMMAlg_t alg, std::string what, cudaStream_t stream)
    : handle_(handle), a_(a), alg_(alg), what_(std::move(what)) {
  try {
    const cudaDataType type = cuda_data_type(dtype_of_v<T>);
    BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
    BSRFLOW_CUSPARSE(cusparseCreateConstDnMat(&b_, B.rows, B.cols, B.ld, B.data, type, cusparse_order(B.layout)));
    BSRFLOW_CUSPARSE(cusparseCreateDnMat(&c_, C.rows, C.cols, C.ld, C.data, type, cusparse_order(C.layout)));
    std::size_t bytes = 0;
    BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
        cusparseSpMM_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &kAlpha,
                                a_, b_, &kBeta, c_, CUDA_R_32F, alg_, &bytes),
        what_ + " (cusparseSpMM_bufferSize)");
    workspace_ = DeviceBuffer<unsigned char>(bytes, stream);
  } catch (...) {
    release();  // the destructor does not run for a half-built object
    throw;
  }
}

CusparseSpmmCall::~CusparseSpmmCall() { release(); }

CusparseSpmmCall::CusparseSpmmCall(CusparseSpmmCall&& other) noexcept
    : handle_(other.handle_),
      a_(std::exchange(other.a_, nullptr)),
      b_(std::exchange(other.b_, nullptr)),
      c_(std::exchange(other.c_, nullptr)),
      alg_(other.alg_),
      what_(std::move(other.what_)),
      workspace_(std::move(other.workspace_)) {}

CusparseSpmmCall& CusparseSpmmCall::operator=(CusparseSpmmCall&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = other.handle_;
    a_ = std::exchange(other.a_, nullptr);
    b_ = std::exchange(other.b_, nullptr);
    c_ = std::exchange(other.c_, nullptr);
    alg_ = other.alg_;
    what_ = std::move(other.what_);
    workspace_ = std::move(other.workspace_);
  }
  return *this;
}

void CusparseSpmmCall::release() noexcept {
  if (a_ != nullptr) (void)cusparseDestroySpMat(a_);
  if (b_ != nullptr) (void)cusparseDestroyDnMat(b_);
  if (c_ != nullptr) (void)cusparseDestroyDnMat(c_);
  a_ = nullptr;
  b_ = nullptr;
  c_ = nullptr;
}

void CusparseSpmmCall::run(cudaStream_t stream) {
  BSRFLOW_REQUIRE(a_ != nullptr, Errc::invalid_argument, "CusparseSpmmCall::run on an empty call");
  BSRFLOW_CUSPARSE(cusparseSetStream(handle_, stream));
  BSRFLOW_CUSPARSE_OR_UNSUPPORTED(
      cusparseSpMM(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &kAlpha, a_, b_,
                   &kBeta, c_, CUDA_R_32F, alg_, workspace_.data()),
      what_ + " (cusparseSpMM)");
}

template CusparseSpmmCall::CusparseSpmmCall(cusparseHandle_t, cusparseConstSpMatDescr_t, DenseView<const __half>,
                                            DenseView<__half>, cusparseSpMMAlg_t, std::string, cudaStream_t);
template CusparseSpmmCall::CusparseSpmmCall(cusparseHandle_t, cusparseConstSpMatDescr_t,
                                            DenseView<const __nv_bfloat16>, DenseView<__nv_bfloat16>,
                                            cusparseSpMMAlg_t, std::string, cudaStream_t);
template CusparseSpmmCall::CusparseSpmmCall(cusparseHandle_t, cusparseConstSpMatDescr_t, DenseView<const float>,
                                            DenseView<float>, cusparseSpMMAlg_t, std::string, cudaStream_t);

}  // namespace bsrflow::bench
