// Jacobi / block-Jacobi setup: one thread per block row finds its diagonal block and inverts it
// (or its diagonal) in double. Plan-time work: the first bad block row is reported by atomicMin
// on a packed (row, reason) key and read back on the host.
#include "bsrflow/ops/jacobi.hpp"

#include <cfloat>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow {

const char* preconditioner_name(Preconditioner p) noexcept {
  switch (p) {
    case Preconditioner::none: return "none";
    case Preconditioner::jacobi: return "jacobi";
    case Preconditioner::block_jacobi: return "block-jacobi";
  }
  return "?";
}

namespace {

constexpr int kMaxBlock = 8;
enum Reason : unsigned long long { kMissingBlock = 1, kZeroDiagonal = 2, kSingularBlock = 3 };

template <class T>
std::size_t inverse_count(const BsrView<const T>& A, Preconditioner kind) {
  if (kind == Preconditioner::jacobi) return static_cast<std::size_t>(A.rows);
  return static_cast<std::size_t>(A.block_rows()) * A.R * A.R;
}

__device__ void report(unsigned long long* status, long long row, Reason reason) {
  atomicMin(status, (static_cast<unsigned long long>(row) << 2) | reason);
}

template <class T>
__global__ void jacobi_setup(BsrView<const T> A, Preconditioner kind, T* inverse, unsigned long long* status) {
  const int br = blockIdx.x * blockDim.x + threadIdx.x;
  if (br >= A.block_rows()) return;
  const int b = A.R;
  // The diagonal block: binary search of block column br in this block row (sorted columns).
  int lo = A.row_ptr[br], hi = A.row_ptr[br + 1];
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (A.col_idx[mid] < br) lo = mid + 1; else hi = mid;
  }
  if (lo == A.row_ptr[br + 1] || A.col_idx[lo] != br) {
    report(status, br, kMissingBlock);
    return;
  }
  const T* block = A.values + static_cast<std::int64_t>(lo) * b * b;  // (b, b) row-major
  const std::int64_t first_row = static_cast<std::int64_t>(br) * b;
  if (kind == Preconditioner::jacobi) {
    const int rows_here = min(b, A.rows - br * b);
    for (int r = 0; r < rows_here; ++r) {
      const double d = to_double(block[r * b + r]);
      if (d == 0.0) report(status, first_row + r, kZeroDiagonal);
      inverse[first_row + r] = from_double<T>(1.0 / d);
    }
    return;
  }
  // Gauss-Jordan with partial pivoting on [a | inv].
  double a[kMaxBlock][kMaxBlock], inv[kMaxBlock][kMaxBlock];
  double scale = 0.0;
  for (int r = 0; r < b; ++r)
    for (int c = 0; c < b; ++c) {
      a[r][c] = to_double(block[r * b + c]);
      inv[r][c] = r == c ? 1.0 : 0.0;
      scale = fmax(scale, fabs(a[r][c]));
    }
  for (int col = 0; col < b; ++col) {
    int pivot = col;
    for (int r = col + 1; r < b; ++r)
      if (fabs(a[r][col]) > fabs(a[pivot][col])) pivot = r;
    if (!(fabs(a[pivot][col]) > 64.0 * DBL_EPSILON * scale)) {
      report(status, br, kSingularBlock);
      return;
    }
    for (int c = 0; c < b; ++c) {
      const double t = a[col][c]; a[col][c] = a[pivot][c]; a[pivot][c] = t;
      const double u = inv[col][c]; inv[col][c] = inv[pivot][c]; inv[pivot][c] = u;
    }
    const double d = 1.0 / a[col][col];
    for (int c = 0; c < b; ++c) { a[col][c] *= d; inv[col][c] *= d; }
    for (int r = 0; r < b; ++r) {
      if (r == col) continue;
      const double f = a[r][col];
      for (int c = 0; c < b; ++c) { a[r][c] -= f * a[col][c]; inv[r][c] -= f * inv[col][c]; }
    }
  }
  T* out = inverse + static_cast<std::int64_t>(br) * b * b;
  for (int r = 0; r < b; ++r)
    for (int c = 0; c < b; ++c) out[r * b + c] = from_double<T>(inv[r][c]);
}

}  // namespace

template <class T>
JacobiPreconditioner<T>::JacobiPreconditioner(BsrView<const T> A, Preconditioner kind, cudaStream_t stream)
    : kind_(kind), b_(A.R) {
  const char* what = kind == Preconditioner::block_jacobi ? "block-Jacobi" : "Jacobi";
  BSRFLOW_REQUIRE(A.rows == A.cols, Errc::invalid_argument,
                  std::string(what) + ": the matrix is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) +
                      ", not square");
  BSRFLOW_REQUIRE(A.R == A.C, Errc::invalid_argument,
                  std::string(what) + ": blocks are " + std::to_string(A.R) + " x " + std::to_string(A.C) +
                      ", not square");
  BSRFLOW_REQUIRE(A.R >= 1 && A.R <= kMaxBlock, Errc::unsupported,
                  std::string(what) + ": blocks of " + std::to_string(A.R) + " x " + std::to_string(A.R) +
                      "; at most 8 x 8");
  BSRFLOW_REQUIRE(kind != Preconditioner::block_jacobi || A.rows % A.R == 0, Errc::unsupported,
                  "block-Jacobi: " + std::to_string(A.rows) + " rows are not a multiple of the block size " +
                      std::to_string(A.R));
  if (kind == Preconditioner::none) return;
  inverse_ = DeviceBuffer<T>(inverse_count(A, kind), stream);
  status_ = DeviceBuffer<int>(2, stream);  // one unsigned long long
  refresh(A, stream);
}

template <class T>
void JacobiPreconditioner<T>::refresh(BsrView<const T> A, cudaStream_t stream) {
  if (kind_ == Preconditioner::none || A.block_rows() == 0) return;
  BSRFLOW_REQUIRE(A.R == b_ && inverse_count(A, kind_) == inverse_.size(), Errc::invalid_argument,
                  "Jacobi refresh: the matrix's shape differs from the one set up");
  auto* status = reinterpret_cast<unsigned long long*>(status_.data());
  status_.fill_bytes(0xFF, stream);  // ULLONG_MAX: no bad row
  const int threads = 128;
  jacobi_setup<T><<<(A.block_rows() + threads - 1) / threads, threads, 0, stream>>>(A, kind_, inverse_.data(), status);
  BSRFLOW_CHECK_LAUNCH("jacobi_setup");
  const std::vector<int> words = status_.to_host(stream);
  unsigned long long key = 0;
  std::memcpy(&key, words.data(), sizeof key);
  if (key == ULLONG_MAX) return;
  const std::string row = std::to_string(key >> 2);
  switch (key & 3u) {
    case kMissingBlock:
      BSRFLOW_FAIL(Errc::invalid_argument, std::string(kind_ == Preconditioner::jacobi ? "Jacobi" : "block-Jacobi") +
                                               ": block row " + row + " has no diagonal block");
    case kZeroDiagonal:
      BSRFLOW_FAIL(Errc::invalid_argument, "Jacobi: row " + row + " has a zero diagonal entry");
    default:
      BSRFLOW_FAIL(Errc::invalid_argument, "block-Jacobi: the diagonal block of block row " + row + " is singular");
  }
}

template class JacobiPreconditioner<float>;
template class JacobiPreconditioner<double>;

}  // namespace bsrflow
