// Plan-then-run BSR x dense GEMM: C[M, N] = alpha * A_bsr[M, K] * B[K, N] + beta * C.
//
//   GemmPlan plan = plan_gemm(A.view(), describe(B), describe(C));   // once per pattern/shape
//   plan.run(A.view(), B, C, alpha, beta, stream);                    // many times
//
// plan_gemm validates, picks the kernel and its configuration (the skinny kernel for N <= 64, the
// Hopper WGMMA/TMA kernel, or the reference kernel for what the fast ones cannot take, and says
// why), builds the work schedule on the device and sizes the workspace; it allocates and
// synchronises `stream`.
// run() does no allocation, no synchronisation and no host work proportional to the matrix (it
// encodes three TMA descriptors and launches one or two kernels), so it may be captured into a
// CUDA Graph. The plan is bound to A's pattern (row_ptr / col_idx contents, which run does not
// re-read on the host) and to B's and C's shapes, layouts and leading dimensions; values and
// pointers may change between runs.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "bsrflow/core/dtype.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"
#include "bsrflow/ops/gemm_config.hpp"
#include "bsrflow/ops/gemm_shapes.hpp"

namespace bsrflow {

// A dense operand as the planner sees it: no pointer, only what fixes the kernel's choices.
struct DenseDesc {
  int rows = 0;
  int cols = 0;
  std::int64_t ld = 0;
  Layout layout = Layout::row_major;
  DType dtype = DType::f16;
};

template <class T>
DenseDesc describe(const DenseView<T>& v) {
  return {v.rows, v.cols, v.ld, v.layout, dtype_of_v<T>};
}

// sm90: the Hopper WGMMA + TMA kernel; skinny: the streaming kernel for N <= 64 (TMA loads,
// mma.sync; sm_90 and newer); reference: CUDA cores, any shape and dtype.
enum class GemmKernel : std::uint8_t { sm90, reference, skinny };

class TuningCache;  // tuning_cache.hpp

// How plan_gemm picks the Hopper kernel's configuration (docs/autotuning.md):
//  off         the heuristic (tuning_sm90.hpp)
//  cached      a winner stored for this GPU, software and problem bucket, else the heuristic
//              (a miss never tunes silently)
//  exhaustive  times every tunable configuration (gemm_tunables.hpp) on the real pattern, or a
//              faithful sample of a huge one, with scratch B / C, and stores the winner
// Tuning applies only where the plan would run the Hopper kernel and the options leave its
// configuration to the planner (swath, stages, k_chunk, orientation unset, split_long_rows on,
// not copy_only); max_ctas, tma_store_epilogue, single_box_b and l2_evict_last are honoured while
// tuning.
enum class GemmTuning : std::uint8_t { off, cached, exhaustive };

// Where a plan's configuration came from.
enum class TuningSource : std::uint8_t {
  heuristic,  // tuned defaults (also a plan that fell back to the reference kernel)
  options,    // the caller's GemmOptions fixed it
  cache,      // a stored tuning result
  tuned,      // this plan_gemm call measured it
};
const char* tuning_source_name(TuningSource s);

struct GemmOptions {
  enum class Choice : std::uint8_t { automatic, sm90, reference, skinny };
  // automatic: the skinny kernel when N <= 64 and no Hopper-only option below is set (swath,
  // stages, k_chunk, orientation, copy_only, max_ctas, cluster, row_group, items_per_stage), else the Hopper
  // kernel where it applies, else the reference kernel (the plan says why). sm90 / skinny: that kernel, or
  // Error(unsupported) saying why not, instead of falling back. reference: always reference.
  Choice kernel = Choice::automatic;
  // N columns per tile; 0 = tuned (tuning_sm90.hpp; at R = 64 it depends on how equal A's block
  // rows are, which the planner measures when swath, k_chunk and orientation are all left unset).
  int swath = 0;
  int stages = 0;  // ring depth; 0 = as many as fit in shared memory, at most 8 (12 with row groups)
  // K depth of one stage (16, 32 or 64, dividing C); 0 = tuned (tuning_sm90.hpp tuned_k_chunk),
  // else min(C, 64).
  int k_chunk = 0;
  std::optional<GemmOrientation> orientation;  // unset = tuned
  bool split_long_rows = true;                 // cut rows far above average across CTAs
  bool copy_only = false;                      // speed-of-light probe: loads only, C untouched
  // Persistent CTAs, at most; 0 = up to one per SM (the plan launches a few fewer when its tiles
  // all cost the same and fewer clusters fill the last round: plan.ctas() says how many).
  int max_ctas = 0;
  // CTAs per cluster: 0 = tuned, 1, or 2 = CTA pairs on adjacent swaths sharing each A chunk
  // (loaded once, TMA-multicast to both). 2 needs max_ctas 0 or >= 2; the plan's name ends in
  // "_pair" when pairs run.
  int cluster = 0;
  // Block rows per tile: 0 = tuned (row groups for 16 x 16 blocks from 4.5% density and 32 x 32
  // from 11% with row-major B, both from 3% with column-major B, when swath, k_chunk, orientation
  // and cluster = 2 are left unset; else 1; tuning_sm90.hpp tuned_row_group), 1, or 4 = row groups of 4
  // consecutive block rows sharing each block column's B load (16 x 16 and 32 x 32 blocks;
  // perf_log entries 48-49). A's values are gathered into item order before each run, into the
  // plan's workspace. The plan's name ends in "_g4" when row groups run. With cluster 0 or 1 only.
  int row_group = 0;
  // Row groups of 16 x 16 blocks: items per ring stage. 0 = tuned (two on GPUs whose memory moves
  // at least 4 TB/s, such as the H200; else one; tuning_sm90.hpp tuned_items_per_stage), 1, or 2
  // (half as many stages, each carrying two items; perf_log entries 50-51). The plan's name ends
  // in "_g4x2" when two run. 2 needs row groups (row_group 4, or 0 where the planner takes them).
  int items_per_stage = 0;
  // beta == 0, direct orientation: asynchronous TMA stores of output chunks (a switch for
  // measuring its effect; perf_log entry 2).
  bool tma_store_epilogue = true;
  // Row-major B with N % 64 == 0: load a stage's (k_chunk x swath) slice of B as one 3-D TMA box
  // instead of one box per 64 columns (fewer instructions on the issuing thread; a switch for
  // measuring its effect, perf_log entry 6). Other B layouts and widths always use per-panel boxes.
  bool single_box_b = true;
  // The Hopper kernel's TMA loads of A and B mark their L2 lines evict-last, so that their reuse
  // within the product is not lost to C's lines or to what earlier kernels left in L2 (+5-16% on
  // the H100, perf_log entry 20; a switch for measuring it). Those lines keep that priority after
  // the kernel until they are replaced: a following kernel's own lines go first while they last.
  bool l2_evict_last = true;
  // Skinny kernel (N <= 64): launch with programmatic dependent launch where its CTAs fill most of
  // one wave of the GPU (tuning_skinny.hpp programmatic_launch; plan.programmatic_launch() says).
  // Such a run may start while the kernel before it in the stream finishes, if that kernel lets it
  // (skinny products do), and waits for it before reading or writing any operand: products
  // launched one after another, as in a decode step, run up to 9% faster each (H200, perf_log entry 65).
  // Every skinny run lets the kernel after it start early, if that one was launched with PDL.
  bool programmatic_launch = true;
  GemmTuning tuning = GemmTuning::off;
  // Where cached / exhaustive look up and store; null = default_tuning_cache() (the user's
  // cache directory, tuning_cache.hpp). Must outlive the plan_gemm call only.
  TuningCache* tuning_cache = nullptr;
};

class GemmPlan {
 public:
  GemmPlan();
  ~GemmPlan();
  GemmPlan(GemmPlan&&) noexcept;
  GemmPlan& operator=(GemmPlan&&) noexcept;
  GemmPlan(const GemmPlan&) = delete;
  GemmPlan& operator=(const GemmPlan&) = delete;

  GemmKernel kernel() const;
  // Printable configuration, e.g. "bsr_sm90_f16_r64c64_swath256_s5" or "bsr_reference_f32_r3c3".
  std::string name() const;
  // Why the reference kernel was chosen (empty when the Hopper kernel runs).
  const std::string& fallback_reason() const;
  // Where the configuration came from, and a line saying how (the cache key on a hit or a miss;
  // the winner's and the heuristic's times after exhaustive tuning; "" with tuning off).
  TuningSource tuning_source() const;
  const std::string& tuning_note() const;
  // The Hopper configuration (meaningful when kernel() == GemmKernel::sm90).
  const Sm90Config& config() const;
  int ctas() const;             // CTAs launched (sm90: persistent; skinny: one per piece)
  // Whether run() launches with programmatic dependent launch (GemmOptions::programmatic_launch).
  bool programmatic_launch() const;
  int tiles() const;            // (pieces x swaths) work items
  int split_rows() const;       // block rows (row groups: groups) cut across CTAs (sm90, skinny)
  std::size_t workspace_bytes() const;

  // TIn / TOut must be the dtypes the plan was made for: (f16, f16|f32), (bf16, bf16|f32) on
  // either kernel, (f32, f32) and (f64, f64) on the reference kernel.
  // A run uses the plan's workspace and counters (workspace_bytes()), so runs of one plan must not
  // overlap: issue them on one stream, or order them with events. Separate plans run concurrently.
  template <class TIn, class TOut>
  void run(BsrView<const TIn> A, DenseView<const TIn> B, DenseView<TOut> C, accumulator_t<TIn> alpha,
           accumulator_t<TIn> beta, cudaStream_t stream) const;

  struct Impl;

 private:
  explicit GemmPlan(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend GemmPlan plan_gemm(const GemmBsrOperand&, DType, const DenseDesc&, const DenseDesc&, const GemmOptions&,
                            cudaStream_t);
};

// A_pattern: A's shape, block shape, nnzb and device row_ptr / col_idx (values may be null).
// Throws Error(invalid_argument) for inconsistent shapes (check_gemm_operands), Error(unsupported)
// for a dtype pair no kernel takes or a forced sm90 choice it cannot honour.
GemmPlan plan_gemm(const GemmBsrOperand& A_pattern, DType in, const DenseDesc& B, const DenseDesc& C,
                   const GemmOptions& options = {}, cudaStream_t stream = nullptr);

template <class T>
GemmPlan plan_gemm(const BsrView<T>& A, const DenseDesc& B, const DenseDesc& C, const GemmOptions& options = {},
                   cudaStream_t stream = nullptr) {
  return plan_gemm(gemm_operand(A), dtype_of_v<T>, B, C, options, stream);
}

}  // namespace bsrflow
