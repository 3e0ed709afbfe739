// BSRFLOW_CUBLAS: a failing status becomes Error(Errc::cublas) with the status and its name.
// cublasGetStatusName needs no GPU, so this runs everywhere.
#include <catch2/catch.hpp>

#include <string>

#include "bsrflow/ops/cublas_check.hpp"

using namespace bsrflow;

namespace {
cublasStatus_t returns(cublasStatus_t status) { return status; }
}  // namespace

TEST_CASE("BSRFLOW_CUBLAS throws Errc::cublas naming the status and the call", "[ops]") {
  // The macro is a statement; lambdas make it an expression for CHECK_*.
  CHECK_NOTHROW([] { BSRFLOW_CUBLAS(returns(CUBLAS_STATUS_SUCCESS)); }());
  CHECK_THROWS_WITH([] { BSRFLOW_CUBLAS(returns(CUBLAS_STATUS_INVALID_VALUE)); }(),
                    Catch::Contains("CUBLAS_STATUS_INVALID_VALUE"));
  try {
    BSRFLOW_CUBLAS(returns(CUBLAS_STATUS_NOT_SUPPORTED));
    FAIL_CHECK("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::cublas);
    CHECK(e.status() == static_cast<int>(CUBLAS_STATUS_NOT_SUPPORTED));
    CHECK(e.message().find("returns(CUBLAS_STATUS_NOT_SUPPORTED) failed: cuBLAS status") != std::string::npos);
    CHECK(e.message().find("CUBLAS_STATUS_NOT_SUPPORTED)") != std::string::npos);
    CHECK(std::string(e.file()).find("test_cublas_check.cpp") != std::string::npos);
  }
}
