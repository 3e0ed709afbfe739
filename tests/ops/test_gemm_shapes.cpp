// check_gemm_operands: every rejected operand gets its own code and message; valid operands,
// empty ones included, pass. The checks never dereference pointers, so the "device" pointers
// here are just distinct non-null addresses.
#include <catch2/catch.hpp>

#include <cuda_fp16.h>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/gemm_shapes.hpp"
#include "bsrflow/ops/reference_gemm.hpp"
#include "support/expect_error.hpp"

using namespace bsrflow;

namespace {

int g_storage[4];
const void* const kRowPtr = &g_storage[0];
const void* const kColIdx = &g_storage[1];
const void* const kValues = &g_storage[2];
const void* const kDense = &g_storage[3];

// A: 64 x 96 in 16 x 32 blocks (4 x 3 block positions), 5 stored; B: 96 x 48; C: 64 x 48.
GemmBsrOperand valid_a() { return {64, 96, 16, 32, 5, kRowPtr, kColIdx, kValues}; }
GemmDenseOperand valid_b() { return {96, 48, 48, Layout::row_major, kDense}; }
GemmDenseOperand valid_c() { return {64, 48, 48, Layout::row_major, kDense}; }

}  // namespace

TEST_CASE("check_gemm_operands accepts valid operands", "[ops]") {
  GemmBsrOperand a = valid_a();
  GemmDenseOperand b = valid_b();
  GemmDenseOperand c = valid_c();
  SECTION("row-major, tight leading dimensions") { CHECK_NOTHROW(check_gemm_operands(a, b, c)); }
  SECTION("column-major, padded leading dimensions") {
    b = {96, 48, 100, Layout::col_major, kDense};
    c = {64, 48, 64, Layout::col_major, kDense};
    CHECK_NOTHROW(check_gemm_operands(a, b, c));
  }
  SECTION("partial edge blocks: 70 x 100 in 16 x 32 blocks, every one of the 5 x 4 positions stored") {
    a = {70, 100, 16, 32, 20, kRowPtr, kColIdx, kValues};
    b = {100, 3, 3, Layout::row_major, kDense};
    c = {70, 3, 70, Layout::col_major, kDense};
    CHECK_NOTHROW(check_gemm_operands(a, b, c));
  }
  SECTION("no stored blocks: col_idx and values may be null") {
    a = {64, 96, 16, 32, 0, kRowPtr, nullptr, nullptr};
    CHECK_NOTHROW(check_gemm_operands(a, b, c));
  }
  SECTION("empty matrices may have null pointers everywhere") {
    CHECK_NOTHROW(check_gemm_operands(GemmBsrOperand{0, 0, 16, 16, 0, nullptr, nullptr, nullptr},
                                      GemmDenseOperand{0, 0, 0, Layout::row_major, nullptr},
                                      GemmDenseOperand{0, 0, 0, Layout::col_major, nullptr}));
    // K == 0: B is 0 x 48 (nothing to read) while C = beta * C still has 64 x 48 entries.
    CHECK_NOTHROW(check_gemm_operands(GemmBsrOperand{64, 0, 16, 16, 0, kRowPtr, nullptr, nullptr},
                                      GemmDenseOperand{0, 48, 48, Layout::row_major, nullptr}, valid_c()));
    // N == 0.
    CHECK_NOTHROW(check_gemm_operands(a, GemmDenseOperand{96, 0, 0, Layout::row_major, nullptr},
                                      GemmDenseOperand{64, 0, 0, Layout::row_major, nullptr}));
  }
}

TEST_CASE("check_gemm_operands rejects a bad A", "[ops]") {
  GemmBsrOperand a = valid_a();
  const GemmDenseOperand b = valid_b();
  const GemmDenseOperand c = valid_c();
  SECTION("block height zero") {
    a.R = 0;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "A has block shape 0 x 32; R and C must be positive");
  }
  SECTION("block width negative") {
    a.C = -2;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "A has block shape 16 x -2; R and C must be positive");
  }
  SECTION("negative rows") {
    a.rows = -1;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "A is -1 x 96; dimensions must not be negative");
  }
  SECTION("negative nnzb") {
    a.nnzb = -3;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument, "A.nnzb (-3) is negative");
  }
  SECTION("more blocks than block positions") {
    a.nnzb = 13;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_structure,
                        "A stores 13 blocks but has only 4 x 3 = 12 block positions");
  }
  SECTION("null row_ptr") {
    a.row_ptr = nullptr;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "A.row_ptr is null but A has 4 block rows");
  }
  SECTION("null row_ptr even without stored blocks (row_ptr always has block rows + 1 entries)") {
    a.nnzb = 0;
    a.row_ptr = nullptr;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "A.row_ptr is null but A has 4 block rows");
  }
  SECTION("null col_idx") {
    a.col_idx = nullptr;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "A.col_idx is null but A stores 5 blocks");
  }
  SECTION("null values") {
    a.values = nullptr;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "A.values is null but A stores 5 blocks");
  }
}

TEST_CASE("check_gemm_operands rejects a bad B", "[ops]") {
  const GemmBsrOperand a = valid_a();
  GemmDenseOperand b = valid_b();
  const GemmDenseOperand c = valid_c();
  SECTION("negative columns") {
    b.cols = -1;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "B is 96 x -1; dimensions must not be negative");
  }
  SECTION("rows != A.cols") {
    b.rows = 100;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument, "B has 100 rows, expected A.cols = 96");
  }
  SECTION("negative ldb") {
    b.ld = -1;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument, "ldb (-1) is negative");
  }
  SECTION("ldb too small, row-major") {
    b.ld = 20;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "ldb (20) is smaller than 48 for a row-major B with 48 columns");
  }
  SECTION("ldb too small, column-major") {
    b.layout = Layout::col_major;
    b.ld = 48;  // enough for row-major, not for 96 rows
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "ldb (48) is smaller than 96 for a column-major B with 96 rows");
  }
  SECTION("null data") {
    b.data = nullptr;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument, "B.data is null but B is 96 x 48");
  }
}

TEST_CASE("check_gemm_operands rejects a bad C", "[ops]") {
  const GemmBsrOperand a = valid_a();
  const GemmDenseOperand b = valid_b();
  GemmDenseOperand c = valid_c();
  SECTION("columns != B.cols") {
    c.cols = 32;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "C is 64 x 32, expected A.rows x B.cols = 64 x 48");
  }
  SECTION("rows != A.rows") {
    c.rows = 63;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "C is 63 x 48, expected A.rows x B.cols = 64 x 48");
  }
  SECTION("negative ldc") {
    c.ld = -5;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument, "ldc (-5) is negative");
  }
  SECTION("ldc too small, row-major") {
    c.ld = 47;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "ldc (47) is smaller than 48 for a row-major C with 48 columns");
  }
  SECTION("ldc too small, column-major") {
    c.layout = Layout::col_major;
    c.ld = 10;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument,
                        "ldc (10) is smaller than 64 for a column-major C with 64 rows");
  }
  SECTION("null data") {
    c.data = nullptr;
    BSRFLOW_CHECK_ERROR(check_gemm_operands(a, b, c), Errc::invalid_argument, "C.data is null but C is 64 x 48");
  }
}

TEST_CASE("check_gemm_operands on typed views forwards every field", "[ops]") {
  static const int row_ptr[5] = {0, 1, 2, 4, 5};
  static const int col_idx[5] = {0, 1, 0, 2, 1};
  static const __half a_values[1] = {};
  static const __half b_values[1] = {};
  static float c_values[1] = {};
  const BsrView<const __half> A{64, 96, 16, 32, 5, row_ptr, col_idx, a_values};
  const DenseView<const __half> B{b_values, 96, 48, 48, Layout::row_major};
  DenseView<float> C{c_values, 64, 48, 64, Layout::col_major};
  CHECK_NOTHROW(check_gemm_operands(A, B, C));
  C.ld = 63;
  BSRFLOW_CHECK_ERROR(check_gemm_operands(A, B, C), Errc::invalid_argument,
                      "ldc (63) is smaller than 64 for a column-major C with 64 rows");
  BsrView<const __half> pattern_only = A;
  pattern_only.values = nullptr;
  BSRFLOW_CHECK_ERROR(check_gemm_operands(pattern_only, B, DenseView<float>{c_values, 64, 48, 64, Layout::col_major}),
                      Errc::invalid_argument, "A.values is null but A stores 5 blocks");
}

// The checks run before any CUDA call, so this needs no GPU (and proves the order).
TEST_CASE("reference_gemm rejects bad operands before touching the GPU", "[ops]") {
  static const int row_ptr[5] = {0, 1, 2, 4, 5};
  static const int col_idx[5] = {0, 1, 0, 2, 1};
  static const float values[1] = {};
  static float c_values[1] = {};
  const BsrView<const float> A{64, 96, 16, 32, 5, row_ptr, col_idx, values};
  const DenseView<const float> B{values, 100, 48, 48, Layout::row_major};
  const DenseView<float> C{c_values, 64, 48, 48, Layout::row_major};
  BSRFLOW_CHECK_ERROR((reference_gemm<float, float>(A, B, C, 1.f, 0.f, nullptr)), Errc::invalid_argument,
                      "B has 100 rows, expected A.cols = 96");
  const DenseView<const float> B_ok{values, 96, 48, 48, Layout::row_major};
  const DenseView<float> C_null{nullptr, 64, 48, 48, Layout::row_major};
  BSRFLOW_CHECK_ERROR((reference_gemm<float, float>(A, B_ok, C_null, 1.f, 0.f, nullptr)), Errc::invalid_argument,
                      "C.data is null but C is 64 x 48");
}
