// The one timing method of every benchmark: CUDA events around each run, warm-up runs first,
// and a cold L2 before each timed run (a scratch buffer of twice the L2 size is written outside
// the timed region, so no run finds the previous run's inputs in L2).
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

#include "bsrflow/apps/common/record.hpp"
#include "bsrflow/apps/common/stats.hpp"
#include "bsrflow/core/l2_flusher.hpp"

namespace bsrflow::bench {

struct TimingConfig {
  int warmup = 3;       // untimed runs first (lazy initialisation, clocks, caches of the library)
  int iters = 20;       // timed runs; the median of these is reported
  bool cold_l2 = true;  // flush L2 before each timed run
  // Warm-up continues (in rounds of runs like the timed ones, flushes included) until its runs
  // have kept the GPU busy this long. The GPU sets its clock from its recent power draw over tens
  // to hundreds of milliseconds, so this chooses the regime measured: 0 (the default) times a
  // burst, which starts at whatever clock the previous work left; a few hundred ms times the
  // sustained, power-capped rate (perf_log entry 45: H100, 200 ms, cuBLAS dense 894 -> ~760
  // TFLOPS, the 128 x 128 GEMM 642 -> 539).
  double warmup_ms = 0;
  // The GPU idles this long (the host waits for the stream, then sleeps) before the warm-up, so
  // that a burst starts from a rested GPU rather than from the clock the previous work left
  // (perf_log entry 45). 0: no rest.
  double rest_ms = 0;
};

// Whether a warm-up of `runs` runs that kept the GPU busy for `busy_ms` is done.
bool warmup_done(const TimingConfig& config, int runs, double busy_ms);

// config.rest_ms of an idle GPU as far as `stream` is concerned: waits for the stream, then
// sleeps. time_runs and time_pair_ratios begin with it; a caller that wants to observe only the
// series (e.g. a clock monitor) rests first and times with rest_ms = 0.
void rest_gpu(const TimingConfig& config, cudaStream_t stream);

// Work to time: enqueues one run on the stream it is given (it may also synchronise).
using RunFn = std::function<void(cudaStream_t)>;

// config.rest_ms with the GPU idle, `config.warmup` untimed runs (more until warmup_done), then
// `config.iters` timed runs (each preceded by a flush when config.cold_l2 and `flusher` is
// given). Returns the per-run times in milliseconds. Throws Error(invalid_argument) if iters < 1,
// warmup < 0, warmup_ms < 0 or rest_ms < 0.
std::vector<double> time_runs(const RunFn& run, const TimingConfig& config, L2Flusher* flusher, cudaStream_t stream);

// core/pair_timing.hpp's time_pair_ratios with `config`: config.rest_ms with the GPU idle, then
// config.iters pairs after config.warmup runs of each, every run after a flush when config.cold_l2 and `flusher` is given. Returns
// t(a) / t(b) for each pair.
std::vector<double> time_pair_ratios(const RunFn& a, const RunFn& b, const TimingConfig& config, L2Flusher* flusher,
                                     cudaStream_t stream);

// time_runs + summarize.
Summary time_and_summarize(const RunFn& run, const TimingConfig& config, L2Flusher* flusher, cudaStream_t stream);

// The timing fields every benchmark record carries: ms (the median), ms_min, ms_p10, ms_p90,
// ms_max, runs.
void set_timing_fields(Record& record, const Summary& s);

// One run between events (for one-time costs such as a format conversion a user pays once).
double time_once_ms(const RunFn& run, cudaStream_t stream);

}  // namespace bsrflow::bench
