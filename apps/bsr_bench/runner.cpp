#include "bsrflow/apps/bsr_bench/runner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <ostream>

#include "bsrflow/apps/bsr_bench/block_patterns.hpp"
#include "bsrflow/apps/bsr_bench/chain_run.hpp"
#include "bsrflow/apps/bsr_bench/metrics.hpp"
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/apps/common/gpu_monitor.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/apps/common/relative_error.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/random_fill.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/ops/reference_gemm.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow::bench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string_view kind_name(SystemKind k) {
  switch (k) {
    case SystemKind::bsrflow: return "bsrflow";
    case SystemKind::dense_baseline: return "dense_baseline";
    case SystemKind::dense_random: return "dense_random";
    case SystemKind::sparse_peer: return "sparse_peer";
    case SystemKind::sol_probe: return "sol_probe";
  }
  return "?";
}

// What every case shares: the stream, library handles, the L2 flusher and the probes.
struct Session {
  Stream stream;
  CublasHandle cublas{stream};
  CusparseHandle cusparse;
  DeviceInfo device = device_info();
  L2Flusher flusher{device.l2_bytes, stream};
  GpuMonitor monitor{device.ordinal};  // SM clock and power during each timed series
  double copy_gbps = kNaN;
  double l2_gbps = kNaN;
  RunInfo info;
};

// The GPU's state over the timed series (null fields when the monitor is unavailable). The idle
// reason is left out of clock_limits: it marks the host's gaps between timed runs.
void record_activity(Record& r, const GpuActivity& a) {
  if (a.samples == 0) {
    for (const char* key : {"sm_mhz", "sm_mhz_min", "sm_mhz_max", "power_w", "monitor_samples", "clock_limits"})
      r.set(key, Field());
    return;
  }
  r.set("sm_mhz", a.sm_mhz_mean).set("sm_mhz_min", a.sm_mhz_min).set("sm_mhz_max", a.sm_mhz_max);
  r.set("power_w", a.power_w_mean).set("monitor_samples", a.samples);
  r.set("clock_limits", clock_limit_names(a.reasons_any & ~clock_limit::idle));
}

// The selected systems plus the case's --sm90-configs variants, right after the bsrflow paths.
std::vector<System*> systems_for_case(const std::vector<System*>& selected,
                                      const std::vector<std::unique_ptr<System>>& owned) {
  std::vector<System*> out = selected;
  auto after_bsrflow = out.begin();
  for (auto it = out.begin(); it != out.end(); ++it)
    if ((*it)->kind() == SystemKind::bsrflow || (*it)->kind() == SystemKind::sol_probe) after_bsrflow = it + 1;
  std::vector<System*> extra;
  for (const auto& s : owned) extra.push_back(s.get());
  out.insert(after_bsrflow, extra.begin(), extra.end());
  return out;
}

// The system's timed run: its product on the case's operands, or for a chained case
// (BenchCase::chain) one prepared run per link (links[l] holds the l-th weights) as a ChainRun.
std::unique_ptr<PreparedRun> prepare_links(System& system, const std::vector<CaseInputs>& links) {
  if (links.size() == 1) return system.prepare(links.front());
  std::vector<std::unique_ptr<PreparedRun>> runs;
  for (const CaseInputs& link : links) runs.push_back(system.prepare(link));
  return std::make_unique<ChainRun>(std::move(runs));
}

// Prepares, checks and times one system on one case (the case's operands in links[0], a chain's
// other weights in the rest).
template <class T>
Record run_system(System& system, const std::vector<CaseInputs>& links, const RunnerConfig& config, Session& session,
                  DeviceBuffer<T>& out_c, const DeviceBuffer<T>& ref_c, Record r) {
  const CaseInputs& in = links.front();
  const BenchCase& c = *in.bench_case;
  cudaStream_t stream = in.stream;
  const double tolerance = correctness_tolerance(c.dtype);
  r.set("system", system.name()).set("system_kind", std::string(kind_name(system.kind())));
  if (!system.variant().empty()) r.set("sm90_variant", system.variant());
  // Every record has every result field; null = not measured / not applicable.
  r.set("status", "ok").set("correct", system.checked() ? Field(false) : Field()).set("tolerance", tolerance);
  r.set("ms", Field()).set("eff_tflops", Field());
  record_activity(r, GpuActivity{});
  try {
    const std::string reason = system.unsupported_reason(c);
    if (!reason.empty()) BSRFLOW_FAIL(Errc::unsupported, reason);
    const std::unique_ptr<PreparedRun> prepared = prepare_links(system, links);
    if (!prepared->config().empty()) r.set("config", prepared->config());
    r.set("prep_ms", prepared->prep_ms()).set("note", prepared->note());
    if (system.checked()) {
      // Poisoned output (NaN) first, so that an element the system skips cannot pass. A chain
      // ends on links[0]'s product, which the reference computed.
      out_c.fill_bytes(0xFF, stream);
      prepared->run(stream);
      const RelativeError error =
          relative_error(out_c.data(), ref_c.data(), static_cast<std::int64_t>(out_c.size()), stream);
      r.set("rel_error", error.relative()).set("correct", error.within(tolerance));
      if (!error.within(tolerance)) {
        r.set("status", "wrong");
        return r;
      }
    }
    TimingConfig timing = config.timing;
    if (system.slow()) {
      timing.iters = std::min(timing.iters, config.reference_iters);
      timing.warmup = std::min(timing.warmup, 1);
      timing.warmup_ms = 0;  // an oracle: its own clock is not what the report compares
      timing.rest_ms = 0;
    }
    // The monitor sees the warm-up and the timed runs, not the rest before them.
    rest_gpu(timing, stream);
    TimingConfig series = timing;
    series.rest_ms = 0;
    if (config.gpu_monitor) session.monitor.start();
    // Per product: a chain's times over its length.
    const Summary s = scaled(time_and_summarize([&](cudaStream_t st) { prepared->run(st); }, series, &session.flusher, stream),
                             1.0 / c.chain);
    record_activity(r, config.gpu_monitor ? session.monitor.stop() : GpuActivity{});
    set_timing_fields(r, s);
    if (PreparedRun* baseline = prepared->baseline()) {
      // gain = t(baseline) / t(this run) in alternating pairs; none when both run one plan.
      r.set("heuristic_config", baseline->config());
      if (baseline->config() != prepared->config()) {
        const Summary gain = summarize(time_pair_ratios([&](cudaStream_t st) { baseline->run(st); },
                                                        [&](cudaStream_t st) { prepared->run(st); }, timing,
                                                        &session.flusher, stream));
        r.set("paired_gain", gain.median).set("paired_gain_p10", gain.p10).set("paired_gain_p90", gain.p90);
        r.set("pairs", gain.count);
      }
    }
    if (system.slow() && timing.iters < config.timing.iters)
      r.set("note", "timed runs capped at " + std::to_string(timing.iters) + " (slow oracle)");
    const bool dense = system.kind() == SystemKind::dense_baseline || system.kind() == SystemKind::dense_random;
    r.set("eff_tflops", dense ? tflops(dense_flops(c.m, c.n, c.k), s.median)
                              : tflops(effective_flops(in.pattern->nnzb(), c.R, c.C, c.n), s.median));
    if (!dense) r.set("gbps", gigabytes_per_second(r.number("min_bytes"), s.median));
  } catch (const Error& e) {
    r.set("status", e.code() == Errc::unsupported ? "unsupported" : "error").set("note", e.message());
    if (e.code() == Errc::cuda) BSRFLOW_CUDA(cudaStreamSynchronize(stream));  // a sticky error ends the run here
  }
  return r;
}

template <class T>
void run_case_typed(const BenchCase& c, const std::vector<System*>& selected, const RunnerConfig& config,
                    Session& session, std::vector<Record>& out, std::ostream* log) {
  cudaStream_t stream = session.stream;
  const BlockPattern pattern = make_block_pattern(c.pattern, c.block_rows(), c.block_cols(), c.density, c.seed);
  const std::int64_t nnzb = pattern.nnzb();

  // Inputs: random, never zero, generated on the device.
  DeviceBuffer<int> row_ptr = DeviceBuffer<int>::from_host(pattern.row_ptr, stream);
  DeviceBuffer<int> col_idx = DeviceBuffer<int>::from_host(pattern.col_idx, stream);
  DeviceBuffer<T> a_values(static_cast<std::size_t>(nnzb) * c.R * c.C, stream);
  fill_random_nonzero(a_values.data(), static_cast<std::int64_t>(a_values.size()), 2ull * c.seed + 1, stream);
  DeviceBuffer<T> b(static_cast<std::size_t>(c.k) * static_cast<std::size_t>(c.n), stream);
  fill_random_nonzero(b.data(), static_cast<std::int64_t>(b.size()), 2ull * c.seed + 2, stream);
  DeviceBuffer<T> out_c(static_cast<std::size_t>(c.m) * static_cast<std::size_t>(c.n), stream);
  DeviceBuffer<T> ref_c(out_c.size(), stream);

  const BsrView<const T> A{c.m, c.k, c.R, c.C, nnzb, row_ptr.data(), col_idx.data(), a_values.data()};
  const DenseView<const T> B{b.data(), c.k, c.n, c.ldb(), c.b_layout};
  const DenseView<T> C{out_c.data(), c.m, c.n, c.ldc(), c.c_layout};
  const DenseView<T> REF{ref_c.data(), c.m, c.n, c.ldc(), c.c_layout};

  // bsrflow's reference result: every system is checked against it before it is timed.
  ref_c.fill_bytes(0xFF, stream);
  reference_gemm<T, T>(A, B, REF, 1.0f, 0.0f, stream);
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));

  CaseInputs in;
  in.bench_case = &c;
  in.pattern = &pattern;
  in.operands = Operands<T>{A, B, C};
  in.stream = stream;
  in.cublas = &session.cublas;
  in.cusparse = session.cusparse.get();
  // A chain's other links (BenchCase::chain): A's pattern with weights of their own.
  std::vector<DeviceBuffer<T>> link_values;
  std::vector<CaseInputs> links(static_cast<std::size_t>(c.chain), in);
  for (int l = 1; l < c.chain; ++l) {
    link_values.emplace_back(a_values.size(), stream);
    fill_random_nonzero(link_values.back().data(), static_cast<std::int64_t>(a_values.size()),
                        (std::uint64_t{static_cast<unsigned>(l)} << 32) + 2ull * c.seed + 1, stream);
    BsrView<const T> link_A = A;
    link_A.values = link_values.back().data();
    links[static_cast<std::size_t>(l)].operands = Operands<T>{link_A, B, C};
  }

  std::vector<std::unique_ptr<System>> variants;
  for (const Sm90Variant& v : requested_variants(config.sm90, c))
    variants.push_back(make_sm90_variant_system(c, v, session.device));
  const Record base = case_record(c, pattern);
  for (System* system : systems_for_case(selected, variants)) {
    Record r = run_system<T>(*system, links, config, session, out_c, ref_c, base);
    r.set("copy_gbps", session.copy_gbps).set("l2_gbps", session.l2_gbps);
    stamp(r, session.info);
    if (log != nullptr) {
      *log << "  " << r.text("system") << ": " << r.text("status");
      if (std::isfinite(r.number("ms"))) *log << ", " << r.number("ms") << " ms, " << r.number("eff_tflops") << " TFLOPS";
      if (r.text("status") != "ok") *log << " (" << r.text("note") << ")";
      *log << '\n';
    }
    out.push_back(std::move(r));
  }
}

}  // namespace

Record case_record(const BenchCase& c, const BlockPattern& pattern) {
  Record r;
  r.set("case", c.label()).set("m", c.m).set("n", c.n).set("k", c.k).set("block_r", c.R).set("block_c", c.C);
  r.set("density", c.density).set("actual_density", pattern.density());
  r.set("pattern", std::string(pattern_name(c.pattern))).set("dtype", std::string(dtype_name(c.dtype)));
  r.set("b_layout", std::string(layout_name(c.b_layout))).set("c_layout", std::string(layout_name(c.c_layout)));
  r.set("seed", static_cast<std::int64_t>(c.seed)).set("skinny", c.skinny()).set("chain", c.chain);
  r.set("nnzb", Field(pattern.nnzb())).set("longest_row", pattern.longest_row());
  r.set("touched_block_cols", pattern.touched_block_cols());
  r.set("min_bytes", minimum_bytes_moved(c, pattern.nnzb(), pattern.touched_block_cols()));
  return r;
}

BenchCase case_from_record(const Record& r) {
  BenchCase c;
  c.m = static_cast<int>(r.number("m"));
  c.n = static_cast<int>(r.number("n"));
  c.k = static_cast<int>(r.number("k"));
  c.R = static_cast<int>(r.number("block_r"));
  c.C = static_cast<int>(r.number("block_c"));
  c.density = r.number("density");
  c.pattern = parse_pattern(r.text("pattern"));
  c.dtype = parse_dtype(r.text("dtype"));
  c.b_layout = parse_layout(r.text("b_layout"), "b_layout");
  c.c_layout = parse_layout(r.text("c_layout"), "c_layout");
  if (r.has("seed")) c.seed = static_cast<std::uint32_t>(r.number("seed"));
  if (std::isfinite(r.number("chain"))) c.chain = static_cast<int>(r.number("chain"));  // absent before --chain
  return c;
}

namespace {

// Autotuned vs heuristic: the gain t(heuristic) / t(tuned) and whether the tuned plan is slower
// beyond the noise. Where the tuner kept the heuristic's configuration both records ran one plan:
// the gain is 1 and any difference between them is drift. Otherwise the gain measured in
// alternating pairs (runner: paired_gain), the verdict "slower" when the tuned plan lost in at
// least 90% of the pairs; records without pairs (older JSON) compare the two series: the tuned
// plan's fastest decile slower than the heuristic's slowest.
void add_tuning_gain(Record& r, const Record* heuristic) {
  const bool ok = r.text("status") == "ok";
  if (!r.has("heuristic_config")) r.set("heuristic_config", heuristic != nullptr ? heuristic->text("config") : "");
  const bool same = ok && !r.text("config").empty() && r.text("config") == r.text("heuristic_config");
  r.set("same_config_as_heuristic", same);
  double gain = kNaN;
  bool slower = false;
  if (same) {
    gain = 1.0;
  } else if (ok && r.has("paired_gain")) {
    gain = r.number("paired_gain");
    slower = r.number("paired_gain_p90") < 1.0;
  } else if (ok && heuristic != nullptr) {
    gain = heuristic->number("ms") / r.number("ms");
    slower = r.number("ms_p10") > heuristic->number("ms_p90");
  }
  r.set("gain_vs_heuristic", gain);
  if (std::isfinite(gain)) r.set("slower_beyond_noise", slower);
}

}  // namespace

void add_comparisons(std::vector<Record>& records) {
  std::map<std::string, std::vector<Record*>> by_case;
  for (auto& r : records) by_case[r.text("case")].push_back(&r);
  for (auto& [label, group] : by_case) {
    double dense_tflops = kNaN, dense_ms = kNaN, dense_random_tflops = kNaN, best_peer = kNaN, probe = kNaN;
    std::string best_peer_name;
    const Record* heuristic = nullptr;  // bsrflow_sm90: what the autotuned system is compared with
    for (const Record* r : group) {
      if (r->text("status") != "ok") continue;
      if (r->text("system") == "bsrflow_sm90") heuristic = r;
      const std::string kind = r->text("system_kind");
      const double t = r->number("eff_tflops");
      if (kind == "dense_baseline") {
        dense_tflops = t;
        dense_ms = r->number("ms");
      } else if (kind == "dense_random") {
        dense_random_tflops = t;
      } else if (kind == "sparse_peer" && std::isfinite(t) && !(t <= best_peer)) {
        best_peer = t;
        best_peer_name = r->text("system");
      } else if (kind == "sol_probe") {
        probe = t;
      }
    }
    // The case's speed of light (metrics.hpp); the fields are the same in every record.
    const Record& any = *group.front();
    const BenchCase c = case_from_record(any);
    const double flops = effective_flops(static_cast<std::int64_t>(any.number("nnzb")), c.R, c.C, c.n);
    std::string source;
    double sol = kNaN;
    if (c.skinny()) {
      source = "copy_bandwidth";
      sol = copy_bound_tflops(flops, any.number("min_bytes"), any.number("copy_gbps") * 1e9);
    } else if (std::isfinite(probe)) {
      source = "copy_only_probe";
      sol = min_finite(dense_tflops, probe);
    } else {
      source = "l2_probe";
      const int tile_n = std::min(c.n, sm90::tuned_for(c.R, c.C, c.b_layout, c.n, false).swath);
      sol = sol_tflops(dense_tflops, any.number("l2_gbps") * 1e9, c.R, c.C, tile_n, static_cast<int>(dtype_size(c.dtype)));
    }
    for (Record* r : group) {
      const bool ok = r->text("status") == "ok";
      const std::string kind = r->text("system_kind");
      // The baselines and the probe define the denominators; they are not compared with them.
      const bool dense = kind == "dense_baseline" || kind == "dense_random";
      const bool reference_point = dense || kind == "sol_probe";
      const double eff = ok ? r->number("eff_tflops") : kNaN;
      const double ms = ok ? r->number("ms") : kNaN;
      r->set("ratio_to_dense", eff / dense_tflops);
      r->set("ratio_to_dense_random", eff / dense_random_tflops);
      r->set("speedup_vs_dense", dense_ms / ms);
      r->set("best_peer", best_peer_name);
      r->set("ratio_to_best_peer", reference_point ? kNaN : eff / best_peer);
      r->set("sol_source", source).set("sol_tflops", sol);
      r->set("pct_copy_bw", dense ? kNaN : r->number("gbps") / r->number("copy_gbps"));
      r->set("pct_sol", reference_point ? kNaN : eff / sol);
      if (r->text("system") == "bsrflow_sm90_tuned") add_tuning_gain(*r, heuristic);
    }
  }
}

BenchRun run_bench(const std::vector<BenchCase>& cases, const RunnerConfig& config, std::ostream* log) {
  for (const auto& c : cases) check_case(c);
  check_sm90_request(config.sm90, cases);
  std::vector<std::unique_ptr<System>> all = make_all_systems();
  std::vector<System*> selected;
  for (const auto& name : config.systems) {
    auto it = std::find_if(all.begin(), all.end(), [&](const auto& s) { return s->name() == name; });
    BSRFLOW_REQUIRE(it != all.end(), Errc::invalid_argument, "unknown system '" + name + "'");
    selected.push_back(it->get());
  }
  if (config.systems.empty())
    for (const auto& s : all) selected.push_back(s.get());

  Session session;
  session.info = collect_run_info();
  BenchRun run;
  run.info = session.info;
  if (log != nullptr) *log << "bsr_bench on " << run.info.device << " (commit " << run.info.commit << ")\n";
  if (log != nullptr && config.gpu_monitor && !session.monitor.available())
    *log << "no SM clock / power per record: " << session.monitor.unavailable_reason() << '\n';
  run.copy = measure_copy_bandwidth(default_copy_probe_bytes(), config.timing, session.stream);
  run.l2 = measure_l2_read_bandwidth(20, config.timing, session.stream);
  session.copy_gbps = run.copy.bytes_per_second() / 1e9;
  session.l2_gbps = run.l2.bytes_per_second() / 1e9;
  if (log != nullptr)
    *log << "probes: device-to-device copy " << session.copy_gbps << " GB/s, L2 read " << session.l2_gbps << " GB/s\n";

  for (std::size_t i = 0; i < cases.size(); ++i) {
    const BenchCase& c = cases[i];
    if (log != nullptr) *log << "[" << i + 1 << "/" << cases.size() << "] " << c.label() << '\n';
    if (c.dtype == DType::f16) run_case_typed<__half>(c, selected, config, session, run.records, log);
    else run_case_typed<__nv_bfloat16>(c, selected, config, session, run.records, log);
  }
  add_comparisons(run.records);
  return run;
}

}  // namespace bsrflow::bench
