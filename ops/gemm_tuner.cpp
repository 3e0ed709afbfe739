#include "bsrflow/ops/gemm_tuner.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/l2_flusher.hpp"
#include "bsrflow/core/pair_timing.hpp"
#include "bsrflow/core/random_fill.hpp"
#include "bsrflow/ops/sm90_choose.hpp"

namespace bsrflow {

TuningSample tuning_sample(const std::vector<int>& row_ptr, int R, int C, int k, int n, std::size_t in_bytes,
                           std::size_t out_bytes, std::size_t budget, int sms) {
  const int block_rows = static_cast<int>(row_ptr.size()) - 1;
  BSRFLOW_REQUIRE(block_rows >= 1 && R >= 1 && C >= 1 && k >= 0 && n >= 1 && sms >= 1, Errc::invalid_argument,
                  "tuning_sample: empty problem");
  const auto band_bytes = [&](int first, int rows, int cols) {
    const std::size_t nnzb = static_cast<std::size_t>(row_ptr[first + rows] - row_ptr[first]);
    return nnzb * R * C * in_bytes + static_cast<std::size_t>(rows) * R * cols * out_bytes;
  };
  const auto b_bytes = [&](int cols) { return static_cast<std::size_t>(k) * cols * in_bytes; };
  TuningSample s{0, block_rows, n, true};
  if (band_bytes(0, block_rows, n) + b_bytes(n) <= budget) return s;
  s.whole = false;
  constexpr int kWidest = 512;
  while (b_bytes(s.n) > budget / 2 && s.n > kWidest)
    s.n = std::max(kWidest, (s.n / 2 + kWidest - 1) / kWidest * kWidest);
  const std::int64_t swaths = (s.n + kWidest - 1) / kWidest;
  const std::int64_t min_tiles = 4LL * sms;
  while (s.block_rows > 1) {
    s.first_block_row = (block_rows - s.block_rows) / 2;
    if (b_bytes(s.n) + band_bytes(s.first_block_row, s.block_rows, s.n) <= budget) break;
    const int half = s.block_rows / 2;
    if (static_cast<std::int64_t>(half) * swaths < min_tiles) break;
    s.block_rows = half;
  }
  s.first_block_row = (block_rows - s.block_rows) / 2;
  return s;
}

TimedConfig pick_winner(const TimedConfig& heuristic, const std::vector<TimedConfig>& candidates, double margin) {
  TimedConfig best = heuristic;
  for (const TimedConfig& c : candidates)
    if (c.ms < best.ms) best = c;  // the first of equal times keeps its place
  return best.ms < heuristic.ms * (1.0 - margin) ? best : heuristic;
}

double median_gain(std::vector<double> gains) {
  BSRFLOW_REQUIRE(!gains.empty(), Errc::invalid_argument, "median_gain: no pairs");
  const auto mid = gains.begin() + static_cast<std::ptrdiff_t>(gains.size() / 2);
  std::nth_element(gains.begin(), mid, gains.end());
  if (gains.size() % 2 == 1) return *mid;
  return (*mid + *std::max_element(gains.begin(), mid)) / 2;
}

bool winner_confirmed(const std::vector<double>& gains, double margin) { return median_gain(gains) > 1.0 + margin; }

namespace {

// Median of the per-run times of `plan` on the scratch operands.
template <class TIn, class TOut>
double time_plan(const GemmPlan& plan, BsrView<const TIn> A, DenseView<const TIn> B, DenseView<TOut> C,
                 cudaStream_t stream) {
  for (int i = 0; i < kTuningWarmup; ++i) plan.run<TIn, TOut>(A, B, C, 1.0f, 0.0f, stream);
  std::vector<cudaEvent_t> events(2 * kTuningTimedRuns);
  for (cudaEvent_t& e : events) BSRFLOW_CUDA(cudaEventCreate(&e));
  std::vector<float> ms(kTuningTimedRuns);
  try {
    for (int i = 0; i < kTuningTimedRuns; ++i) {
      BSRFLOW_CUDA(cudaEventRecord(events[2 * i], stream));
      plan.run<TIn, TOut>(A, B, C, 1.0f, 0.0f, stream);
      BSRFLOW_CUDA(cudaEventRecord(events[2 * i + 1], stream));
    }
    BSRFLOW_CUDA(cudaStreamSynchronize(stream));
    for (int i = 0; i < kTuningTimedRuns; ++i)
      BSRFLOW_CUDA(cudaEventElapsedTime(&ms[i], events[2 * i], events[2 * i + 1]));
  } catch (...) {
    for (cudaEvent_t e : events) cudaEventDestroy(e);
    throw;
  }
  for (cudaEvent_t e : events) cudaEventDestroy(e);
  std::nth_element(ms.begin(), ms.begin() + kTuningTimedRuns / 2, ms.end());
  return ms[kTuningTimedRuns / 2];
}

GemmTunedConfig tuned_config_of(const Sm90Config& c, bool split) {
  return {{c.swath, c.orientation, c.k_chunk(), c.row_group, c.items_per_stage}, c.stages, split};
}

struct Scratch {
  DeviceBuffer<int> row_ptr;
  DeviceBuffer<unsigned char> values, b, c;
};

template <class TIn, class TOut>
GemmTuningResult tune_typed(const GemmBsrOperand& A, const std::vector<int>& row_ptr, const DenseDesc& Bd,
                            const DenseDesc& Cd, const GemmOptions& base, const DeviceInfo& device,
                            cudaStream_t stream) {
  GemmTuningResult result;
  std::size_t free_bytes = 0, total_bytes = 0;
  BSRFLOW_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t budget = std::min(kScratchBudget, free_bytes / 4);
  const TuningSample s = tuning_sample(row_ptr, A.R, A.C, Bd.rows, Bd.cols, sizeof(TIn), sizeof(TOut), budget,
                                       device.sm_count);
  result.sample = s;

  // The sample's operands: A's band (row_ptr rebased, col_idx shared with the user's pattern),
  // scratch values, B (K x s.n) and C (band rows x s.n) in the user's layouts.
  Scratch scratch;
  const int first = row_ptr[s.first_block_row];
  const std::int64_t nnzb = row_ptr[s.first_block_row + s.block_rows] - first;
  std::vector<int> band(row_ptr.begin() + s.first_block_row, row_ptr.begin() + s.first_block_row + s.block_rows + 1);
  for (int& v : band) v -= first;
  scratch.row_ptr = DeviceBuffer<int>(band.size(), stream);
  BSRFLOW_CUDA(cudaMemcpyAsync(scratch.row_ptr.data(), band.data(), band.size() * sizeof(int),
                               cudaMemcpyHostToDevice, stream));
  const int m = s.whole ? A.rows : s.block_rows * A.R;
  const int k = Bd.rows;
  const int n = s.n;
  const auto round8 = [](std::int64_t v) { return (v + 7) / 8 * 8; };
  const std::int64_t ldb = s.whole ? Bd.ld : (Bd.layout == Layout::row_major ? n : round8(k));
  const std::int64_t ldc = s.whole ? Cd.ld : (Cd.layout == Layout::row_major ? n : round8(m));
  const std::size_t b_elems = static_cast<std::size_t>(Bd.layout == Layout::row_major ? k : n) * ldb;
  const std::size_t c_elems = static_cast<std::size_t>(Cd.layout == Layout::row_major ? m : n) * ldc;
  const std::size_t a_elems = static_cast<std::size_t>(nnzb) * A.R * A.C;
  scratch.values = DeviceBuffer<unsigned char>(std::max<std::size_t>(a_elems, 1) * sizeof(TIn), stream);
  scratch.b = DeviceBuffer<unsigned char>(std::max<std::size_t>(b_elems, 1) * sizeof(TIn), stream);
  scratch.c = DeviceBuffer<unsigned char>(std::max<std::size_t>(c_elems, 1) * sizeof(TOut), stream);
  // Random values, as in bsr_bench: a GEMM's speed depends on its data (bits toggling in the
  // tensor cores draw power); a constant fill timed the 128 x 128 kernel 4-13% off, either way
  // (perf_log entry 40).
  fill_random_nonzero(reinterpret_cast<TIn*>(scratch.values.data()), static_cast<std::int64_t>(a_elems),
                      kTuningSeed, stream);
  fill_random_nonzero(reinterpret_cast<TIn*>(scratch.b.data()), static_cast<std::int64_t>(b_elems), kTuningSeed + 1,
                      stream);

  GemmBsrOperand a = A;
  a.rows = m;
  a.nnzb = nnzb;
  a.row_ptr = scratch.row_ptr.data();
  a.col_idx = static_cast<const int*>(A.col_idx) + first;
  a.values = scratch.values.data();
  const DenseDesc b{k, n, ldb, Bd.layout, Bd.dtype};
  const DenseDesc c{m, n, ldc, Cd.layout, Cd.dtype};
  BsrView<const TIn> av;
  av.rows = m;
  av.cols = A.cols;
  av.R = A.R;
  av.C = A.C;
  av.nnzb = nnzb;
  av.row_ptr = scratch.row_ptr.data();
  av.col_idx = static_cast<const int*>(a.col_idx);
  av.values = reinterpret_cast<const TIn*>(scratch.values.data());
  const DenseView<const TIn> bv{reinterpret_cast<const TIn*>(scratch.b.data()), k, n, ldb, Bd.layout};
  const DenseView<TOut> cv{reinterpret_cast<TOut*>(scratch.c.data()), m, n, ldc, Cd.layout};

  GemmOptions plain = base;
  plain.tuning = GemmTuning::off;
  plain.kernel = GemmOptions::Choice::sm90;
  plain.tuning_cache = nullptr;

  // The heuristic first: its time is the reference the winner must beat.
  const GemmPlan heuristic = plan_gemm(a, dtype_of_v<TIn>, b, c, plain, stream);
  result.heuristic = tuned_config_of(heuristic.config(), plain.split_long_rows);
  result.heuristic_ms = time_plan<TIn, TOut>(heuristic, av, bv, cv, stream);
  result.candidates = 1;
  std::vector<TimedConfig> timed;
  // A configuration the planner refuses for this problem is not a candidate (nullopt); anything
  // else (a CUDA error) is the caller's to see.
  auto plan_candidate = [&](const GemmTunedConfig& cfg) -> std::optional<GemmPlan> {
    try {
      return plan_gemm(a, dtype_of_v<TIn>, b, c, options_for(cfg, plain), stream);
    } catch (const Error& e) {
      if (e.code() != Errc::unsupported && e.code() != Errc::invalid_argument) throw;
      return std::nullopt;
    }
  };
  for (const GemmTunedConfig& cfg : tunable_configs(dtype_of_v<TIn>, A.R, A.C, Bd.layout, device)) {
    if (cfg == result.heuristic) continue;
    std::optional<GemmPlan> candidate = plan_candidate(cfg);
    if (!candidate) continue;
    const GemmPlan& plan = *candidate;
    // When the twin with split rows splits nothing either, both have the very same schedule:
    // time only one of them (the twin, listed too).
    if (!cfg.split_long_rows && plan.split_rows() == 0) {
      GemmTunedConfig twin = cfg;
      twin.split_long_rows = true;
      const std::optional<GemmPlan> probe = plan_candidate(twin);
      if (probe && probe->split_rows() == 0) continue;
    }
    const double ms = time_plan<TIn, TOut>(plan, av, bv, cv, stream);
    ++result.candidates;
    timed.push_back({cfg, ms});
  }
  const TimedConfig w = pick_winner({result.heuristic, result.heuristic_ms}, timed, kTuningMargin);
  result.fastest = result.winner = w.config;
  result.winner_ms = w.ms;
  if (w.config == result.heuristic) return result;

  // The confirmation round: the fastest against the heuristic in alternating pairs, L2 flushed.
  const GemmPlan fastest = plan_gemm(a, dtype_of_v<TIn>, b, c, options_for(w.config, plain), stream);
  L2Flusher flusher(device.l2_bytes, stream);
  const std::vector<double> gains = time_pair_ratios(
      [&](cudaStream_t st) { heuristic.run<TIn, TOut>(av, bv, cv, 1.0f, 0.0f, st); },
      [&](cudaStream_t st) { fastest.run<TIn, TOut>(av, bv, cv, 1.0f, 0.0f, st); }, kTuningConfirmPairs, 1, &flusher,
      stream);
  result.confirm_gain = median_gain(gains);
  if (!winner_confirmed(gains, kTuningMargin)) {
    result.winner = result.heuristic;
    result.winner_ms = result.heuristic_ms;
  }
  return result;
}

}  // namespace

GemmTuningResult tune_gemm(const GemmBsrOperand& A, const std::vector<int>& row_ptr, DType in, const DenseDesc& B,
                           const DenseDesc& C, const GemmOptions& base, const DeviceInfo& device, cudaStream_t stream) {
  BSRFLOW_REQUIRE(static_cast<std::int64_t>(row_ptr.size()) == (A.R > 0 ? (A.rows + A.R - 1) / A.R : 0) + 1,
                  Errc::invalid_argument, "tune_gemm: row_ptr does not match A's block rows");
  BSRFLOW_REQUIRE(A.nnzb > 0 && B.cols > 0, Errc::invalid_argument,
                  "tune_gemm: nothing to tune (no blocks or N = 0)");
  if (in == DType::f16 && C.dtype == DType::f16)
    return tune_typed<__half, __half>(A, row_ptr, B, C, base, device, stream);
  if (in == DType::f16 && C.dtype == DType::f32)
    return tune_typed<__half, float>(A, row_ptr, B, C, base, device, stream);
  if (in == DType::bf16 && C.dtype == DType::bf16)
    return tune_typed<__nv_bfloat16, __nv_bfloat16>(A, row_ptr, B, C, base, device, stream);
  if (in == DType::bf16 && C.dtype == DType::f32)
    return tune_typed<__nv_bfloat16, float>(A, row_ptr, B, C, base, device, stream);
  BSRFLOW_FAIL(Errc::unsupported, "tune_gemm: the sm90 kernel does not take " + std::string(dtype_name(in)) + " -> " +
                                      std::string(dtype_name(C.dtype)));
}

}  // namespace bsrflow
