#include "bsrflow/apps/common/timing.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "bsrflow/apps/common/markdown.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/pair_timing.hpp"
#include "bsrflow/core/stream.hpp"

namespace bsrflow::bench {

bool warmup_done(const TimingConfig& config, int runs, double busy_ms) {
  return runs >= config.warmup && busy_ms >= config.warmup_ms;
}

void rest_gpu(const TimingConfig& config, cudaStream_t stream) {
  if (config.rest_ms <= 0) return;
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(config.rest_ms));
}

namespace {

// The warm-up: config.warmup runs, then - while warmup_done says no - rounds of runs (as many as
// have been run so far, each after a flush like the timed runs) timed by events around the round.
void warm_up(const RunFn& run, const TimingConfig& config, L2Flusher* flusher, cudaStream_t stream) {
  rest_gpu(config, stream);
  if (config.warmup_ms <= 0) {
    for (int i = 0; i < config.warmup; ++i) run(stream);
    return;
  }
  Event start, stop;
  start.record(stream);
  for (int i = 0; i < config.warmup; ++i) run(stream);
  stop.record(stream);
  int runs = config.warmup;
  double busy = Event::elapsed_ms(start, stop);
  while (!warmup_done(config, runs, busy)) {
    const int round = std::max(runs, 1);
    start.record(stream);
    for (int i = 0; i < round; ++i) {
      if (config.cold_l2 && flusher != nullptr) flusher->flush(stream);
      run(stream);
    }
    stop.record(stream);
    runs += round;
    busy += Event::elapsed_ms(start, stop);
  }
}

}  // namespace

std::vector<double> time_runs(const RunFn& run, const TimingConfig& config, L2Flusher* flusher, cudaStream_t stream) {
  BSRFLOW_REQUIRE(config.iters >= 1, Errc::invalid_argument,
                  "timed runs must be at least 1 (got " + std::to_string(config.iters) + ")");
  BSRFLOW_REQUIRE(config.warmup >= 0, Errc::invalid_argument,
                  "warm-up runs must not be negative (got " + std::to_string(config.warmup) + ")");
  BSRFLOW_REQUIRE(config.rest_ms >= 0, Errc::invalid_argument,
                  "the rest before the warm-up must not be negative (got " + format_significant(config.rest_ms) + " ms)");
  BSRFLOW_REQUIRE(config.warmup_ms >= 0, Errc::invalid_argument,
                  "the warm-up time must not be negative (got " + format_significant(config.warmup_ms) + " ms)");
  warm_up(run, config, flusher, stream);

  // All runs are enqueued before reading any event, so the host never leaves the GPU idle
  // between runs (unless `run` itself synchronises).
  std::vector<Event> start, stop;
  start.reserve(config.iters);
  stop.reserve(config.iters);
  for (int i = 0; i < config.iters; ++i) {
    if (config.cold_l2 && flusher != nullptr) flusher->flush(stream);
    start.emplace_back();
    stop.emplace_back();
    start.back().record(stream);
    run(stream);
    stop.back().record(stream);
  }
  std::vector<double> ms(static_cast<std::size_t>(config.iters));
  for (int i = 0; i < config.iters; ++i) ms[i] = Event::elapsed_ms(start[i], stop[i]);
  return ms;
}

std::vector<double> time_pair_ratios(const RunFn& a, const RunFn& b, const TimingConfig& config, L2Flusher* flusher,
                                     cudaStream_t stream) {
  rest_gpu(config, stream);
  return bsrflow::time_pair_ratios(a, b, config.iters, config.warmup, config.cold_l2 ? flusher : nullptr, stream);
}

Summary time_and_summarize(const RunFn& run, const TimingConfig& config, L2Flusher* flusher, cudaStream_t stream) {
  return summarize(time_runs(run, config, flusher, stream));
}

void set_timing_fields(Record& record, const Summary& s) {
  record.set("ms", s.median).set("ms_min", s.min).set("ms_p10", s.p10).set("ms_p90", s.p90).set("ms_max", s.max);
  record.set("runs", s.count);
}

double time_once_ms(const RunFn& run, cudaStream_t stream) {
  Event start, stop;
  start.record(stream);
  run(stream);
  stop.record(stream);
  return Event::elapsed_ms(start, stop);
}

}  // namespace bsrflow::bench
