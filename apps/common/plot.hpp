// PNG charts through gnuplot (Debian: gnuplot-nox). gnuplot is optional at run time: when it is
// missing the plot is skipped with a message, never an error, and the chart can be drawn later
// from the JSON results on another machine (bsr_bench --plot-from).
#pragma once

#include <string>
#include <vector>

namespace bsrflow::bench {

// One line of a chart, drawn in every panel where it has points.
struct ChartSeries {
  std::string title;
  int color = 1;  // colour index, from 1: 12 distinct colours, then again with another point shape
  int dash = 1;   // gnuplot dash type, 1 = solid
};

// One panel: its own x positions (labels, in order) and a value per x and series.
struct ChartPanel {
  std::string title;
  std::vector<std::string> x_labels;
  std::vector<std::vector<double>> values;  // [x][series]; NaN = no point
};

// Line charts in panels (a gnuplot multiplot), plus one last panel that holds the key alone.
struct PanelChart {
  std::string title;
  std::string xlabel;
  std::string ylabel;
  bool log_y = true;
  std::vector<ChartSeries> series;
  std::vector<ChartPanel> panels;
};

// The data file gnuplot reads: one block per panel ("# panel title" first, then one line per x:
// "label" v1 v2 ..., '?' for a missing value or one a log axis cannot show), blocks separated by
// two blank lines (gnuplot's `index`). Throws Error(invalid_argument) when there is no panel or
// a panel's value table does not match its x labels x the series.
std::string gnuplot_data(const PanelChart& chart);

// The gnuplot script that draws `data_path` into `png_path`. A series without points in a panel
// is left out of that panel; a panel without any point says "no results".
std::string gnuplot_script(const PanelChart& chart, const std::string& png_path, const std::string& data_path);

// Full path of `program` if it is an executable on PATH (or an executable path), else "".
std::string find_program(const std::string& program);

enum class PlotStatus { written, skipped_no_gnuplot };

// Writes `png_path` with `gnuplot` (found on PATH). Returns skipped_no_gnuplot, after printing
// "<app>: gnuplot not found; skipping the plot <png_path>" to stderr, when it is missing.
// Throws Error(io) when a file cannot be written or gnuplot fails.
PlotStatus render_png(const PanelChart& chart, const std::string& png_path, const std::string& app,
                      const std::string& gnuplot = "gnuplot");

}  // namespace bsrflow::bench
