// Runs bsr_bench cases on the GPU: generates each case's data, computes bsrflow's reference
// result, then for every selected system (plus the case's --sm90-configs variants) prepares it,
// checks its output against the reference (a system that disagrees is marked "wrong" and not
// timed; the copy-only probe writes nothing and is not checked), and times it. One record per
// (case, system); see docs/benchmarks/README.md for the fields.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "bsrflow/apps/bsr_bench/bench_case.hpp"
#include "bsrflow/apps/bsr_bench/block_patterns.hpp"
#include "bsrflow/apps/bsr_bench/sm90_variants.hpp"
#include "bsrflow/apps/common/probes.hpp"
#include "bsrflow/apps/common/record.hpp"
#include "bsrflow/apps/common/run_info.hpp"
#include "bsrflow/apps/common/timing.hpp"

namespace bsrflow::bench {

// bsr_bench's timing: a burst from a rested GPU. Each series waits 200 ms with the GPU idle
// before its warm-up, so that it does not start at the clock a power-hungry series before it left
// (perf_log entry 45: identical plans up to 10% apart without the rest, within 1.8% with it).
// --warmup-ms > 0 measures the sustained, power-capped regime instead.
inline constexpr double kBenchRestMs = 200;
inline TimingConfig bench_timing() {
  TimingConfig t;
  t.rest_ms = kBenchRestMs;
  return t;
}

struct RunnerConfig {
  TimingConfig timing = bench_timing();
  int reference_iters = 3;           // timed runs of slow systems (the reference kernel on CUDA cores)
  std::vector<std::string> systems;  // names to run; empty = every registered system
  Sm90Request sm90;                  // extra Hopper configurations, one system each
  bool gpu_monitor = true;           // SM clock and power per record (NVML; gpu_monitor.hpp)
};

struct BenchRun {
  RunInfo info;
  BandwidthResult copy;  // device-to-device copy probe of this run
  BandwidthResult l2;    // L2 read probe of this run
  std::vector<Record> records;
};

// Needs a GPU. Progress goes to `log` when not null. Throws Error(invalid_argument) for an
// unknown system name or an invalid case; failures of single systems are recorded, not thrown.
BenchRun run_bench(const std::vector<BenchCase>& cases, const RunnerConfig& config, std::ostream* log);

// The case fields of a record (everything but the system's results), and back.
Record case_record(const BenchCase& c, const BlockPattern& pattern);
BenchCase case_from_record(const Record& r);

// Adds the fields that compare the systems of one case with each other: ratio_to_dense,
// speedup_vs_dense, best_peer, ratio_to_best_peer, sol_source, sol_tflops, pct_sol,
// pct_copy_bw (metrics.hpp defines SOL). Records are grouped by their "case" field; the probes
// are the case's sol_probe record and each record's l2_gbps and copy_gbps fields.
void add_comparisons(std::vector<Record>& records);

}  // namespace bsrflow::bench
