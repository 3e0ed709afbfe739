#include "bsrflow/ops/gemm_shapes.hpp"

#include <string>

#include "bsrflow/core/error.hpp"

namespace bsrflow {

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

std::string shape(std::int64_t rows, std::int64_t cols) { return str(rows) + " x " + str(cols); }

// Ceil division in 64 bits: rows + R - 1 can pass INT_MAX.
std::int64_t blocks_along(std::int64_t extent, std::int64_t block) { return (extent + block - 1) / block; }

}  // namespace

void check_bsr_operand(const GemmBsrOperand& A) {
  BSRFLOW_REQUIRE(A.R > 0 && A.C > 0, Errc::invalid_argument,
                  "A has block shape " + shape(A.R, A.C) + "; R and C must be positive");
  BSRFLOW_REQUIRE(A.rows >= 0 && A.cols >= 0, Errc::invalid_argument,
                  "A is " + shape(A.rows, A.cols) + "; dimensions must not be negative");
  BSRFLOW_REQUIRE(A.nnzb >= 0, Errc::invalid_argument, "A.nnzb (" + str(A.nnzb) + ") is negative");
  const std::int64_t block_rows = blocks_along(A.rows, A.R);
  const std::int64_t block_cols = blocks_along(A.cols, A.C);
  // Cannot overflow: both factors are below 2^31.
  BSRFLOW_REQUIRE(A.nnzb <= block_rows * block_cols, Errc::invalid_structure,
                  "A stores " + str(A.nnzb) + " blocks but has only " + shape(block_rows, block_cols) + " = " +
                      str(block_rows * block_cols) + " block positions");
  BSRFLOW_REQUIRE(block_rows == 0 || A.row_ptr != nullptr, Errc::invalid_argument,
                  "A.row_ptr is null but A has " + str(block_rows) + " block rows");
  BSRFLOW_REQUIRE(A.nnzb == 0 || A.col_idx != nullptr, Errc::invalid_argument,
                  "A.col_idx is null but A stores " + str(A.nnzb) + " blocks");
  BSRFLOW_REQUIRE(A.nnzb == 0 || A.values != nullptr, Errc::invalid_argument,
                  "A.values is null but A stores " + str(A.nnzb) + " blocks");
}

namespace {

// `name` is "B" or "C", `ld_name` "ldb" or "ldc" as in BLAS.
void check_dense_storage(const GemmDenseOperand& D, const char* name, const std::string& ld_name) {
  BSRFLOW_REQUIRE(D.ld >= 0, Errc::invalid_argument, ld_name + " (" + str(D.ld) + ") is negative");
  const bool row_major = D.layout == Layout::row_major;
  const std::int64_t min_ld = row_major ? D.cols : D.rows;
  BSRFLOW_REQUIRE(D.ld >= min_ld, Errc::invalid_argument,
                  ld_name + " (" + str(D.ld) + ") is smaller than " + str(min_ld) + " for a " +
                      (row_major ? "row-major " : "column-major ") + name + " with " + str(min_ld) +
                      (row_major ? " columns" : " rows"));
  const bool empty = D.rows == 0 || D.cols == 0;
  BSRFLOW_REQUIRE(empty || D.data != nullptr, Errc::invalid_argument,
                  std::string(name) + ".data is null but " + name + " is " + shape(D.rows, D.cols));
}

}  // namespace

void check_gemm_operands(const GemmBsrOperand& A, const GemmDenseOperand& B, const GemmDenseOperand& C) {
  check_bsr_operand(A);

  BSRFLOW_REQUIRE(B.rows >= 0 && B.cols >= 0, Errc::invalid_argument,
                  "B is " + shape(B.rows, B.cols) + "; dimensions must not be negative");
  BSRFLOW_REQUIRE(B.rows == A.cols, Errc::invalid_argument,
                  "B has " + str(B.rows) + " rows, expected A.cols = " + str(A.cols));
  check_dense_storage(B, "B", "ldb");

  BSRFLOW_REQUIRE(C.rows == A.rows && C.cols == B.cols, Errc::invalid_argument,
                  "C is " + shape(C.rows, C.cols) + ", expected A.rows x B.cols = " + shape(A.rows, B.cols));
  check_dense_storage(C, "C", "ldc");
}

}  // namespace bsrflow
