#include "bsrflow/ops/sm90_tensor_map.hpp"

#include <cuda_runtime_api.h>
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include <string>

#include "bsrflow/core/error.hpp"

namespace bsrflow::sm90 {
namespace {

PFN_cuTensorMapEncodeTiled_v12000 encode_function() {
  // Resolved once; a function-local static is initialised thread-safely.
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult query{};
    BSRFLOW_CUDA(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &query));
    BSRFLOW_REQUIRE(query == cudaDriverEntryPointSuccess && p != nullptr, Errc::unsupported,
                    "the CUDA driver does not provide cuTensorMapEncodeTiled (TMA needs driver >= 12.0)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

CUtensorMapSwizzle swizzle_enum(int bytes) {
  switch (bytes) {
    case 0: return CU_TENSOR_MAP_SWIZZLE_NONE;
    case 32: return CU_TENSOR_MAP_SWIZZLE_32B;
    case 64: return CU_TENSOR_MAP_SWIZZLE_64B;
    case 128: return CU_TENSOR_MAP_SWIZZLE_128B;
  }
  BSRFLOW_FAIL(Errc::invalid_argument, "TMA swizzle of " + std::to_string(bytes) + " bytes (0, 32, 64 or 128)");
}

}  // namespace

CUtensorMap make_tensor_map(DType dtype, const void* base, int rank, const std::uint64_t* dims,
                            const std::uint64_t* strides_bytes, const std::uint32_t* box, int swizzle_bytes) {
  BSRFLOW_REQUIRE(dtype == DType::f16 || dtype == DType::bf16 || dtype == DType::f32, Errc::unsupported,
                  std::string("TMA map of ") + std::string(dtype_name(dtype)) + " elements (f16/bf16/f32 only)");
  BSRFLOW_REQUIRE(rank >= 1 && rank <= 5, Errc::invalid_argument, "TMA map rank " + std::to_string(rank));
  const CUtensorMapDataType type = dtype == DType::f16    ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                   : dtype == DType::bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                          : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  cuuint64_t gdim[5];
  cuuint64_t gstride[4];
  cuuint32_t bdim[5];
  cuuint32_t estride[5];
  for (int i = 0; i < rank; ++i) {
    gdim[i] = dims[i];
    bdim[i] = box[i];
    estride[i] = 1;
    if (i + 1 < rank) gstride[i] = strides_bytes[i];
  }
  CUtensorMap map{};
  const CUresult status = encode_function()(
      &map, type, static_cast<cuuint32_t>(rank), const_cast<void*>(base), gdim, gstride, bdim, estride,
      CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle_enum(swizzle_bytes), CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (status != CUDA_SUCCESS) {
    // (appends piece by piece: GCC 12 warns falsely on `" " + std::to_string(...)` here)
    std::string what = "cuTensorMapEncodeTiled rejected a rank-";
    what += std::to_string(rank);
    what += " map (status ";
    what += std::to_string(static_cast<int>(status));
    what += "): dims";
    auto list = [&what](auto value) {
      what += ' ';
      what += std::to_string(value);
    };
    for (int i = 0; i < rank; ++i) list(dims[i]);
    what += ", byte strides";
    for (int i = 0; i + 1 < rank; ++i) list(strides_bytes[i]);
    what += ", box";
    for (int i = 0; i < rank; ++i) list(box[i]);
    what += ", swizzle";
    list(swizzle_bytes);
    BSRFLOW_FAIL(Errc::invalid_argument, what);
  }
  return map;
}

}  // namespace bsrflow::sm90
