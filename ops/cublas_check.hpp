// Checked cuBLAS calls: BSRFLOW_CUBLAS(cublasGemmEx(...)) throws Error(Errc::cublas) carrying the
// status code, its name ("CUBLAS_STATUS_INVALID_VALUE") and the failing expression.
// cuBLAS is linked by the ops module; include this only where cuBLAS is called.
#pragma once

#include <cublas_v2.h>

#include "bsrflow/core/error.hpp"

#define BSRFLOW_CUBLAS(expr)                                                                    \
  do {                                                                                          \
    const cublasStatus_t bsrflow_cublas_status_ = (expr);                                       \
    if (bsrflow_cublas_status_ != CUBLAS_STATUS_SUCCESS)                                        \
      ::bsrflow::detail::throw_library(::bsrflow::Errc::cublas, "cuBLAS",                       \
                                       static_cast<int>(bsrflow_cublas_status_),                \
                                       cublasGetStatusName(bsrflow_cublas_status_), #expr,      \
                                       __FILE__, __LINE__);                                     \
  } while (0)
