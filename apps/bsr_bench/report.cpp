#include "bsrflow/apps/bsr_bench/report.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

#include "bsrflow/apps/bsr_bench/metrics.hpp"
#include "bsrflow/apps/bsr_bench/runner.hpp"
#include "bsrflow/apps/common/markdown.hpp"

namespace bsrflow::bench {

namespace {

std::string status_cell(const Record& r) {
  const std::string status = r.text("status");
  if (status == "wrong") return "WRONG (rel err " + format_significant(r.number("rel_error")) + ")";
  if (status == "ok" && r.text("system_kind") == "sol_probe") return "probe";
  if (status == "ok" && r.text("system_kind") == "dense_random") return "not checked";  // another product
  return status;
}

// Where the % SOL of a row comes from (metrics.hpp).
std::string sol_cell(const Record& r) {
  if (!std::isfinite(r.number("pct_sol"))) return "-";
  const std::string source = r.text("sol_source");
  if (source == "copy_only_probe") return "copy probe";
  if (source == "l2_probe") return "L2 model";
  if (source == "copy_bandwidth") return "copy BW";
  return source;
}

std::string ms_cell(const Record& r) {
  if (!std::isfinite(r.number("ms"))) return "-";
  return format_significant(r.number("ms")) + " (" + format_significant(r.number("ms_p10")) + "-" +
         format_significant(r.number("ms_p90")) + ")";
}

// The SM clock NVML reported over the timed series (the driver's setting, not the effective clock
// inside a kernel: see the footer), with the lowest sample when it was 5% lower and the clock
// limits the driver reported ("1515 (min 1410; power cap)"); "-" without a monitor.
std::string mhz_cell(const Record& r) {
  if (!std::isfinite(r.number("sm_mhz"))) return "-";
  std::string cell = format_fixed(r.number("sm_mhz"), 0);
  std::string extra;
  if (r.number("sm_mhz_min") < 0.95 * r.number("sm_mhz")) extra = "min " + format_fixed(r.number("sm_mhz_min"), 0);
  const std::string limits = r.text("clock_limits");
  if (!limits.empty() && limits != "none") extra += (extra.empty() ? "" : "; ") + limits;
  return extra.empty() ? cell : cell + " (" + extra + ")";
}

// The autotuning section: one row per case that ran both bsrflow_sm90 and bsrflow_sm90_tuned.
std::string tuning_section(const std::vector<Record>& records) {
  std::vector<std::vector<std::string>> rows;
  double log_sum = 0;
  int n = 0, slower = 0, same = 0;
  for (const Record& r : records) {
    const double gain = r.number("gain_vs_heuristic");
    if (r.text("system") != "bsrflow_sm90_tuned" || !std::isfinite(gain)) continue;
    const bool worse = r.flag("slower_beyond_noise");
    const bool kept = r.flag("same_config_as_heuristic", false);
    log_sum += std::log(gain);
    ++n;
    slower += worse;
    same += kept;
    const std::string spread = r.has("paired_gain")
                                   ? format_fixed(r.number("paired_gain_p10"), 3) + "-" +
                                         format_fixed(r.number("paired_gain_p90"), 3)
                                   : "-";
    rows.push_back({r.text("case"), r.text("heuristic_config"), r.text("config"), format_fixed(gain, 3), spread,
                    worse ? "SLOWER beyond noise" : kept ? "same configuration" : "ok",
                    format_significant(r.number("prep_ms"))});
  }
  if (rows.empty()) return {};
  std::ostringstream md;
  md << "## Autotuning: bsrflow_sm90_tuned vs bsrflow_sm90 (heuristic)\n\n"
     << markdown_table({"case", "heuristic config", "tuned config", "gain", "gain p10-p90", "verdict", "tuning ms"}, rows,
                       {Align::left, Align::left, Align::left, Align::right, Align::right, Align::left, Align::right})
     << '\n'
     << "- gain = t(bsrflow_sm90) / t(bsrflow_sm90_tuned): the median over alternating pairs of runs of the two "
        "plans (each run after an L2 flush; p10-p90 over the pairs), or 1 where the tuner kept the heuristic's "
        "configuration (one plan: a difference between the two rows above is drift). Geometric mean over "
     << n << " cases: " << format_fixed(std::exp(log_sum / n), 3) << "; same configuration: " << same
     << "; slower beyond noise: " << slower << ".\n"
     << "- 'SLOWER beyond noise' = the tuned plan lost in at least 90% of the pairs (gain p90 below 1). Records "
        "without pairs (JSON from before the pairs) compare the two series: the tuned plan's p10 time above the "
        "heuristic's p90.\n"
     << "- tuning ms = the exhaustive tuning inside plan_gemm (every tunable configuration timed on the case's "
        "pattern, docs/autotuning.md), paid once per pattern.\n";
  return md.str();
}

}  // namespace

std::string bench_markdown(const std::vector<Record>& records, const TimingConfig& timing, int reference_iters) {
  const std::vector<std::string> header = {"case",  "system",   "status", "ms (p10-p90)", "eff TFLOPS", "speedup vs dense",
                                           "rate / dense", "vs best peer", "% SOL", "SOL from", "GB/s", "SM MHz (NVML)", "note"};
  const std::vector<Align> align = {Align::left,  Align::left,  Align::left,  Align::right, Align::right,
                                    Align::right, Align::right, Align::right, Align::right, Align::left,
                                    Align::right, Align::right, Align::left};
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : records) {
    rows.push_back({r.text("case"), r.text("system"), status_cell(r), ms_cell(r), format_significant(r.number("eff_tflops")),
                    format_fixed(r.number("speedup_vs_dense"), 2), format_fixed(r.number("ratio_to_dense"), 3),
                    format_fixed(r.number("ratio_to_best_peer"), 2), format_percent(r.number("pct_sol")), sol_cell(r),
                    format_significant(r.number("gbps")), mhz_cell(r), r.text("note")});
  }
  std::ostringstream md;
  md << markdown_table(header, rows, align) << '\n';
  if (!records.empty()) {
    const Record& first = records.front();
    md << "Device: " << first.text("device") << "; date: " << first.text("date") << "; commit: " << first.text("commit")
       << ".\n\n";
    md << "Probes of this run: device-to-device copy " << format_fixed(first.number("copy_gbps"), 0)
       << " GB/s (bytes read + written); L2 read " << format_fixed(first.number("l2_gbps"), 0) << " GB/s.\n\n";
  }
  md << "- eff TFLOPS = 2 * nnzb * R * C * N / t (stored blocks only); the cublas_dense row shows cuBLAS's own dense rate "
        "2 * M * N * K / t.\n"
     << "- cublas_dense multiplies the densified A (mostly zeros, on which the GPU clocks higher); cublas_dense_random "
        "times the same call on random dense data of A's shape, dense GEMM's rate on ordinary data. It computes another "
        "product, so it is not checked; its 'rate / dense' is its rate over cublas_dense's, and every record's JSON "
        "ratio_to_dense_random is eff TFLOPS over it.\n"
     << "- speedup vs dense = t(cublas_dense) / t; rate / dense = eff TFLOPS / cuBLAS dense TFLOPS; vs best peer = eff "
        "TFLOPS / the best correct sparse peer of the case (JSON: best_peer).\n"
     << "- % SOL = eff TFLOPS / SOL, where the SOL of a case comes from (column 'SOL from'): 'copy probe' = min(cuBLAS "
        "dense TFLOPS, the effective TFLOPS of bsrflow_sm90_copy_probe, the copy-only variant of bsrflow_sm90's "
        "configuration: the same TMA loads through L2 into shared memory, no math); 'L2 model' where that probe cannot "
        "run (its row says why) = min(cuBLAS dense TFLOPS, L2 read bandwidth x 2*R*C*S / ((R*C + C*S) * sizeof(dtype))) "
        "with S = min(N, the tuned swath): per stored block a tile of one block row x S columns moves A's R x C block "
        "and B's C x S slice for 2*R*C*S flops.\n"
     << "- Skinny cases (N <= 64) are memory-bound ('copy BW'): GB/s = (A's values, col_idx and row_ptr + the C x N "
        "rows of B under each touched block column + all of C, once) / t, and % SOL = GB/s / the copy bandwidth above.\n"
     << "- SM MHz (NVML) = the SM clock the driver reported over the timed series (NVML, sampled about once a "
        "millisecond on a host thread): the mean, the lowest sample when 5% below it, and the reasons the driver gave "
        "for holding the clock down (e.g. 'power cap'). The reading moves on a scale of ~100 ms: it shows the power "
        "state a series ran in (a series after a long, power-hungry one can run at a lower setting), not the "
        "effective clock inside a kernel, which power capping holds well below it (the 128x128 f16 kernel: "
        "1.44-1.51 GHz by its own cycle counts while NVML reads ~1965 MHz; docs/perf_log.md entries 44-45).\n"
     << "- The probe row ('probe') writes no output, so it is not checked (correct = null in the JSON).\n"
     << "- Timing: CUDA events, median of " << timing.iters << " runs (p10-p90 shown) after ";
  if (timing.rest_ms > 0)
    md << format_significant(timing.rest_ms) << " ms with the GPU idle (each series starts from a rested GPU) and ";
  md << timing.warmup << " warm-up runs";
  if (timing.warmup_ms > 0)
    md << " and as many more as keep the GPU busy for " << format_significant(timing.warmup_ms)
       << " ms (the sustained, power-capped regime: the GPU's clock follows its recent power draw)";
  md << ", " << (timing.cold_l2 ? "L2 flushed before each timed run (2x L2 written, then those lines discarded: no dirty line left)" : "warm L2")
     << "; bsrflow_reference (CUDA cores) is capped at " << reference_iters << " timed runs.\n"
     << "- Before timing, every system's output is compared with bsrflow's reference result (relative Frobenius-norm "
        "error <= "
     << format_significant(correctness_tolerance(DType::f16)) << " for f16, "
     << format_significant(correctness_tolerance(DType::bf16))
     << " for bf16); a WRONG system is not timed. 'unsupported' means the library rejected the case.\n"
     << "- cusparse_blocked_ell pads every block row to the longest one; prep_ms in the JSON is its packing time.\n";
  if (std::any_of(records.begin(), records.end(), [](const Record& r) { return r.number("chain") > 1; }))
    md << "- 'chainL' cases (--chain L): a timed run is L products back to back on one stream, each on its own weights "
          "(A's values on A's pattern) into the same C, after one L2 flush, as a decode step runs its layers; ms, TFLOPS "
          "and GB/s are per product (the chain's time / L). The product on the case's own weights runs last, and C "
          "after the chain is what is checked.\n";
  if (const std::string tuning = tuning_section(records); !tuning.empty()) md << '\n' << tuning;
  return md.str();
}

PanelChart bench_chart(const std::vector<Record>& records) {
  // Cases, systems and dtypes in first-seen order; a case sits in its panel at its block shape.
  struct Point {
    std::size_t panel, series, dtype;
    BenchCase c;
    double value;
  };
  const auto index_of = [](std::vector<std::string>& list, const std::string& key) {
    const auto it = std::find(list.begin(), list.end(), key);
    if (it != list.end()) return static_cast<std::size_t>(it - list.begin());
    list.push_back(key);
    return list.size() - 1;
  };
  std::vector<std::string> panels, systems, dtypes;
  std::vector<Point> points;
  for (const auto& r : records) {
    const BenchCase c = case_from_record(r);
    const std::string variant = r.text("sm90_variant");
    const std::size_t p = index_of(panels, c.panel_label());
    const std::size_t s = index_of(systems, variant.empty() ? r.text("system") : "bsrflow_sm90[" + variant + "]");
    const std::size_t d = index_of(dtypes, r.text("dtype"));
    points.push_back({p, s, d, c, r.text("status") == "ok" ? r.number("eff_tflops") : NAN});
  }
  PanelChart chart;
  // One series per system and dtype: the colour names the system, the dash type the dtype.
  for (std::size_t s = 0; s < systems.size(); ++s)
    for (std::size_t d = 0; d < dtypes.size(); ++d)
      chart.series.push_back({systems[s] + (dtypes.size() > 1 ? " " + dtypes[d] : ""), static_cast<int>(s) + 1,
                              static_cast<int>(d) + 1});
  for (std::size_t p = 0; p < panels.size(); ++p) {
    ChartPanel panel;
    panel.title = panels[p];
    std::vector<BenchCase> blocks;  // one per x position, smallest block first
    for (const Point& pt : points)
      if (pt.panel == p && std::none_of(blocks.begin(), blocks.end(), [&](const BenchCase& b) {
            return b.R == pt.c.R && b.C == pt.c.C;
          }))
        blocks.push_back(pt.c);
    std::sort(blocks.begin(), blocks.end(), [](const BenchCase& a, const BenchCase& b) {
      return std::tuple(a.R * a.C, a.R) < std::tuple(b.R * b.C, b.R);
    });
    for (const BenchCase& b : blocks) panel.x_labels.push_back(b.block_label());
    panel.values.assign(blocks.size(), std::vector<double>(chart.series.size(), NAN));
    for (const Point& pt : points) {
      if (pt.panel != p) continue;
      const auto x = std::find(panel.x_labels.begin(), panel.x_labels.end(), pt.c.block_label()) - panel.x_labels.begin();
      panel.values[static_cast<std::size_t>(x)][pt.series * dtypes.size() + pt.dtype] = pt.value;
    }
    chart.panels.push_back(std::move(panel));
  }
  std::string where;
  if (!records.empty())
    where = ", " + records.front().text("device") + ", commit " + records.front().text("commit");
  chart.title = "bsr_bench: effective TFLOPS (2*nnzb*R*C*N/t; cuBLAS dense: 2*M*N*K/t)" + where;
  chart.xlabel = "block shape (R, or R x C)";
  chart.ylabel = "TFLOPS (log scale)";
  chart.log_y = true;
  return chart;
}

}  // namespace bsrflow::bench
