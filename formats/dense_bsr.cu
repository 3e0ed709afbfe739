// Dense <-> BSR on the GPU (see dense_bsr.hpp for the contract).
//
// dense -> BSR symbolic: flag the block-grid cells holding a non-zero (one read of the dense
// matrix), scan the flags (cell -> block index, in BSR order), one synchronisation for nnzb,
// then col_idx / row_ptr / block coordinates. Numeric: one pass over the BSR values, each
// gathering its dense entry: reads nnzb * (R * C * sizeof(T) + 8), writes nnzb * R * C * sizeof(T).
// BSR -> dense: a 2D memset of the output, then one pass scattering the stored values.
#include "bsrflow/formats/dense_bsr.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/detail_dense_bsr_kernels.cuh"
#include "bsrflow/formats/detail_pattern_status.cuh"
#include "bsrflow/formats/detail_primitives.cuh"

namespace bsrflow {
namespace {

detail::DenseShape shape_of(int rows, int cols, std::int64_t ld, Layout layout) {
  return detail::DenseShape{rows, cols, ld, layout == Layout::row_major};
}

// Shape, leading dimension and data pointer of a dense operand (texts as in the CPU oracle).
void check_dense(const char* operation, const detail::DenseShape& d, const void* data) {
  const std::string shape = std::to_string(d.rows) + "x" + std::to_string(d.cols);
  BSRFLOW_REQUIRE(d.rows >= 0 && d.cols >= 0, Errc::invalid_argument,
                  std::string(operation) + ": dense matrix shape " + shape + " is negative");
  if (d.rows == 0 || d.cols == 0) return;
  BSRFLOW_REQUIRE(d.ld >= d.inner(), Errc::invalid_argument,
                  std::string(operation) + ": dense leading dimension " + std::to_string(d.ld) + " is below " +
                      std::to_string(d.inner()) + " for a " + (d.row_major ? "row-major " : "column-major ") +
                      shape + " matrix");
  BSRFLOW_REQUIRE(data != nullptr, Errc::invalid_argument, std::string(operation) + ": dense data is null");
}

void check_block_values(const char* operation, int R, int C) {
  BSRFLOW_REQUIRE(static_cast<std::int64_t>(R) * C <= (1 << 30), Errc::unsupported,
                  std::string(operation) + ": a " + std::to_string(R) + "x" + std::to_string(C) +
                      " block exceeds 2^30 values");
}

struct DenseToBsrStructure {
  DeviceBuffer<int> row_ptr;  // block_rows + 1
  DeviceBuffer<int> col_idx;  // nnzb
  DeviceBuffer<int> coord;    // 2 * nnzb
};

template <class T>
DenseToBsrStructure dense_to_bsr_symbolic(DenseView<const T> dense, int R, int C, Padding padding,
                                          cudaStream_t stream) {
  // ---- arguments (nothing launched yet) ----
  const detail::DenseShape d = shape_of(dense.rows, dense.cols, dense.ld, dense.layout);
  check_dense("dense_to_bsr", d, dense.data);
  check_block_shape(dense.rows, dense.cols, R, C, padding);
  check_block_values("dense_to_bsr", R, C);
  const int block_rows = ceil_div(dense.rows, R);
  const int block_cols = ceil_div(dense.cols, C);
  const std::int64_t cells = static_cast<std::int64_t>(block_rows) * block_cols;
  BSRFLOW_REQUIRE(cells < INT_MAX, Errc::unsupported,
                  "dense_to_bsr: the grid of " + std::to_string(block_rows) + " x " + std::to_string(block_cols) +
                      " blocks exceeds 2^31 - 1 blocks");

  DenseToBsrStructure s;
  s.row_ptr = DeviceBuffer<int>(static_cast<std::size_t>(block_rows) + 1, stream);
  if (cells == 0) {
    s.row_ptr.fill_bytes(0, stream);
    return s;
  }
  detail::require_device_pointer(dense.data, "dense_to_bsr", "dense data");

  // ---- flags, scan ----
  DeviceBuffer<int> flags(static_cast<std::size_t>(cells) + 1, stream);
  DeviceBuffer<int> pos(static_cast<std::size_t>(cells) + 1, stream);
  flags.fill_bytes(0, stream);
  int threads_x = 1;
  while (threads_x < 256 && threads_x < d.inner()) threads_x *= 2;
  const dim3 block(threads_x, 256 / threads_x);
  const dim3 grid(static_cast<unsigned>(std::min<std::int64_t>((d.inner() + threads_x - 1) / threads_x, 1024)),
                  static_cast<unsigned>(std::min<std::int64_t>((d.outer() + block.y - 1) / block.y, 65535)));
  detail::dense_block_flags_kernel<T><<<grid, block, 0, stream>>>(dense.data, d, detail::FastDiv(R), detail::FastDiv(C),
                                                                  block_cols, flags.data());
  BSRFLOW_CHECK_LAUNCH("dense_block_flags_kernel");
  detail::exclusive_sum(flags.data(), pos.data(), cells + 1, stream);

  // ---- the one synchronisation ----
  int nnzb = 0;
  detail::copy_to_host_async(&nnzb, pos.data() + cells, 1, stream);
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));

  // ---- structure ----
  s.col_idx = DeviceBuffer<int>(static_cast<std::size_t>(nnzb), stream);
  s.coord = DeviceBuffer<int>(2 * static_cast<std::size_t>(nnzb), stream);
  detail::dense_bsr_blocks_kernel<<<detail::elementwise_grid(cells + 1), detail::kElementwiseThreads, 0, stream>>>(
      cells, block_cols, flags.data(), pos.data(), s.col_idx.data(), reinterpret_cast<int2*>(s.coord.data()),
      s.row_ptr.data());
  BSRFLOW_CHECK_LAUNCH("dense_bsr_blocks_kernel");
  return s;
}

}  // namespace

template <class T>
DenseToBsr<T>::DenseToBsr(DenseView<const T> dense, int R, int C, Padding padding, cudaStream_t stream) {
  DenseToBsrStructure s = dense_to_bsr_symbolic(dense, R, C, padding, stream);
  rows_ = dense.rows;
  cols_ = dense.cols;
  R_ = R;
  C_ = C;
  ld_ = dense.ld;
  layout_ = dense.layout;
  nnzb_ = static_cast<std::int64_t>(s.col_idx.size());
  out_ = Bsr<T>(dense.rows, dense.cols, R, C, std::move(s.row_ptr), std::move(s.col_idx),
                DeviceBuffer<T>(static_cast<std::size_t>(nnzb_ * R * C), stream));
  block_coord_ = std::move(s.coord);
}

template <class T>
void DenseToBsr<T>::numeric(const T* dense_data, T* bsr_values, cudaStream_t stream) const {
  BSRFLOW_REQUIRE(nnzb_ == 0 || dense_data != nullptr, Errc::invalid_argument,
                  "DenseToBsr::numeric: dense_data is null");
  BSRFLOW_REQUIRE(nnzb_ == 0 || bsr_values != nullptr, Errc::invalid_argument,
                  "DenseToBsr::numeric: bsr_values is null but the output has " + std::to_string(nnzb_) +
                      " blocks (were output().values() moved out?)");
  if (nnzb_ == 0) return;
  const detail::BlockChunks chunks(R_, C_);
  detail::dense_to_bsr_numeric_kernel<T><<<chunks.grid(nnzb_), detail::BlockChunks::kThreads, 0, stream>>>(
      chunks, nnzb_, reinterpret_cast<const int2*>(block_coord_.data()), dense_data,
      shape_of(rows_, cols_, ld_, layout_), bsr_values);
  BSRFLOW_CHECK_LAUNCH("dense_to_bsr_numeric_kernel");
}

template <class T>
void bsr_to_dense(BsrView<const T> bsr, DenseView<T> out, cudaStream_t stream) {
  check_block_shape(bsr.rows, bsr.cols, bsr.R, bsr.C, Padding::zero_fill);
  check_block_values("bsr_to_dense", bsr.R, bsr.C);
  BSRFLOW_REQUIRE(out.rows == bsr.rows && out.cols == bsr.cols, Errc::invalid_argument,
                  "bsr_to_dense: the output is " + std::to_string(out.rows) + "x" + std::to_string(out.cols) +
                      " but the BSR matrix is " + std::to_string(bsr.rows) + "x" + std::to_string(bsr.cols));
  const detail::DenseShape d = shape_of(out.rows, out.cols, out.ld, out.layout);
  check_dense("bsr_to_dense", d, out.data);
  BSRFLOW_REQUIRE(bsr.nnzb >= 0 && bsr.nnzb <= INT_MAX, Errc::invalid_argument,
                  "bsr_to_dense: nnzb (" + std::to_string(bsr.nnzb) + ") must be in [0, 2^31)");
  BSRFLOW_REQUIRE(bsr.nnzb == 0 || (bsr.row_ptr != nullptr && bsr.col_idx != nullptr && bsr.values != nullptr),
                  Errc::invalid_argument,
                  "bsr_to_dense: bsr.row_ptr, bsr.col_idx or bsr.values is null but nnzb is " +
                      std::to_string(bsr.nnzb));
  if (out.rows == 0 || out.cols == 0) return;
  // Zero every element of the shape, not the gaps between leading-dimension strides.
  BSRFLOW_CUDA(cudaMemset2DAsync(out.data, static_cast<std::size_t>(out.ld) * sizeof(T), 0,
                                 static_cast<std::size_t>(d.inner()) * sizeof(T), static_cast<std::size_t>(d.outer()),
                                 stream));
  if (bsr.nnzb == 0) return;
  const detail::BlockChunks chunks(bsr.R, bsr.C);
  detail::bsr_to_dense_kernel<T><<<chunks.grid(bsr.nnzb), detail::BlockChunks::kThreads, 0, stream>>>(
      chunks, bsr.nnzb, bsr.block_rows(), bsr.block_cols(), bsr.row_ptr, bsr.col_idx, bsr.values, out.data, d);
  BSRFLOW_CHECK_LAUNCH("bsr_to_dense_kernel");
}

#define BSRFLOW_INSTANTIATE_DENSE_BSR(T) \
  template class DenseToBsr<T>;          \
  template void bsr_to_dense<T>(BsrView<const T>, DenseView<T>, cudaStream_t);

BSRFLOW_INSTANTIATE_DENSE_BSR(__half)
BSRFLOW_INSTANTIATE_DENSE_BSR(__nv_bfloat16)
BSRFLOW_INSTANTIATE_DENSE_BSR(float)
BSRFLOW_INSTANTIATE_DENSE_BSR(double)

#undef BSRFLOW_INSTANTIATE_DENSE_BSR

}  // namespace bsrflow
