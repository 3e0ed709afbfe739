// Plan-then-run BSR SpMV, f32 and f64, any block R x C with 1 <= R, C <= 8 (1 x 1 is CSR):
//
//   y = alpha * A x + beta * y          (y is not read when beta is 0)
//   optionally, in the same kernel: *dot.result = dot.w . y_out   (CG's p . Ap with w = p)
//
//   SpmvPlan plan = plan_spmv(A.view(), stream);               // once per pattern
//   plan.run(A.view(), x, y, scalar(1.0), scalar(0.0), stream); // many times
//
// Three kernels; the plan picks one (SpmvOptions::kernel forces it, name() says which):
//  - bulk (spmv_bulk_kernel.cuh, sm_90 and newer), for short rows of square blocks 1x1 to 4x4:
//    the plan cuts the block rows into tiles of at most 2048 values (4096 for f32 blocks larger
//    than 1x1: 16 KiB either way) and 256 element rows; a persistent grid's CTAs each run one
//    producer lane that copies a tile's row_ptr, col_idx and values into a 3-stage shared-memory
//    ring by cp.async.bulk, and 8 consumer warps that compute one element row per thread from
//    shared memory. The fused dot is one grid_sum at the end. Chosen when the GPU has the bulk
//    copies, the block is square up to 4x4 and one thread walks the longest element row in at
//    most 4 rounds of 8 values' gathers (tuning_spmv.hpp: bulk_rows_short); forced
//    (SpmvOptions::kernel = bulk) it takes any square block up to 4x4 and block rows of up to one
//    stage's values. Any element-aligned pointers (the edges of unaligned arrays are copied by
//    plain loads). On the H100 (docs/perf_log_spmv.md entries 4-5) it reaches 87.5% / 83% of the
//    copy bandwidth on the 1x1 Poisson matrix (f64 / f32; team kernel 77% / 71%), 93% / 86% on
//    3x3 and 91% / 91% on 4x4.
//  - team (spmv_team_kernel.cuh), for short block rows: a team of 8, 16 or 32 lanes per block
//    row (the narrowest team at least as wide as the mean row), one stored block per lane; each
//    lane loads its block's column and values and the team's other block rows in flight before
//    it uses any, gathers x, and the team adds its lanes by a butterfly. No shared memory, no
//    CTA barrier. A launch with the fused dot runs a second form on the resident CTAs, whose
//    warps loop over the block rows before one grid_sum. Square blocks 1x1 to 4x4; chosen when
//    the longest block row needs at most 8 passes of its team and a block is at most 72 bytes
//    (f64 3x3, f32 4x4; at f64 4x4 the stream kernel is ahead). On the H100 (docs/perf_log_spmv.md
//    entry 3) it moves 1.18x (Poisson 1x1 f64), 1.18x (f32) and 1.27x (3x3 f64) the bytes per
//    second of the stream kernel.
//  - stream (spmv_kernel.cuh), any pattern and block shape: CSR-stream over block rows.
//    plan_spmv cuts the block rows into groups of consecutive block rows whose values fit one
//    CTA's shared memory (256 threads x items_per_thread values) and whose element rows are at
//    most max_rows_per_cta; each CTA streams its group's values, block columns and x
//    (read-only path) with coalesced loads into shared memory as products, then reduces each
//    row with a team of 1 to 32 lanes sized to the group. A block row longer than one CTA's
//    capacity gets a CTA of its own that loops over it and reduces with the whole block. So a
//    long row never serialises onto one thread; the longest row does bound one CTA's time (no
//    row is split across CTAs).
//
// Contract details:
//  - plan_spmv validates the structure on the device (formats/validate.hpp; Errc::invalid_structure
//    with the first violation), reads row_ptr back, chooses the kernel (spmv_choose.hpp) and
//    builds the stream kernel's partition or the bulk kernel's tiles, or queries the team or bulk
//    kernel's resident CTAs (and raises the bulk kernel's shared-memory limit): it allocates and
//    synchronises `stream`, so it cannot run inside stream capture (Errc::capture).
//  - launch() / run() do no allocation, no synchronisation and no host work proportional to the
//    matrix: safe inside stream capture. The plan is bound to A's pattern (row_ptr / col_idx
//    contents, which run() does not re-read on the host) and checks only that A has the plan's
//    shape, block shape and nnzb; values and the pointers may change between runs.
//  - Row padding: rows / cols need not be multiples of R / C. x has `cols` entries and y `rows`;
//    padding entries of A (zero by the format) are skipped, never multiplied with x.
//  - A block column outside [0, block cols) (a structure that was not validated) contributes
//    nothing instead of reading outside x.
//  - Arithmetic in T. stream: each product rounded, products of a row added per lane in block
//    order then column order, lanes combined by a fixed butterfly (or cub::BlockReduce for a long
//    row). team: each lane accumulates its blocks' products by fma in column order, lanes combined
//    by a fixed butterfly. bulk: one thread accumulates its element row's products by fma in block
//    order, then column order. Then y_out = alpha * sum (+ beta * y by fma). Deterministic: the
//    same plan gives bitwise the same y and dot run to run (the kernels differ in the last bits).
//    The fused dot sums w_i * y_out_i per thread in a fixed order, then
//    grid_sum over the plan's grid_blocks() CTAs.
//  - Scalars (alpha, beta) are ScalarArg: host values or device pointers read at run time;
//    "beta is 0" is decided on the device for both.
//  - y must not overlap x, A or w (not checked).
//
// Errors (first failing check wins):
//   plan_spmv: A's shape checks (gemm_shapes.hpp: "A has block shape 0 x 4; R and C must be
//   positive", "A.row_ptr is null but A has 4 block rows", ...; values may be null in a pattern);
//   Errc::unsupported "spmv: block shape 9 x 3 is not supported (1 <= R, C <= 8)";
//   SpmvOptions: "SpmvOptions: items_per_thread 5 is not one of 0 (default), 4, 8, 16",
//   "SpmvOptions: max_rows_per_cta (-1) must be in [0, 65536]", "SpmvOptions: team 12 is not one
//   of 0 (default), 8, 16, 32", "SpmvOptions: items_per_thread and max_rows_per_cta configure the
//   stream kernel; kernel = team takes neither", Errc::unsupported "spmv: the team kernel takes
//   square blocks of 1 x 1 to 4 x 4, not 2 x 5 (SpmvOptions::kernel = stream takes any)", the
//   same for "spmv: the bulk kernel takes ...", "SpmvOptions: items_per_thread and
//   max_rows_per_cta configure the stream kernel; kernel = bulk takes neither", "SpmvOptions: team
//   configures the team kernel; kernel = bulk does not take it"; then the structure (not for an
//   empty matrix, which has none); then for a forced bulk kernel Errc::unsupported "spmv: the
//   bulk kernel needs cp.async.bulk (sm_90 or newer); GPU NAME is sm_80 (SpmvOptions::kernel =
//   team or stream runs there)", "spmv: the bulk kernel takes block rows of at most 2048 values
//   (one stage); the longest has 2700 (SpmvOptions::kernel = stream takes any)" (4096 values for
//   f32 blocks larger than 1x1).
//   launch / run, Errc::invalid_argument: "spmv: the plan is empty (default-constructed)",
//   "spmv: the plan was made for f64, called with f32", "spmv: A (10 x 12, 3 x 3 blocks, nnzb 40)
//   does not match the plan's pattern (10 x 12, 3 x 3 blocks, nnzb 41)", A's null pointers as
//   above, "spmv: x is null but A has 12 columns", "spmv: y is null but A has 10 rows",
//   "spmv: dot.w is null but A has 10 rows", params() on a team (bulk) plan "spmv: params() serves
//   the stream kernel's group code, but this plan runs the team kernel (plan it with
//   SpmvOptions::kernel = stream)", and for the dot's workspace the messages of
//   check_reduce_workspace with "spmv dot" ("spmv dot: the grid has 40 blocks but the reduce
//   workspace serves at most 32").
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/kernel_launch.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/ops/reduce_workspace.hpp"
#include "bsrflow/ops/scalar_arg.hpp"

namespace bsrflow {

namespace spmv_detail {
template <class T>
struct Params;  // spmv_kernel.cuh
}  // namespace spmv_detail

// The optional fused dot: when result != nullptr, *result = w . y_out (w has A.rows entries;
// result in device memory). ws must serve plan.grid_blocks() blocks of width 1:
//   ReduceScratch<double> scratch(plan.grid_blocks(), 1, stream);
template <class T>
struct SpmvDot {
  const T* w = nullptr;
  T* result = nullptr;
  ReduceWorkspace<T> ws{};
};

enum class SpmvKernel {
  automatic,  // bulk, else team, where the shape, the GPU and the rows allow (spmv_choose.cpp), else stream
  stream,
  team,
  bulk,
};

// Knobs for trying variants; 0 means the tuned default (tuning_spmv.hpp). The stream kernel's
// defaults: 8 items x 256 rows for 1x1 blocks (CSR), 16 x 512 for larger blocks. Setting
// items_per_thread or max_rows_per_cta under kernel = automatic asks for the stream kernel.
struct SpmvOptions {
  int items_per_thread = 0;  // stream: values each of the 256 threads streams per CTA: 4, 8 or 16
  int max_rows_per_cta = 0;  // stream: element rows one CTA reduces (rounded down to whole block rows, >= 1 block row)
  SpmvKernel kernel = SpmvKernel::automatic;
  int team = 0;  // team: lanes per block row, 8, 16 or 32 (0: the narrowest at least as wide as the mean row)
};

// The configuration a plan runs; name() is derived from it.
struct SpmvConfig {
  DType dtype = DType::f64;
  int R = 1;
  int C = 1;
  SpmvKernel kernel = SpmvKernel::stream;  // stream, team or bulk, never automatic
  int threads = 256;
  // stream
  int items_per_thread = 8;
  int max_block_rows_per_cta = 256;  // = max(1, max_rows_per_cta / R)
  // team
  int team = 8;            // lanes per block row
  int rows_in_flight = 1;  // block rows per team, loaded together
  int capacity() const { return threads * items_per_thread; }  // stream: values per CTA in the streamed mode
  int team_block_rows_per_cta() const { return threads / team * rows_in_flight; }
};

// e.g. "spmv_f64_r3c3_t256i8_br85" (stream), "spmv_f64_r1c1_team8x4" (team of 8, 4 block rows in
// flight), "spmv_f64_r1c1_bulk" (bulk)
std::string spmv_kernel_name(const SpmvConfig& config);

class SpmvPlan;

// A_pattern: shape, block shape, nnzb and device row_ptr / col_idx (values may be null). T is
// float or double. See the header comment for what it checks and costs.
template <class T>
SpmvPlan plan_spmv(const BsrView<const T>& A_pattern, cudaStream_t stream, const SpmvOptions& options = {});

// The same for a view of mutable values (a non-const Bsr's view()); defined below.
template <class T>
  requires(!std::is_const_v<T>)
SpmvPlan plan_spmv(const BsrView<T>& A_pattern, cudaStream_t stream, const SpmvOptions& options = {});

class SpmvPlan {
 public:
  SpmvPlan() = default;

  // T is deduced from x and y; A may also be a view of mutable values (it converts).
  template <class T>
  KernelLaunch launch(std::type_identity_t<BsrView<const T>> A, const T* x, T* y,
                      std::type_identity_t<ScalarArg<T>> alpha, std::type_identity_t<ScalarArg<T>> beta,
                      std::type_identity_t<SpmvDot<T>> dot = {}) const;

  // launch()'s checks and kernel parameters without the launch: for kernels that run the stream
  // kernel's group code inside a loop of their own (graph/pcg_persistent.cuh; they include
  // spmv_kernel.cuh). A team or bulk plan refuses (Errc::invalid_argument).
  template <class T>
  spmv_detail::Params<T> params(std::type_identity_t<BsrView<const T>> A, const T* x, T* y,
                                std::type_identity_t<ScalarArg<T>> alpha, std::type_identity_t<ScalarArg<T>> beta,
                                std::type_identity_t<SpmvDot<T>> dot = {}) const;

  template <class T>
  void run(std::type_identity_t<BsrView<const T>> A, const T* x, T* y, std::type_identity_t<ScalarArg<T>> alpha,
           std::type_identity_t<ScalarArg<T>> beta, cudaStream_t stream,
           std::type_identity_t<SpmvDot<T>> dot = {}) const {
    launch<T>(A, x, y, alpha, beta, dot).launch(stream);
  }

  bool empty() const noexcept { return groups_ < 0; }
  std::string name() const { return spmv_kernel_name(config_); }
  const SpmvConfig& config() const noexcept { return config_; }
  // CTAs of a launch with the fused dot (>= 1): what its workspace must serve. (A team plan's
  // launch without the dot runs more: one warp per chunk of block rows; a bulk plan runs the same
  // persistent grid with and without it.)
  int grid_blocks() const noexcept { return dot_grid_ > 0 ? dot_grid_ : 1; }
  // stream: block rows longer than one CTA's capacity (each gets a CTA of its own); team, bulk: 0.
  int long_rows() const noexcept { return long_rows_; }
  // Device memory the plan holds (stream: the partition, one int per CTA + 1; bulk: 4 ints per
  // tile; team: none).
  std::size_t workspace_bytes() const noexcept { return group_start_.bytes() + tiles_.bytes(); }

 private:
  template <class T>
  friend SpmvPlan plan_spmv(const BsrView<const T>& A_pattern, cudaStream_t stream, const SpmvOptions& options);

  template <class T>
  spmv_detail::Params<T> checked_params(const BsrView<const T>& A, const T* x, T* y, const ScalarArg<T>& alpha,
                                        const ScalarArg<T>& beta, const SpmvDot<T>& dot) const;

  SpmvConfig config_{};
  int rows_ = 0;
  int cols_ = 0;
  std::int64_t nnzb_ = 0;
  // CTAs of a launch (stream: groups; team: CTAs of team_block_rows_per_cta(); bulk: tiles, run
  // by dot_grid_ CTAs); -1: empty plan
  int groups_ = -1;
  int dot_grid_ = 0;  // CTAs of a launch with the fused dot (stream: groups_; team, bulk: at most the resident CTAs)
  int long_rows_ = 0;
  DeviceBuffer<int> group_start_;  // stream: (groups + 1) first block row of each CTA's group
  DeviceBuffer<int> tiles_;        // bulk: (groups, 4) first / end block row, first / end block
};

template <class T>
  requires(!std::is_const_v<T>)
SpmvPlan plan_spmv(const BsrView<T>& A_pattern, cudaStream_t stream, const SpmvOptions& options) {
  return plan_spmv<T>(BsrView<const T>(A_pattern), stream, options);
}

}  // namespace bsrflow
