#include "bsrflow/apps/common/cusparse_cublas_cg.hpp"

#include <cmath>
#include <type_traits>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/cublas_check.hpp"

namespace bsrflow::bench {

template <class T>
CusparseCublasCg<T>::CusparseCublasCg(cusparseHandle_t cusparse, CublasHandle& cublas, CsrView<const T> A,
                                      const T* inverse_diagonal, const T* b, T* x, cudaStream_t stream)
    : cublas_(cublas), n_(A.rows), inverse_diagonal_(inverse_diagonal), b_(b), x_(x),
      r_(static_cast<std::size_t>(A.rows), stream), p_(static_cast<std::size_t>(A.rows), stream),
      q_(static_cast<std::size_t>(A.rows), stream),
      z_(inverse_diagonal != nullptr ? static_cast<std::size_t>(A.rows) : 0, stream) {
  BSRFLOW_REQUIRE(A.rows == A.cols, Errc::invalid_argument,
                  "CG peer: the matrix must be square (got " + std::to_string(A.rows) + " x " + std::to_string(A.cols) + ")");
  ax_ = std::make_unique<CusparseCsrSpmv<T>>(cusparse, A, x, q_.data(), stream);
  ap_ = std::make_unique<CusparseCsrSpmv<T>>(cusparse, A, p_.data(), q_.data(), stream);
}

template <class T>
CusparseCublasCg<T>::~CusparseCublasCg() = default;

template <class T>
T CusparseCublasCg<T>::dot(const T* a, const T* b) {
  T result = 0;
  if constexpr (std::is_same_v<T, double>) {
    BSRFLOW_CUBLAS(cublasDdot(cublas_.get(), n_, a, 1, b, 1, &result));
  } else {
    BSRFLOW_CUBLAS(cublasSdot(cublas_.get(), n_, a, 1, b, 1, &result));
  }
  return result;
}

template <class T>
void CusparseCublasCg<T>::axpy(T alpha, const T* x, T* y) {
  if constexpr (std::is_same_v<T, double>) {
    BSRFLOW_CUBLAS(cublasDaxpy(cublas_.get(), n_, &alpha, x, 1, y, 1));
  } else {
    BSRFLOW_CUBLAS(cublasSaxpy(cublas_.get(), n_, &alpha, x, 1, y, 1));
  }
}

template <class T>
void CusparseCublasCg<T>::precondition(cudaStream_t stream) {
  if (inverse_diagonal_ != nullptr) jacobi_scale<T>(n_, inverse_diagonal_, r_.data(), z_.data(), stream);
}

template <class T>
int CusparseCublasCg<T>::solve(int iterations, cudaStream_t stream) {
  cublas_.set_stream(stream);
  BSRFLOW_CUBLAS(cublasSetPointerMode(cublas_.get(), CUBLAS_POINTER_MODE_HOST));
  T* r = r_.data();
  T* p = p_.data();
  T* q = q_.data();
  const T* z = inverse_diagonal_ != nullptr ? z_.data() : r;
  auto copy = [&](const T* from, T* to) {
    if constexpr (std::is_same_v<T, double>) {
      BSRFLOW_CUBLAS(cublasDcopy(cublas_.get(), n_, from, 1, to, 1));
    } else {
      BSRFLOW_CUBLAS(cublasScopy(cublas_.get(), n_, from, 1, to, 1));
    }
  };
  // r = b - A x; z = D^-1 r; p = z; rz = r.z
  ax_->run(stream);
  copy(b_, r);
  axpy(T(-1), q, r);
  precondition(stream);
  copy(z, p);
  T rz = dot(r, z);
  for (int k = 0; k < iterations; ++k) {
    ap_->run(stream);  // q = A p
    const T pq = dot(p, q);
    if (!(pq > 0) || !std::isfinite(static_cast<double>(rz / pq))) return k;
    const T alpha = rz / pq;
    axpy(alpha, p, x_);
    axpy(-alpha, q, r);
    precondition(stream);
    const T rz_next = dot(r, z);
    T beta = rz_next / rz;
    rz = rz_next;
    if constexpr (std::is_same_v<T, double>) {
      BSRFLOW_CUBLAS(cublasDscal(cublas_.get(), n_, &beta, p, 1));
    } else {
      BSRFLOW_CUBLAS(cublasSscal(cublas_.get(), n_, &beta, p, 1));
    }
    axpy(T(1), z, p);
  }
  return iterations;
}

template class CusparseCublasCg<float>;
template class CusparseCublasCg<double>;

}  // namespace bsrflow::bench
