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

namespace {
std::uint64_t element_bytes(DType dtype) { return dtype == DType::f32 ? 4u : 2u; }  // (make_tensor_map checks)
}  // namespace

CUtensorMap bsr_values_map(DType dtype, const void* values, std::int64_t nnzb, int R, int C, int box_cols,
                           const void* stand_in, int box_blocks) {
  const std::uint64_t e = element_bytes(dtype);
  const std::uint64_t dims[3] = {static_cast<std::uint64_t>(C), static_cast<std::uint64_t>(R),
                                 nnzb > 0 ? static_cast<std::uint64_t>(nnzb) : 1u};
  const std::uint64_t strides[2] = {static_cast<std::uint64_t>(C) * e,
                                    static_cast<std::uint64_t>(R) * static_cast<std::uint64_t>(C) * e};
  const std::uint32_t box[3] = {static_cast<std::uint32_t>(box_cols), static_cast<std::uint32_t>(R),
                                static_cast<std::uint32_t>(box_blocks)};
  return make_tensor_map(dtype, nnzb > 0 ? values : stand_in, 3, dims, strides, box,
                         static_cast<int>(static_cast<std::uint64_t>(box_cols) * e));
}

CUtensorMap bsr_values_rows128_map(DType dtype, const void* values, std::int64_t nnzb, int R, int C,
                                   const void* stand_in, int box_blocks) {
  const std::uint64_t e = element_bytes(dtype);
  const std::uint64_t block_bytes = static_cast<std::uint64_t>(R) * static_cast<std::uint64_t>(C) * e;
  BSRFLOW_REQUIRE(e == 2 && block_bytes % 128 == 0, Errc::invalid_argument,
                  "bsr_values_rows128_map: 16-bit blocks of whole 128-byte rows only");
  const std::uint64_t dims[3] = {64, block_bytes / 128, nnzb > 0 ? static_cast<std::uint64_t>(nnzb) : 1u};
  const std::uint64_t strides[2] = {128, block_bytes};
  const std::uint32_t box[3] = {64, static_cast<std::uint32_t>(block_bytes / 128), static_cast<std::uint32_t>(box_blocks)};
  return make_tensor_map(dtype, nnzb > 0 ? values : stand_in, 3, dims, strides, box, 128);
}

CUtensorMap rows128_map(DType dtype, const void* base, std::int64_t rows, int box_rows, const void* stand_in) {
  BSRFLOW_REQUIRE(element_bytes(dtype) == 2, Errc::invalid_argument, "rows128_map: 16-bit elements only");
  const std::uint64_t dims[2] = {64, rows > 0 ? static_cast<std::uint64_t>(rows) : 1u};
  const std::uint64_t stride[1] = {128};
  const std::uint32_t box[2] = {64, static_cast<std::uint32_t>(box_rows)};
  return make_tensor_map(dtype, rows > 0 ? base : stand_in, 2, dims, stride, box, 128);
}

CUtensorMap dense_map(DType dtype, const void* data, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                      bool row_major, const std::uint32_t (&box)[2], int swizzle_bytes, const void* stand_in) {
  const bool none = rows == 0;
  const std::uint64_t r = none ? 1u : static_cast<std::uint64_t>(rows);
  const std::uint64_t c = static_cast<std::uint64_t>(cols);
  // (with no rows any legal stride will do; ld may even be 0 for a column-major 0 x N operand)
  const std::uint64_t stride[1] = {none ? 128u : static_cast<std::uint64_t>(ld) * element_bytes(dtype)};
  const std::uint64_t dims[2] = {row_major ? c : r, row_major ? r : c};
  return make_tensor_map(dtype, none ? stand_in : data, 2, dims, stride, box, swizzle_bytes);
}

}  // namespace bsrflow::sm90
