#include <catch2/catch.hpp>

#include <string>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"

using namespace bsrflow;

TEST_CASE("Error carries code, message, status and location", "[core]") {
  try {
    BSRFLOW_FAIL(Errc::invalid_structure, "block row 17: column 9 appears after 12");
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::invalid_structure);
    CHECK(e.message() == "block row 17: column 9 appears after 12");
    CHECK(std::string(e.what()).find("invalid structure: block row 17") != std::string::npos);
    CHECK(std::string(e.file()).find("test_error.cpp") != std::string::npos);
    CHECK(e.line() > 0);
    CHECK(e.status() == 0);
  }
}

TEST_CASE("BSRFLOW_REQUIRE evaluates the message only on failure", "[core]") {
  int evaluated = 0;
  auto message = [&] { ++evaluated; return std::string("bad"); };
  BSRFLOW_REQUIRE(true, Errc::invalid_argument, message());
  CHECK(evaluated == 0);
  CHECK_THROWS_AS([&] { BSRFLOW_REQUIRE(false, Errc::invalid_argument, message()); }(), Error);
  CHECK(evaluated == 1);
}

TEST_CASE("CUDA errors carry the runtime status and its name", "[core]") {
  try {
    detail::throw_cuda(cudaErrorInvalidValue, "cudaMemcpy(dst, src, n)", "f.cu", 3);
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::cuda);
    CHECK(e.status() == static_cast<int>(cudaErrorInvalidValue));
    CHECK(e.message().find("cudaErrorInvalidValue") != std::string::npos);
    CHECK(e.message().find("cudaMemcpy(dst, src, n)") != std::string::npos);
  }
}

TEST_CASE("Library errors name the library and status", "[core]") {
  try {
    detail::throw_library(Errc::cublas, "cuBLAS", 7, "CUBLAS_STATUS_INVALID_VALUE", "cublasGemmEx(...)", "f.cu", 3);
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::cublas);
    CHECK(e.status() == 7);
    CHECK(e.message().find("CUBLAS_STATUS_INVALID_VALUE") != std::string::npos);
  }
}

TEST_CASE("DType names round-trip and unknown names are rejected", "[core]") {
  for (DType t : {DType::f16, DType::bf16, DType::f32, DType::f64}) CHECK(parse_dtype(dtype_name(t)) == t);
  CHECK(dtype_size(DType::f16) == 2);
  CHECK(dtype_size(DType::bf16) == 2);
  CHECK(dtype_size(DType::f32) == 4);
  CHECK(dtype_size(DType::f64) == 8);
  CHECK_THROWS_WITH(parse_dtype("f17"), Catch::Contains("unknown dtype 'f17'"));
  static_assert(dtype_of_v<const __half> == DType::f16);
  static_assert(std::is_same_v<accumulator_t<__nv_bfloat16>, float>);
  static_assert(std::is_same_v<accumulator_t<double>, double>);
}
