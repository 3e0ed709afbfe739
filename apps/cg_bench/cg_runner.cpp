#include "bsrflow/apps/cg_bench/cg_runner.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <type_traits>
#include <utility>

#include "bsrflow/apps/common/cusparse_cublas_cg.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/apps/common/markdown.hpp"
#include "bsrflow/apps/common/poisson.hpp"
#include "bsrflow/apps/common/timing.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/random_fill.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/graph/pcg.hpp"
#include "bsrflow/ops/cpu_spmv.hpp"

namespace bsrflow::bench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kTargetUsPerIteration = 8.0;  // the target at 32^3
constexpr double kTargetCopyFraction = 0.8;    // the target at 128^3
constexpr std::uint64_t kRhsSeed = 7;

// The peer's x against bsrflow's after K iterations: its reductions round differently.
template <class T>
constexpr double peer_tolerance() {
  return std::is_same_v<T, float> ? 1e-3 : 1e-6;
}

struct Common {
  Stream stream;
  CusparseHandle cusparse;
  CublasHandle cublas{stream};
  L2Flusher flusher{device_info().l2_bytes, stream};
  double copy_gbps = kNaN;
  RunInfo info;
};

// What one solve reported.
struct SolveOutcome {
  unsigned iterations = 0;
  bool breakdown = false;
  double recurrence_rel_residual = kNaN;  // bsrflow: ||r|| / ||b|| of the CG recurrence
};

SolveOutcome outcome_of(const PcgResult& r) { return {r.iterations, r.breakdown, r.relative_residual()}; }

// One row in the making.
template <class T>
struct ModeRun {
  std::string mode;
  std::string status = "ok";
  std::string note;
  SolveOutcome solve;
  std::optional<Summary> timing;
  std::vector<T> x;  // after the last solve
  Record extra;
};

void add_note(std::string& note, const std::string& text) { note += (note.empty() ? "" : "; ") + text; }

// ||b - A x|| / ||b|| in double (NaN if anything is not finite).
template <class T>
double true_relative_residual(const HostBsr<T>& A, const std::vector<T>& b, const std::vector<T>& x) {
  const std::vector<double> ax = host::spmv_f64(A, x, std::vector<T>(x.size()), 1.0, 0.0);
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < ax.size(); ++i) {
    const double bi = static_cast<double>(b[i]);
    rr += (bi - ax[i]) * (bi - ax[i]);
    bb += bi * bi;
  }
  return std::isfinite(rr) && bb > 0 ? std::sqrt(rr / bb) : kNaN;
}

template <class T>
void run_case(const CgBenchOptions& o, int grid, Preconditioner precond, Common& common, std::vector<Record>& out,
              std::ostream* log) {
  cudaStream_t stream = common.stream;
  const int K = o.cg_iterations;
  const std::string precond_name = preconditioner_name(precond);
  if (log != nullptr) *log << "poisson3d " << grid << "^3, " << dtype_name(dtype_of_v<T>) << ", " << precond_name << '\n';

  // The Poisson CSR as a BSR with 1 x 1 blocks: the same three arrays.
  HostCsr<T> csr = poisson3d_csr<T>(grid);
  HostBsr<T> host;
  host.rows = host.cols = csr.rows;
  host.row_ptr = std::move(csr.row_ptr);
  host.col_idx = std::move(csr.col_idx);
  host.values = std::move(csr.values);
  const Bsr<T> A = Bsr<T>::from_host(host, stream);
  const std::int64_t n = host.rows, nnz = host.nnzb();
  const auto bytes = static_cast<double>(cg_iteration_bytes(n, nnz, sizeof(T), precond));

  DeviceBuffer<T> b(static_cast<std::size_t>(n), stream), x(static_cast<std::size_t>(n), stream);
  fill_random_nonzero(b.data(), n, kRhsSeed, stream);
  const std::vector<T> hb = b.to_host(stream);

  // Untimed check solve, then the timed solves; x is reset to 0 inside the timed region.
  using SolveFn = std::function<SolveOutcome(cudaStream_t)>;
  auto measure = [&](const std::string& mode, const SolveFn& solve, Record extra) {
    ModeRun<T> m;
    m.mode = mode;
    m.extra = std::move(extra);
    x.fill_bytes(0, stream);
    m.solve = solve(stream);
    auto check = [&](const SolveOutcome& s, const char* which) {
      if (s.iterations == static_cast<unsigned>(K) && !s.breakdown) return true;
      m.status = "wrong";
      add_note(m.note, std::string(which) + " solve ran " + std::to_string(s.iterations) + " of " + std::to_string(K) +
                           " iterations" + (s.breakdown ? " (breakdown)" : ""));
      return false;
    };
    if (check(m.solve, "the check")) {
      SolveOutcome last;
      m.timing = time_and_summarize(
          [&](cudaStream_t st) {
            x.fill_bytes(0, st);
            last = solve(st);
          },
          o.timing, &common.flusher, stream);
      check(last, "a timed");
    }
    m.x = x.to_host(stream);
    if (log != nullptr) {
      *log << "  " << mode << ": " << m.status;
      if (m.timing) *log << ", " << m.timing->median * 1e3 / K << " us/iteration";
      *log << '\n';
    }
    return m;
  };

  std::vector<ModeRun<T>> runs;
  PcgOptions options;
  options.rtol = 0;
  options.atol = 0;
  options.max_iterations = static_cast<unsigned>(K);
  options.preconditioner = precond;
  options.execution = PcgExecution::graph_loop;
  auto setup = [&](const PcgOptions& opts, Record& extra) {
    const auto t0 = std::chrono::steady_clock::now();
    PcgSolver<T> solver(A.view(), opts, stream);  // plans, instantiates and synchronises
    extra.set("setup_ms", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    extra.set("solver", solver.describe()).set("loop_mode_reason", solver.graph().loop_mode_reason());
    return solver;
  };
  PcgOptions per_iteration = options;
  per_iteration.loop_mode = LoopMode::host_checked;
  per_iteration.unroll = 1;
  PcgOptions persistent = options;
  persistent.execution = PcgExecution::persistent;
  Record loop_extra, persistent_extra, per_iteration_extra, eager_extra;
  PcgSolver<T> loop_solver = setup(options, loop_extra);
  PcgSolver<T> persistent_solver = setup(persistent, persistent_extra);
  PcgSolver<T> per_iteration_solver = setup(per_iteration, per_iteration_extra);
  eager_extra.set("solver", loop_solver.describe());
  runs.push_back(measure(
      kCgGraphLoop, [&](cudaStream_t st) { return outcome_of(loop_solver.solve(b.data(), x.data(), st)); },
      loop_extra));
  runs.push_back(measure(
      kCgPersistent, [&](cudaStream_t st) { return outcome_of(persistent_solver.solve(b.data(), x.data(), st)); },
      persistent_extra));
  runs.push_back(measure(
      kCgGraphPerIteration,
      [&](cudaStream_t st) { return outcome_of(per_iteration_solver.solve(b.data(), x.data(), st)); },
      per_iteration_extra));
  runs.push_back(measure(
      kCgEager, [&](cudaStream_t st) { return outcome_of(loop_solver.solve_eager(b.data(), x.data(), st, 1)); },
      eager_extra));
  if (o.peer) {
    std::optional<DeviceBuffer<T>> inverse;
    if (precond == Preconditioner::jacobi) {
      std::vector<T> d(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i)
        for (int k = host.row_ptr[i]; k < host.row_ptr[i + 1]; ++k)
          if (host.col_idx[k] == i) d[i] = static_cast<T>(1.0 / static_cast<double>(host.values[k]));
      inverse.emplace(DeviceBuffer<T>::from_host(d, stream));
    }
    const CsrView<const T> csr_view{host.rows, host.cols, nnz, A.row_ptr().data(), A.col_idx().data(),
                                    A.values().data()};
    Record extra;
    extra.set("solver", std::string("cusparseSpMV CSR_ALG1 + cuBLAS dot/axpy/scal (host pointer mode)") +
                            (inverse ? " + jacobi_scale kernel" : ""));
    try {
      CusparseCublasCg<T> peer(common.cusparse.get(), common.cublas, csr_view, inverse ? inverse->data() : nullptr,
                               b.data(), x.data(), stream);
      runs.push_back(measure(
          kCgPeer,
          [&](cudaStream_t st) {
            const int done = peer.solve(K, st);
            return SolveOutcome{static_cast<unsigned>(done), done != K, kNaN};
          },
          extra));
    } catch (const Error& e) {
      if (e.code() != Errc::unsupported && e.code() != Errc::cusparse && e.code() != Errc::cublas) throw;
      ModeRun<T> m;
      m.mode = kCgPeer;
      m.status = e.code() == Errc::unsupported ? "unsupported" : "error";
      m.note = e.message();
      m.extra = extra;
      runs.push_back(std::move(m));
    }
  }

  // Every mode's x against bsrflow_graph_loop's: bitwise for the modes that run its kernels, within a
  // tolerance for the persistent kernel (other reduction trees) and the peer.
  const ModeRun<T>& ref = runs.front();
  for (auto& m : runs) {
    if (&m == &ref || m.x.empty()) continue;
    if (ref.status != "ok") {
      add_note(m.note, "x not compared: bsrflow_graph_loop is wrong");
      continue;
    }
    if (m.mode == kCgPeer || m.mode == kCgPersistent) {
      double diff = 0, norm = 0;
      for (std::size_t i = 0; i < ref.x.size(); ++i) {
        const double d = static_cast<double>(m.x[i]) - static_cast<double>(ref.x[i]);
        diff += d * d;
        norm += static_cast<double>(ref.x[i]) * static_cast<double>(ref.x[i]);
      }
      const double rel = std::isfinite(diff) && norm > 0 ? std::sqrt(diff / norm) : kNaN;
      m.extra.set("rel_diff_vs_graph_loop", rel);
      if (!(rel <= peer_tolerance<T>()) && m.status == "ok") {
        m.status = "wrong";
        add_note(m.note, "x differs from bsrflow_graph_loop's by " + format_significant(rel) + " (relative; limit " +
                             format_significant(peer_tolerance<T>()) + ")");
      }
    } else {
      const bool same = m.x.size() == ref.x.size() && std::memcmp(m.x.data(), ref.x.data(), m.x.size() * sizeof(T)) == 0;
      m.extra.set("bitwise_equal_to_graph_loop", same);
      if (!same && m.status == "ok") {
        std::size_t i = 0;
        while (i < m.x.size() && std::memcmp(&m.x[i], &ref.x[i], sizeof(T)) == 0) ++i;
        m.status = "wrong";
        add_note(m.note, "x not bitwise equal to bsrflow_graph_loop's (first at row " + std::to_string(i) + ")");
      }
    }
  }

  for (auto& m : runs) {
    Record r;
    r.set("grid", grid).set("n", n).set("nnz", nnz).set("dtype", std::string(dtype_name(dtype_of_v<T>)));
    r.set("precond", precond_name).set("mode", m.mode).set("cg_iterations", K).set("status", m.status);
    r.set("correct", m.status == "ok");
    if (!m.x.empty()) {
      r.set("iterations", static_cast<std::int64_t>(m.solve.iterations)).set("breakdown", m.solve.breakdown);
      r.set("recurrence_rel_residual", m.solve.recurrence_rel_residual);
      r.set("true_rel_residual", true_relative_residual(host, hb, m.x));
    }
    r.set("bytes_per_iteration", bytes)
        .set("byte_model", "(n+1)*4 + nnz*(4+sizeof(T)) + " + std::to_string(cg_vector_passes(precond)) +
                               " * n*sizeof(T)");
    r.set("copy_gbps", common.copy_gbps);
    if (m.timing) {
      set_timing_fields(r, *m.timing);
      const double us = m.timing->median * 1e3 / K;
      const double gbps = bytes / (us * 1e-6) / 1e9;
      r.set("us_per_iteration", us).set("gbps", gbps).set("pct_copy_bw", gbps / common.copy_gbps);
    }
    for (const auto& [key, value] : m.extra.fields()) r.set(key, value);
    r.set("note", m.note);
    stamp(r, common.info);
    out.push_back(std::move(r));
  }
}

}  // namespace

int cg_vector_passes(Preconditioner p) { return p == Preconditioner::jacobi ? 13 : 11; }

std::int64_t cg_iteration_bytes(std::int64_t n, std::int64_t nnz, int value_size, Preconditioner p) {
  return (n + 1) * 4 + nnz * (4 + value_size) + cg_vector_passes(p) * n * value_size;
}

std::int64_t cg_iteration_bytes_for_grid(int grid, int value_size, Preconditioner p) {
  const auto g = static_cast<std::int64_t>(grid);
  return cg_iteration_bytes(g * g * g, poisson3d_nnz(grid), value_size, p);
}

CgBenchRun run_cg_bench(const CgBenchOptions& options, std::ostream* log) {
  Common common;
  common.info = collect_run_info();
  CgBenchRun run;
  run.info = common.info;
  run.copy = measure_run_copy_bandwidth("cg_bench", run.info.device, options.timing, common.stream, log);
  common.copy_gbps = run.copy.bytes_per_second() / 1e9;
  for (const int grid : options.grids)
    for (const Preconditioner p : options.preconds) {
      if (options.dtype == DType::f64)
        run_case<double>(options, grid, p, common, run.records, log);
      else
        run_case<float>(options, grid, p, common, run.records, log);
    }
  add_cg_comparisons(run.records);
  return run;
}

void add_cg_comparisons(std::vector<Record>& records) {
  auto peer_us = [&](const Record& r) {
    for (const auto& p : records)
      if (p.text("mode") == kCgPeer && p.number("grid") == r.number("grid") && p.text("dtype") == r.text("dtype") &&
          p.text("precond") == r.text("precond") && p.text("status") == "ok")
        return p.number("us_per_iteration");
    return kNaN;
  };
  for (auto& r : records) {
    const double us = r.number("us_per_iteration");
    if (r.text("status") == "ok" && std::isfinite(us) && std::isfinite(peer_us(r)))
      r.set("speedup_vs_peer", peer_us(r) / us);
    if (r.text("mode") != kCgGraphLoop && r.text("mode") != kCgPersistent) continue;  // the one-launch solves
    const bool measured = r.text("status") == "ok" && std::isfinite(us);
    if (r.number("grid") == 32) {
      r.set("target", "<= 8 us/iteration");
      if (measured) r.set("target_met", us <= kTargetUsPerIteration);
    } else if (r.number("grid") == 128) {
      r.set("target", ">= 80% of copy bandwidth");
      const double fraction = r.number("pct_copy_bw");
      if (measured && std::isfinite(fraction)) r.set("target_met", fraction >= kTargetCopyFraction);
    }
  }
}

std::string cg_markdown(const std::vector<Record>& records, const CgBenchOptions& options) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : records) {
    std::string correct = r.text("status") == "ok" ? "yes" : r.text("status");
    if (!r.text("note").empty()) correct += ": " + r.text("note");
    rows.push_back({std::to_string(static_cast<long long>(r.number("grid"))) + "^3", r.text("dtype"), r.text("precond"),
                    r.text("mode"), format_significant(r.number("us_per_iteration")), ms_spread_cell(r),
                    format_significant(r.number("gbps")), format_percent(r.number("pct_copy_bw")),
                    format_fixed(r.number("speedup_vs_peer"), 2), target_met_cell(r), correct});
  }
  std::ostringstream md;
  md << markdown_table({"grid", "dtype", "precond", "mode", "us/iter", "ms/solve (p10-p90)", "GB/s", "% copy BW",
                        "vs peer", "target", "correct"},
                       rows,
                       {Align::right, Align::left, Align::left, Align::left, Align::right, Align::right, Align::right,
                        Align::right, Align::right, Align::left, Align::left})
     << '\n';
  md << run_context_footer(records);
  std::set<std::string> reasons;
  for (const auto& r : records)
    if (r.text("mode") == kCgGraphLoop && !r.text("loop_mode_reason").empty()) reasons.insert(r.text("loop_mode_reason"));
  for (const auto& reason : reasons) md << "- bsrflow_graph_loop loop mode: " << reason << '\n';
  md << "- Each solve: exactly " << options.cg_iterations
     << " CG iterations (rtol = atol = 0) from x = 0 on the 7-point Poisson matrix, random b (fixed seed). us/iter = "
        "median ms per solve / K, so it carries the per-solve setup (initial residual, result read). Timed region: "
        "start event, x = 0 (cudaMemsetAsync), the solve call until its result is on the host, stop event.\n"
     << "- Modes: bsrflow_graph_loop = PcgSolver::solve with PcgExecution::graph_loop, one graph launch (three fused "
        "kernels per iteration in a device-side loop); bsrflow_persistent = PcgExecution::persistent, one cooperative "
        "kernel per solve (graph/pcg_persistent.cuh; PcgExecution::automatic takes it for matrices of at most "
     << (kPcgPersistentMaxMatrixBytes >> 20) << " MiB); "
        "bsrflow_graph_per_iteration = host_checked loop, unroll 1 (one launch + host check per iteration); "
        "bsrflow_eager = solve_eager(check_every 1); cusparse_cublas_eager = textbook CG from cusparseSpMV (CSR_ALG1) "
        "and cuBLAS dot/axpy/scal in host pointer mode (Jacobi: + one elementwise kernel).\n"
     << "- correct: bsrflow_graph_per_iteration and bsrflow_eager bitwise equal to bsrflow_graph_loop's x; "
        "bsrflow_persistent and the peer within 1e-6 (f64) / 1e-3 (f32) relative; every solve ran K iterations "
        "without breakdown.\n"
     << "- GB/s counts per iteration the matrix once, (n + 1) * 4 + nnz * (4 + sizeof(T)), plus 11 vector passes of "
        "n * sizeof(T) (13 with Jacobi); the peer is rated on the same bytes. % copy BW = that over the copy bandwidth. "
        "Details: docs/benchmarks/cg_bench.md.\n"
     << "- Targets (the one-launch solves, bsrflow_graph_loop and bsrflow_persistent): <= 8 us/iteration at 32^3; >= 80% of the copy bandwidth at 128^3.\n"
     << "- Reference, measured on an H200 (another GPU, not this run): one CG iteration from cuSPARSE + cuBLAS calls, "
        "32^3: 47.6 us eager / 24.2 us as a CUDA Graph; 128^3: 168 us / 156 us.\n"
     << "- Timing: CUDA events, median of " << options.timing.iters << " solves after " << options.timing.warmup
     << " warm-up solves, " << (options.timing.cold_l2 ? "L2 flushed before each timed solve" : "warm L2") << ".\n";
  return md.str();
}

}  // namespace bsrflow::bench
