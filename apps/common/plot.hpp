// PNG bar charts through gnuplot (Debian: gnuplot-nox). gnuplot is optional at run time: when
// it is missing the plot is skipped with a message, never an error, and the chart can be drawn
// later from the JSON results on another machine (bsr_bench --plot-from).
#pragma once

#include <string>
#include <vector>

namespace bsrflow::bench {

// Grouped bars: one group per category (a benchmark case), one bar per series (a system).
struct BarChart {
  std::string title;
  std::string ylabel;
  bool log_y = true;
  std::vector<std::string> categories;
  std::vector<std::string> series;
  std::vector<std::vector<double>> values;  // [category][series]; NaN = no bar
};

// The data file gnuplot reads: a header of quoted series names, then one line per category
// ("label" v1 v2 ...), '?' for a missing value. Throws Error(invalid_argument) when the value
// table does not match the categories x series.
std::string gnuplot_data(const BarChart& chart);

// The gnuplot script that draws `data_path` into `png_path`.
std::string gnuplot_script(const BarChart& chart, const std::string& png_path, const std::string& data_path);

// Full path of `program` if it is an executable on PATH (or an executable path), else "".
std::string find_program(const std::string& program);

enum class PlotStatus { written, skipped_no_gnuplot };

// Writes `png_path` with `gnuplot` (found on PATH). Returns skipped_no_gnuplot, after printing
// "<app>: gnuplot not found; skipping the plot <png_path>" to stderr, when it is missing.
// Throws Error(io) when a file cannot be written or gnuplot fails.
PlotStatus render_png(const BarChart& chart, const std::string& png_path, const std::string& app,
                      const std::string& gnuplot = "gnuplot");

}  // namespace bsrflow::bench
