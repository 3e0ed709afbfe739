#include "bsrflow/core/dtype.hpp"

#include <string>

#include "bsrflow/core/error.hpp"

namespace bsrflow {

DType parse_dtype(std::string_view name) {
  for (DType t : {DType::f16, DType::bf16, DType::f32, DType::f64, DType::fp8_e4m3, DType::fp8_e5m2})
    if (dtype_name(t) == name) return t;
  BSRFLOW_FAIL(Errc::invalid_argument,
               "unknown dtype '" + std::string(name) + "' (expected f16, bf16, f32 or f64)");
}

}  // namespace bsrflow
