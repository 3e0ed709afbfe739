// plan_spmv (checks, device validation, kernel choice, stream partition, bulk tiles) and
// SpmvPlan::launch (checks, params, launch), with the stream kernel's instantiations: f32 and f64
// x 4 / 8 / 16 items per thread (the team kernel's are in spmv_team.cu, the bulk kernel's in
// spmv_bulk.cu).
#include "bsrflow/ops/spmv.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/validate.hpp"
#include "bsrflow/ops/gemm_shapes.hpp"
#include "bsrflow/ops/spmv_bulk.hpp"
#include "bsrflow/ops/spmv_choose.hpp"
#include "bsrflow/ops/spmv_kernel.cuh"
#include "bsrflow/ops/spmv_partition.hpp"
#include "bsrflow/ops/spmv_team.hpp"
#include "bsrflow/ops/tuning_spmv.hpp"

namespace bsrflow {

namespace {

namespace sd = spmv_detail;
namespace tuning = spmv_tuning;

std::string describe_pattern(int rows, int cols, int R, int C, std::int64_t nnzb) {
  return std::to_string(rows) + " x " + std::to_string(cols) + ", " + std::to_string(R) + " x " + std::to_string(C) +
         " blocks, nnzb " + std::to_string(nnzb);
}

// Any non-null stand-in for the values of a pattern-only view (never dereferenced).
const void* placeholder() {
  static const double byte = 0;
  return &byte;
}

template <class T, int kItems>
KernelLaunch make_launch(const sd::Params<T>& p) {
  return KernelLaunch(sd::spmv_kernel<T, tuning::kThreads, kItems>, dim3(static_cast<unsigned>(std::max(p.groups, 1))),
                      dim3(tuning::kThreads), 0, p);
}

}  // namespace

std::string spmv_kernel_name(const SpmvConfig& c) {
  const std::string shape =
      "spmv_" + std::string(dtype_name(c.dtype)) + "_r" + std::to_string(c.R) + "c" + std::to_string(c.C);
  if (c.kernel == SpmvKernel::team) return shape + "_team" + std::to_string(c.team) + "x" + std::to_string(c.rows_in_flight);
  if (c.kernel == SpmvKernel::bulk) return shape + "_bulk";
  return shape + "_t" + std::to_string(c.threads) + "i" + std::to_string(c.items_per_thread) + "_br" +
         std::to_string(c.max_block_rows_per_cta);
}

template <class T>
SpmvPlan plan_spmv(const BsrView<const T>& A, cudaStream_t stream, const SpmvOptions& options) {
  GemmBsrOperand shape = gemm_operand(A);
  if (shape.values == nullptr) shape.values = placeholder();  // a pattern: values are not needed yet
  check_bsr_operand(shape);
  BSRFLOW_REQUIRE(A.R <= tuning::kMaxBlockDim && A.C <= tuning::kMaxBlockDim, Errc::unsupported,
                  "spmv: block shape " + std::to_string(A.R) + " x " + std::to_string(A.C) +
                      " is not supported (1 <= R, C <= 8)");
  check_spmv_options(A.R, A.C, options);
  SpmvPlan plan;
  plan.rows_ = A.rows;
  plan.cols_ = A.cols;
  plan.nnzb_ = A.nnzb;

  // The structure on the device (first violation, in the user's terms), then row_ptr here. An
  // empty matrix has nothing to check or read (its row_ptr may be null).
  const int block_rows = A.block_rows();
  if (block_rows > 0) validate(A, stream);
  std::vector<int> row_ptr(static_cast<std::size_t>(block_rows) + 1, 0);
  if (block_rows > 0) {
    BSRFLOW_CUDA(cudaMemcpyAsync(row_ptr.data(), A.row_ptr, row_ptr.size() * sizeof(int), cudaMemcpyDeviceToHost, stream));
    BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  }
  SpmvRowStats stats;
  stats.block_rows = block_rows;
  stats.nnzb = A.nnzb;
  for (int i = 0; i < block_rows; ++i)
    stats.max_row_blocks = std::max<std::int64_t>(stats.max_row_blocks, row_ptr[i + 1] - row_ptr[i]);
  // The GPU matters to the bulk kernel only; an empty matrix (no GPU work) goes without it.
  const DeviceInfo device = block_rows > 0 || options.kernel == SpmvKernel::bulk ? device_info() : DeviceInfo{};
  plan.config_ = choose_spmv_config(dtype_of_v<T>, A.R, A.C, stats, options, device);
  if (plan.config_.kernel == SpmvKernel::team) {
    const int per_cta = plan.config_.team_block_rows_per_cta();
    plan.groups_ = std::max(1, static_cast<int>((static_cast<std::int64_t>(block_rows) + per_cta - 1) / per_cta));
    plan.dot_grid_ = std::min(plan.groups_, std::max(1, sd::team_resident_ctas<T>(plan.config_)));
    return plan;
  }
  if (plan.config_.kernel == SpmvKernel::bulk) {
    // Tiles: groups of whole block rows that fit one stage (no long rows: the choice saw to it).
    const SpmvPartition part =
        partition_block_rows(row_ptr, A.R * A.C, tuning::bulk_values(A.R, A.C, sizeof(T)),
                             std::max(1, tuning::kBulkRows / A.R));
    std::vector<int> tiles;
    tiles.reserve(static_cast<std::size_t>(part.groups()) * 4);
    for (int g = 0; g < part.groups(); ++g) {
      const int first = part.group_start[g], end = part.group_start[g + 1];
      tiles.insert(tiles.end(), {first, end, row_ptr[first], row_ptr[end]});
    }
    plan.groups_ = part.groups();
    plan.dot_grid_ = std::max(1, std::min(plan.groups_, sd::bulk_resident_ctas<T>(plan.config_, device.sm_count)));
    if (!tiles.empty()) plan.tiles_ = DeviceBuffer<int>::from_host(tiles, stream);
    return plan;
  }
  const SpmvPartition part =
      partition_block_rows(row_ptr, A.R * A.C, plan.config_.capacity(), plan.config_.max_block_rows_per_cta);
  plan.groups_ = part.groups();
  plan.dot_grid_ = plan.groups_;
  plan.long_rows_ = part.long_rows;
  plan.group_start_ = DeviceBuffer<int>::from_host(part.group_start, stream);
  return plan;
}

template <class T>
sd::Params<T> SpmvPlan::checked_params(const BsrView<const T>& A, const T* x, T* y, const ScalarArg<T>& alpha,
                                       const ScalarArg<T>& beta, const SpmvDot<T>& dot) const {
  BSRFLOW_REQUIRE(!empty(), Errc::invalid_argument, "spmv: the plan is empty (default-constructed)");
  BSRFLOW_REQUIRE(config_.dtype == dtype_of_v<T>, Errc::invalid_argument,
                  "spmv: the plan was made for " + std::string(dtype_name(config_.dtype)) + ", called with " +
                      std::string(dtype_name(dtype_of_v<T>)));
  BSRFLOW_REQUIRE(A.rows == rows_ && A.cols == cols_ && A.R == config_.R && A.C == config_.C && A.nnzb == nnzb_,
                  Errc::invalid_argument,
                  "spmv: A (" + describe_pattern(A.rows, A.cols, A.R, A.C, A.nnzb) +
                      ") does not match the plan's pattern (" +
                      describe_pattern(rows_, cols_, config_.R, config_.C, nnzb_) + ")");
  check_bsr_operand(gemm_operand(A));
  BSRFLOW_REQUIRE(A.cols == 0 || x != nullptr, Errc::invalid_argument,
                  "spmv: x is null but A has " + std::to_string(A.cols) + " columns");
  BSRFLOW_REQUIRE(A.rows == 0 || y != nullptr, Errc::invalid_argument,
                  "spmv: y is null but A has " + std::to_string(A.rows) + " rows");
  if (dot.result != nullptr) {
    BSRFLOW_REQUIRE(A.rows == 0 || dot.w != nullptr, Errc::invalid_argument,
                    "spmv: dot.w is null but A has " + std::to_string(A.rows) + " rows");
    check_reduce_workspace(dot.ws, grid_blocks(), 1, "spmv dot");
  }

  sd::Params<T> p;
  p.rows = A.rows;
  p.cols = A.cols;
  p.R = A.R;
  p.C = A.C;
  p.block_size = A.R * A.C;
  p.div_block_size = detail::FastDiv(static_cast<std::uint32_t>(p.block_size));
  p.div_C = detail::FastDiv(static_cast<std::uint32_t>(A.C));
  p.div_R = detail::FastDiv(static_cast<std::uint32_t>(A.R));
  p.block_rows = A.block_rows();
  p.groups = config_.kernel == SpmvKernel::team ? 0 : groups_;  // stream: CTAs; bulk: tiles
  p.group_start = group_start_.data();
  p.tiles = tiles_.data();
  p.nnzb = A.nnzb;
  p.row_ptr = A.row_ptr;
  p.col_idx = A.col_idx;
  p.values = A.values;
  p.x = x;
  p.y = y;
  p.alpha = alpha;
  p.beta = beta;
  p.dot_w = dot.w;
  p.dot_result = dot.result;
  p.dot_ws = dot.ws;
  return p;
}

template <class T>
sd::Params<T> SpmvPlan::params(std::type_identity_t<BsrView<const T>> A, const T* x, T* y,
                               std::type_identity_t<ScalarArg<T>> alpha, std::type_identity_t<ScalarArg<T>> beta,
                               std::type_identity_t<SpmvDot<T>> dot) const {
  BSRFLOW_REQUIRE(empty() || config_.kernel == SpmvKernel::stream, Errc::invalid_argument,
                  "spmv: params() serves the stream kernel's group code, but this plan runs the " +
                      std::string(config_.kernel == SpmvKernel::team ? "team" : "bulk") +
                      " kernel (plan it with SpmvOptions::kernel = stream)");
  return checked_params<T>(A, x, y, alpha, beta, dot);
}

template <class T>
KernelLaunch SpmvPlan::launch(std::type_identity_t<BsrView<const T>> A, const T* x, T* y,
                              std::type_identity_t<ScalarArg<T>> alpha, std::type_identity_t<ScalarArg<T>> beta,
                              std::type_identity_t<SpmvDot<T>> dot) const {
  const sd::Params<T> p = checked_params<T>(A, x, y, alpha, beta, dot);
  if (config_.kernel == SpmvKernel::team)
    return dot.result != nullptr ? sd::team_launch<T>(p, config_, true, grid_blocks())
                                 : sd::team_launch<T>(p, config_, false, std::max(groups_, 1));
  if (config_.kernel == SpmvKernel::bulk) return sd::bulk_launch<T>(p, config_, dot.result != nullptr, grid_blocks());
  switch (config_.items_per_thread) {
    case 4: return make_launch<T, 4>(p);
    case 16: return make_launch<T, 16>(p);
    default: return make_launch<T, 8>(p);  // plan_spmv admits only 4, 8, 16
  }
}

#define BSRFLOW_INSTANTIATE_SPMV(T)                                                                               \
  template SpmvPlan plan_spmv<T>(const BsrView<const T>&, cudaStream_t, const SpmvOptions&);                     \
  template sd::Params<T> SpmvPlan::params<T>(std::type_identity_t<BsrView<const T>>, const T*, T*,               \
                                             std::type_identity_t<ScalarArg<T>>, std::type_identity_t<ScalarArg<T>>, \
                                             std::type_identity_t<SpmvDot<T>>) const;                         \
  template KernelLaunch SpmvPlan::launch<T>(std::type_identity_t<BsrView<const T>>, const T*, T*,                \
                                            std::type_identity_t<ScalarArg<T>>, std::type_identity_t<ScalarArg<T>>, \
                                            std::type_identity_t<SpmvDot<T>>) const;

BSRFLOW_INSTANTIATE_SPMV(float)
BSRFLOW_INSTANTIATE_SPMV(double)
#undef BSRFLOW_INSTANTIATE_SPMV

}  // namespace bsrflow
