#include "bsrflow/apps/fem_solve/fem_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "bsrflow/apps/common/markdown.hpp"
#include "bsrflow/apps/fem_solve/fem_reference.hpp"

namespace bsrflow::fem {

using bench::format_fixed;
using bench::format_significant;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string sci(double v) {
  if (!std::isfinite(v)) return "-";
  std::ostringstream s;
  s.precision(3);
  s << std::scientific << v;
  return s.str();
}

bool within(double value, double target, double tolerance) { return std::fabs(value - target) <= tolerance; }

}  // namespace

void add_rates(std::vector<VerificationRow>& rows) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i == 0) {
      rows[i].l2_rate = rows[i].h1_rate = rows[i].iteration_ratio = kNaN;
      continue;
    }
    rows[i].l2_rate = observed_rate(rows[i - 1].l2, rows[i].l2);
    rows[i].h1_rate = observed_rate(rows[i - 1].h1, rows[i].h1);
    rows[i].iteration_ratio = rows[i - 1].iterations > 0
                                  ? static_cast<double>(rows[i].iterations) / rows[i - 1].iterations
                                  : kNaN;
  }
}

double true_residual_limit(double tol, DType dtype) {
  // f32: the true residual stalls near eps * cond(A)^(1/2)-ish levels whatever the recurrence says.
  return dtype == DType::f32 ? std::max(10 * tol, 1e-4) : std::max(10 * tol, 1e-13);
}

std::vector<std::string> verification_checks(const std::vector<VerificationRow>& rows, double true_residual_limit,
                                             bool& passed) {
  std::vector<std::string> lines;
  passed = true;
  auto check = [&](bool ok, const std::string& what) {
    lines.push_back(std::string(ok ? "PASS " : "FAIL ") + what);
    if (!ok) passed = false;
  };
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const std::string pair = std::to_string(rows[i - 1].n) + " -> " + std::to_string(rows[i].n);
    check(within(rows[i].l2_rate, kL2Rate, kRateTolerance),
          "L2 rate " + pair + ": " + format_fixed(rows[i].l2_rate, 3) + " (expected 2 +- 0.15)");
    check(within(rows[i].h1_rate, kH1Rate, kRateTolerance),
          "H1 rate " + pair + ": " + format_fixed(rows[i].h1_rate, 3) + " (expected 1 +- 0.15)");
    if (i >= 2)
      check(rows[i].iteration_ratio >= kIterationRatioMin && rows[i].iteration_ratio <= kIterationRatioMax,
            "PCG iterations " + pair + " grew " + format_fixed(rows[i].iteration_ratio, 2) + "x (expected about 2x: " +
                format_fixed(kIterationRatioMin, 1) + " to " + format_fixed(kIterationRatioMax, 1) + ")");
  }
  for (const auto& r : rows) {
    check(r.converged, "n = " + std::to_string(r.n) + ": PCG converged in " + std::to_string(r.iterations) +
                           " iterations");
    check(r.true_rel_residual <= true_residual_limit, "n = " + std::to_string(r.n) + ": true residual ||b - Ax||/||b|| = " +
                                                          sci(r.true_rel_residual) + " (limit " +
                                                          sci(true_residual_limit) + ")");
  }
  if (rows.size() < 2) check(false, "at least 2 meshes are needed for a rate");
  return lines;
}

std::string verification_markdown(const std::vector<VerificationRow>& rows, const FemOptions& o,
                                  double true_residual_limit) {
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows)
    cells.push_back({std::to_string(r.n) + "^3", std::to_string(r.dofs), sci(r.l2), format_fixed(r.l2_rate, 3),
                     sci(r.h1), format_fixed(r.h1_rate, 3), std::to_string(r.iterations) + (r.converged ? "" : " (not converged)"),
                     format_fixed(r.iteration_ratio, 2), sci(r.recurrence_rel_residual), sci(r.true_rel_residual),
                     format_significant(r.solve_ms)});
  std::ostringstream md;
  md << "## Verification: " << problem_name(o.problem) << ", manufactured solution, " << dtype_name(o.dtype) << ", "
     << preconditioner_name(o.precond) << " PCG to tol " << sci(o.tol) << "\n\n";
  md << bench::markdown_table({"mesh", "DOFs", "L2 error", "L2 rate", "H1 error", "H1 rate", "PCG iterations",
                               "iter ratio", "recurrence res", "true res", "solve ms"},
                              cells,
                              {bench::Align::right, bench::Align::right, bench::Align::right, bench::Align::right,
                               bench::Align::right, bench::Align::right, bench::Align::right, bench::Align::right,
                               bench::Align::right, bench::Align::right, bench::Align::right})
     << '\n';
  bool passed = true;
  for (const auto& line : verification_checks(rows, true_residual_limit, passed)) md << "- " << line << '\n';
  md << "- Verification " << (passed ? "PASSED" : "FAILED") << ". Errors: 3x3x3 Gauss on every element against the exact "
     << "solution (H1 = seminorm); rate = log2(e_coarse / e_fine); true res recomputed in double on the host from the "
        "assembled system after the Dirichlet elimination.\n\n";
  return md.str();
}

std::string steps_markdown(const std::vector<StepRow>& rows) {
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows)
    cells.push_back({std::to_string(r.step), format_fixed(r.coefficient, 3), format_significant(r.assemble_ms),
                     format_significant(r.refresh_ms), format_significant(r.solve_ms),
                     std::to_string(r.iterations) + (r.converged ? "" : " (not converged)"),
                     sci(r.recurrence_rel_residual)});
  return bench::markdown_table({"step", "coefficient", "assemble ms", "refresh precond ms", "solve ms", "iterations",
                                "recurrence res"},
                               cells,
                               {bench::Align::right, bench::Align::right, bench::Align::right, bench::Align::right,
                                bench::Align::right, bench::Align::right, bench::Align::right});
}

std::int64_t matrix_bytes(std::int64_t rows, int R, std::int64_t nnzb, int value_size) {
  const std::int64_t block_rows = (rows + R - 1) / R;
  return (block_rows + 1) * 4 + nnzb * (4 + static_cast<std::int64_t>(R) * R * value_size);
}

std::int64_t pcg_iteration_bytes(std::int64_t rows, int R, std::int64_t nnzb, int value_size, Preconditioner p) {
  const int passes = p == Preconditioner::none ? 11 : (p == Preconditioner::jacobi ? 13 : 12 + R);
  return matrix_bytes(rows, R, nnzb, value_size) + passes * rows * value_size;
}

double speedup_target(int n) {
  if (n < 32) return kNaN;
  return n >= 128 ? 1.5 : 3.0;
}

std::string compare_markdown(const std::vector<CompareRow>& rows, int n, double copy_gbps) {
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows)
    cells.push_back({r.solver, r.status, format_fixed(static_cast<double>(r.matrix_bytes) / (1 << 20), 1),
                     std::to_string(r.iterations), format_significant(r.total_ms), format_significant(r.us_per_iteration),
                     format_significant(r.gbps), bench::format_percent(r.pct_copy), format_fixed(r.speedup, 2),
                     sci(r.true_rel_residual)});
  std::ostringstream md;
  md << bench::markdown_table({"solver", "status", "matrix MiB", "iterations", "ms/solve", "us/iteration", "GB/s",
                               "% copy BW", "speedup vs peer", "true res"},
                              cells,
                              {bench::Align::left, bench::Align::left, bench::Align::right, bench::Align::right,
                               bench::Align::right, bench::Align::right, bench::Align::right, bench::Align::right,
                               bench::Align::right, bench::Align::right})
     << '\n';
  const double target = speedup_target(n);
  if (std::isfinite(target) && !rows.empty()) {
    const CompareRow& ours = rows.front();
    const bool met = ours.status == "ok" && ours.speedup >= target;
    md << "- Target at " << n << "^3: bsrflow >= " << format_fixed(target, 1) << "x faster per iteration than the peer: "
       << (std::isfinite(ours.speedup) ? format_fixed(ours.speedup, 2) + "x, " + (met ? "met" : "MISSED") : "not measured")
       << ".\n";
  }
  md << "- GB/s = bytes per iteration (matrix once + vector passes, docs/benchmarks/cg_bench.md's model for R x R "
        "blocks) / time per iteration; % copy BW against this run's device-to-device copy ("
     << format_significant(copy_gbps) << " GB/s). The peer is rated on its CSR bytes.\n"
     << "- The peer runs exactly bsrflow's iteration count (Jacobi; its cost per iteration is what is compared). "
        "ms/solve and us/iteration: median over the timed solves, x reset to 0 inside the timed region.\n\n";
  return md.str();
}

std::vector<unsigned> history_points(unsigned final_iterations) {
  std::vector<unsigned> points;
  for (unsigned k = 1; k < final_iterations;) {
    points.push_back(k);
    const unsigned next = (k < 4) ? k + 1 : ((k & (k - 1)) == 0 ? k + k / 2 : (k / 3) * 4);  // 4, 6, 8, 12, 16, ...
    k = next;
  }
  if (final_iterations > 0) points.push_back(final_iterations);
  return points;
}

bench::PanelChart residual_chart(const std::vector<unsigned>& iterations, const std::vector<double>& residuals,
                                 const std::string& title) {
  bench::PanelChart chart;
  chart.title = title;
  chart.xlabel = "PCG iteration";
  chart.ylabel = "||r|| / ||b|| (recurrence)";
  chart.log_y = true;
  chart.series = {{"bsrflow PCG (graph)", 1, 1}};
  bench::ChartPanel panel;
  panel.title = "residual history";
  for (std::size_t i = 0; i < iterations.size() && i < residuals.size(); ++i) {
    panel.x_labels.push_back(std::to_string(iterations[i]));
    panel.values.push_back({residuals[i]});
  }
  chart.panels.push_back(std::move(panel));
  return chart;
}

}  // namespace bsrflow::fem
