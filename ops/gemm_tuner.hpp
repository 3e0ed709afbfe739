// The exhaustive autotuner behind plan_gemm(..., tuning = exhaustive): every tunable
// configuration (gemm_tunables.hpp) is planned and timed on the real pattern with scratch
// operands, and the fastest wins unless the heuristic is within noise of it.
//
// Timing: the tuner allocates its own A values, B and C (never touches the user's), fills them
// with random non-zero values (core/random_fill.hpp), and for each configuration runs
// kTuningWarmup launches, then kTuningTimedRuns launches each between two CUDA events; a
// configuration's time is the median. beta is 0 (C is not read: the common case, and the one
// with the TMA-store epilogue). A winner other than the heuristic must then confirm its gain
// against the heuristic in kTuningConfirmPairs alternating pairs, each run after an L2 flush (as
// bsr_bench times): back-to-back series on a warm L2 crowned configurations that measured 0.4-3%
// slower with L2 flushed (perf_log entries 40 and 44).
//
// Huge problems are tuned on a faithful sample (tuning_sample): the scratch operands must fit a
// budget (min(kScratchBudget, free device memory / 4)).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/gemm_tunables.hpp"

namespace bsrflow {

constexpr int kTuningWarmup = 2;
constexpr int kTuningTimedRuns = 15;
// The heuristic keeps its place unless a candidate is more than this much faster: a guard against
// crowning a noise winner. NOTES: an assumed figure for the run-to-run noise of a median of 15 on
// an idle GPU; not yet measured here (perf_log.md entry 5 says what to check).
constexpr double kTuningMargin = 0.01;
// Pairs (heuristic, winner) of the confirmation round; the winner is kept when the median of
// t(heuristic) / t(winner) over them is above 1 + kTuningMargin.
constexpr int kTuningConfirmPairs = 10;
constexpr std::size_t kScratchBudget = std::size_t{2} << 30;  // 2 GiB
constexpr std::uint64_t kTuningSeed = 0x7475'6e65;  // the scratch values' seed (B takes seed + 1)

// What the tuner runs on: block rows [first_block_row, first_block_row + block_rows) of A and
// the first n columns of B and C.
struct TuningSample {
  int first_block_row = 0;
  int block_rows = 0;
  int n = 0;
  bool whole = true;  // the sample is the whole problem
};

// The sampling rule (pure host code, CPU-tested):
//  1. The whole problem when A's values + B + C fit in `budget` bytes.
//  2. Else N is halved (kept a multiple of 512, the widest swath, and at least 512) until B
//     takes at most half the budget: per-tile work does not depend on N, only the tile count.
//  3. Then a contiguous band of block rows centred in the matrix is halved until the band's A
//     values and C rows fit the rest, but never below 4 waves of tiles (4 x sms tiles, or the
//     whole matrix if it has fewer), so that the load balance a schedule sees stays realistic.
//     A band of consecutive rows keeps the row-length distribution of patterns whose long rows
//     are spread over the matrix (power-law ranks are shuffled) and the locality of banded ones.
TuningSample tuning_sample(const std::vector<int>& row_ptr, int R, int C, int k, int n, std::size_t in_bytes,
                           std::size_t out_bytes, std::size_t budget, int sms);

// One timed candidate.
struct TimedConfig {
  GemmTunedConfig config;
  double ms = 0;
};

// The fastest of `candidates` if it beats the heuristic by more than `margin` (a fraction of the
// heuristic's time), else the heuristic: the tuner's choice, as a pure function.
TimedConfig pick_winner(const TimedConfig& heuristic, const std::vector<TimedConfig>& candidates, double margin);

// The confirmation round's verdict, as a pure function: the median of `gains` (t(heuristic) /
// t(winner) per pair) is above 1 + margin. Throws Error(invalid_argument) if `gains` is empty.
double median_gain(std::vector<double> gains);
bool winner_confirmed(const std::vector<double>& gains, double margin);

struct GemmTuningResult {
  GemmTunedConfig winner;
  GemmTunedConfig heuristic;
  double winner_ms = 0;
  double heuristic_ms = 0;
  int candidates = 0;  // configurations timed (the heuristic's included)
  // The candidates' fastest before the confirmation round, and its median gain there over the
  // heuristic (0 when the fastest was the heuristic: no round).
  GemmTunedConfig fastest;
  double confirm_gain = 0;
  TuningSample sample;
};

// Times the candidates of (A's block shape, in, B's layout) on `device`. `row_ptr` is A's row_ptr
// on the host; A.row_ptr and A.col_idx are device pointers (A.values is not read). `base` supplies
// max_ctas, tma_store_epilogue and single_box_b. Allocates, synchronises `stream`. Throws Error(unsupported)
// when the Hopper kernel does not take the problem.
GemmTuningResult tune_gemm(const GemmBsrOperand& A, const std::vector<int>& row_ptr, DType in, const DenseDesc& B,
                           const DenseDesc& C, const GemmOptions& base, const DeviceInfo& device, cudaStream_t stream);

}  // namespace bsrflow
