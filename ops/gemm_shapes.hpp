// Operand checks shared by every BSR x dense GEMM path (the reference kernel, the Hopper
// kernel's plan, the CPU reference): C[M, N] = alpha * A[M, K] * B[K, N] + beta * C.
//
// Everything here is host-side and looks only at shapes, leading dimensions and whether
// pointers are null; it never reads an index array (structure validation is formats/validate.hpp)
// and never touches the GPU, so it is cheap enough to run on every call.
//
// Errors are Error(Errc::invalid_argument) in the user's terms, the first failing check wins:
//   A:  "A has block shape 0 x 4; R and C must be positive"
//       "A is -1 x 96; dimensions must not be negative"
//       "A.nnzb (-3) is negative"
//       "A stores 20 blocks but has only 4 x 4 = 16 block positions"   (Errc::invalid_structure)
//       "A.row_ptr is null but A has 4 block rows"
//       "A.col_idx is null but A stores 12 blocks", "A.values is null but A stores 12 blocks"
//   B:  "B is -1 x 5; dimensions must not be negative"
//       "B has 100 rows, expected A.cols = 96"
//       "ldb (-1) is negative"
//       "ldb (20) is smaller than 32 for a row-major B with 32 columns"
//       "ldb (20) is smaller than 96 for a column-major B with 96 rows"
//       "B.data is null but B is 96 x 32"
//   C:  "C is 64 x 32, expected A.rows x B.cols = 64 x 48"
//       then the ld and null-pointer checks as for B, with "ldc" and "C".
// Empty operands may have null pointers (nothing is read or written through them).
#pragma once

#include <cstdint>

#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"

namespace bsrflow {

// The facts the checks need, without element types, so that one compiled function serves
// every dtype and a planner that holds only dimensions can call it too.
struct GemmBsrOperand {
  int rows = 0;
  int cols = 0;
  int R = 1;
  int C = 1;
  std::int64_t nnzb = 0;
  const void* row_ptr = nullptr;
  const void* col_idx = nullptr;
  const void* values = nullptr;
};

struct GemmDenseOperand {
  int rows = 0;
  int cols = 0;
  std::int64_t ld = 0;
  Layout layout = Layout::row_major;
  const void* data = nullptr;
};

void check_gemm_operands(const GemmBsrOperand& A, const GemmDenseOperand& B, const GemmDenseOperand& C);

// The checks of A alone (the "A:" messages above), first in check_gemm_operands; SpMV's entry
// points use them too.
void check_bsr_operand(const GemmBsrOperand& A);

template <class TA>
GemmBsrOperand gemm_operand(const BsrView<TA>& A) {
  return {A.rows, A.cols, A.R, A.C, A.nnzb, A.row_ptr, A.col_idx, A.values};
}
template <class T>
GemmDenseOperand gemm_operand(const DenseView<T>& D) {
  return {D.rows, D.cols, D.ld, D.layout, D.data};
}

// The form every GEMM entry point calls first; TA, TB, TC may be const-qualified.
template <class TA, class TB, class TC>
void check_gemm_operands(const BsrView<TA>& A, const DenseView<TB>& B, const DenseView<TC>& C) {
  check_gemm_operands(gemm_operand(A), gemm_operand(B), gemm_operand(C));
}

}  // namespace bsrflow
