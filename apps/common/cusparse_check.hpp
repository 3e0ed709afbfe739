// Checked cuSPARSE calls. cuSPARSE is only a peer (benchmarks and tests), so its check lives in
// apps/, not in the library.
#pragma once

// csr2bsr, the peer of convert_bench, is deprecated in CUDA 13 but is still what users call.
#ifndef DISABLE_CUSPARSE_DEPRECATED
#define DISABLE_CUSPARSE_DEPRECATED
#endif
#include <cusparse.h>

#include <string>

#include "bsrflow/core/error.hpp"

#define BSRFLOW_CUSPARSE(expr)                                                              \
  do {                                                                                      \
    const cusparseStatus_t bsrflow_sp_status_ = (expr);                                     \
    if (bsrflow_sp_status_ != CUSPARSE_STATUS_SUCCESS)                                      \
      ::bsrflow::detail::throw_library(::bsrflow::Errc::cusparse, "cuSPARSE",               \
                                       static_cast<int>(bsrflow_sp_status_),                \
                                       cusparseGetErrorName(bsrflow_sp_status_), #expr,     \
                                       __FILE__, __LINE__);                                 \
  } while (0)

// Like BSRFLOW_CUSPARSE, but CUSPARSE_STATUS_NOT_SUPPORTED becomes Error(unsupported) carrying
// `what`, so a benchmark can record "unsupported" for that case instead of failing.
#define BSRFLOW_CUSPARSE_OR_UNSUPPORTED(expr, what)                                         \
  do {                                                                                      \
    const cusparseStatus_t bsrflow_sp_result_ = (expr);                                     \
    if (bsrflow_sp_result_ == CUSPARSE_STATUS_NOT_SUPPORTED)                                \
      throw ::bsrflow::Error(::bsrflow::Errc::unsupported,                                  \
                             std::string(what) + ": cuSPARSE says CUSPARSE_STATUS_NOT_SUPPORTED", \
                             __FILE__, __LINE__, static_cast<int>(bsrflow_sp_result_));     \
    BSRFLOW_CUSPARSE(bsrflow_sp_result_);                                                   \
  } while (0)
