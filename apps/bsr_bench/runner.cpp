#include "bsrflow/apps/bsr_bench/runner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <ostream>

#include "bsrflow/apps/bsr_bench/block_patterns.hpp"
#include "bsrflow/apps/bsr_bench/metrics.hpp"
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/apps/common/random_fill.hpp"
#include "bsrflow/apps/common/relative_error.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/ops/reference_gemm.hpp"

namespace bsrflow::bench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string_view kind_name(SystemKind k) {
  switch (k) {
    case SystemKind::bsrflow: return "bsrflow";
    case SystemKind::dense_baseline: return "dense_baseline";
    case SystemKind::sparse_peer: return "sparse_peer";
  }
  return "?";
}

// What every case shares: the stream, library handles, the L2 flusher and the probes.
struct Session {
  Stream stream;
  CublasHandle cublas{stream};
  CusparseHandle cusparse;
  L2Flusher flusher{device_info().l2_bytes, stream};
  double copy_gbps = kNaN;
  double l2_gbps = kNaN;
  RunInfo info;
};

void record_timing(Record& r, const Summary& s) {
  r.set("ms", s.median).set("ms_min", s.min).set("ms_p10", s.p10).set("ms_p90", s.p90).set("ms_max", s.max);
  r.set("runs", s.count);
}

template <class T>
void run_case_typed(const BenchCase& c, const std::vector<System*>& systems, const RunnerConfig& config,
                    Session& session, std::vector<Record>& out, std::ostream* log) {
  cudaStream_t stream = session.stream;
  const BlockPattern pattern = make_block_pattern(c.pattern, c.block_rows(), c.block_cols(), c.density, c.seed);
  const std::int64_t nnzb = pattern.nnzb();

  // Inputs: random, never zero, generated on the device.
  DeviceBuffer<int> row_ptr = DeviceBuffer<int>::from_host(pattern.row_ptr, stream);
  DeviceBuffer<int> col_idx = DeviceBuffer<int>::from_host(pattern.col_idx, stream);
  DeviceBuffer<T> a_values(static_cast<std::size_t>(nnzb) * c.R * c.C, stream);
  fill_random_nonzero(a_values.data(), static_cast<std::int64_t>(a_values.size()), 2ull * c.seed + 1, stream);
  const std::int64_t ldb = c.b_layout == Layout::row_major ? c.n : c.k;
  DeviceBuffer<T> b(static_cast<std::size_t>(c.k) * static_cast<std::size_t>(c.n), stream);
  fill_random_nonzero(b.data(), static_cast<std::int64_t>(b.size()), 2ull * c.seed + 2, stream);
  const std::int64_t ldc = c.c_layout == Layout::row_major ? c.n : c.m;
  DeviceBuffer<T> out_c(static_cast<std::size_t>(c.m) * static_cast<std::size_t>(c.n), stream);
  DeviceBuffer<T> ref_c(out_c.size(), stream);

  const BsrView<const T> A{c.m, c.k, c.R, c.C, nnzb, row_ptr.data(), col_idx.data(), a_values.data()};
  const DenseView<const T> B{b.data(), c.k, c.n, ldb, c.b_layout};
  const DenseView<T> C{out_c.data(), c.m, c.n, ldc, c.c_layout};
  const DenseView<T> REF{ref_c.data(), c.m, c.n, ldc, c.c_layout};

  // bsrflow's reference result: every system is checked against it before it is timed.
  ref_c.fill_bytes(0xFF, stream);
  reference_gemm<T, T>(A, B, REF, 1.0f, 0.0f, stream);
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));

  const Record base = case_record(c, nnzb, pattern.longest_row(), pattern.density());
  const double tolerance = correctness_tolerance(c.dtype);
  for (System* system : systems) {
    Record r = base;
    r.set("system", system->name()).set("system_kind", std::string(kind_name(system->kind())));
    r.set("status", "ok").set("correct", false).set("tolerance", tolerance);
    try {
      const std::string reason = system->unsupported_reason(c);
      if (!reason.empty()) BSRFLOW_FAIL(Errc::unsupported, reason);
      CaseInputs in;
      in.bench_case = &c;
      in.pattern = &pattern;
      in.operands = Operands<T>{A, B, C};
      in.stream = stream;
      in.cublas = session.cublas.get();
      in.cusparse = session.cusparse.get();
      const std::unique_ptr<PreparedRun> prepared = system->prepare(in);

      // Check first: poisoned output (NaN) so an element the system skips cannot pass.
      out_c.fill_bytes(0xFF, stream);
      prepared->run(stream);
      const RelativeError error = relative_error(out_c.data(), ref_c.data(), static_cast<std::int64_t>(out_c.size()), stream);
      const bool correct = error.within(tolerance);
      r.set("rel_error", error.relative()).set("correct", correct);
      r.set("prep_ms", prepared->prep_ms()).set("note", prepared->note());
      if (!correct) {
        r.set("status", "wrong");
      } else {
        TimingConfig timing = config.timing;
        if (system->slow()) {
          timing.iters = std::min(timing.iters, config.reference_iters);
          timing.warmup = std::min(timing.warmup, 1);
        }
        const Summary s = time_and_summarize([&](cudaStream_t st) { prepared->run(st); }, timing, &session.flusher, stream);
        record_timing(r, s);
        if (system->slow() && timing.iters < config.timing.iters)
          r.set("note", "timed runs capped at " + std::to_string(timing.iters) + " (slow oracle)");
        const bool dense = system->kind() == SystemKind::dense_baseline;
        r.set("eff_tflops", dense ? tflops(dense_flops(c.m, c.n, c.k), s.median)
                                  : tflops(effective_flops(nnzb, c.R, c.C, c.n), s.median));
        if (!dense) r.set("gbps", gigabytes_per_second(minimum_bytes_moved(c, nnzb), s.median));
      }
    } catch (const Error& e) {
      r.set("status", e.code() == Errc::unsupported ? "unsupported" : "error").set("note", e.message());
      if (e.code() == Errc::cuda) BSRFLOW_CUDA(cudaStreamSynchronize(stream));  // a sticky error ends the run here
    }
    r.set("copy_gbps", session.copy_gbps).set("l2_gbps", session.l2_gbps).set("sol_source", "l2_read_probe");
    stamp(r, session.info);
    if (log != nullptr) {
      *log << "  " << system->name() << ": " << r.text("status");
      if (r.has("ms")) *log << ", " << r.number("ms") << " ms, " << r.number("eff_tflops") << " TFLOPS";
      if (r.text("status") != "ok") *log << " (" << r.text("note") << ")";
      *log << '\n';
    }
    out.push_back(std::move(r));
  }
}

}  // namespace

Record case_record(const BenchCase& c, std::int64_t nnzb, int longest_row, double actual_density) {
  Record r;
  r.set("case", c.label()).set("m", c.m).set("n", c.n).set("k", c.k).set("block_r", c.R).set("block_c", c.C);
  r.set("density", c.density).set("actual_density", actual_density);
  r.set("pattern", std::string(pattern_name(c.pattern))).set("dtype", std::string(dtype_name(c.dtype)));
  r.set("b_layout", std::string(layout_name(c.b_layout))).set("c_layout", std::string(layout_name(c.c_layout)));
  r.set("skinny", c.skinny()).set("nnzb", Field(nnzb)).set("longest_row", longest_row);
  return r;
}

void add_comparisons(std::vector<Record>& records) {
  std::map<std::string, std::vector<Record*>> by_case;
  for (auto& r : records) by_case[r.text("case")].push_back(&r);
  for (auto& [label, group] : by_case) {
    double dense_tflops = kNaN, dense_ms = kNaN, best_peer = kNaN;
    for (const Record* r : group) {
      if (r->text("status") != "ok") continue;
      if (r->text("system_kind") == "dense_baseline") {
        dense_tflops = r->number("eff_tflops");
        dense_ms = r->number("ms");
      } else if (r->text("system_kind") == "sparse_peer") {
        const double t = r->number("eff_tflops");
        if (std::isfinite(t) && !(t <= best_peer)) best_peer = t;
      }
    }
    for (Record* r : group) {
      const bool ok = r->text("status") == "ok";
      const bool dense = r->text("system_kind") == "dense_baseline";
      const double eff = ok ? r->number("eff_tflops") : kNaN;
      const double ms = ok ? r->number("ms") : kNaN;
      const auto R = static_cast<int>(r->number("block_r"));
      const auto C = static_cast<int>(r->number("block_c"));
      const auto N = static_cast<int>(r->number("n"));
      const std::string dtype = r->text("dtype");
      const int bytes = dtype.empty() ? 2 : static_cast<int>(dtype_size(parse_dtype(dtype)));
      const double sol = sol_tflops(dense_tflops, r->number("l2_gbps") * 1e9, R, C, N, bytes);
      const double pct_copy = r->number("gbps") / r->number("copy_gbps");
      r->set("ratio_to_dense", eff / dense_tflops);
      r->set("speedup_vs_dense", dense_ms / ms);
      r->set("ratio_to_best_peer", dense ? kNaN : eff / best_peer);
      r->set("sol_tflops", sol);
      r->set("pct_copy_bw", dense ? kNaN : pct_copy);
      // Skinny cases are memory-bound: their speed of light is the copy bandwidth.
      r->set("pct_sol", dense ? kNaN : (r->flag("skinny") ? pct_copy : eff / sol));
    }
  }
}

BenchRun run_bench(const std::vector<BenchCase>& cases, const RunnerConfig& config, std::ostream* log) {
  for (const auto& c : cases) check_case(c);
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
