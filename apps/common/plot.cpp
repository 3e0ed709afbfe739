#include "bsrflow/apps/common/plot.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <vector>

#include "bsrflow/core/error.hpp"

extern char** environ;

namespace bsrflow::bench {

namespace {

// gnuplot strings in double quotes: escape backslashes and quotes.
std::string gp_quote(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  BSRFLOW_REQUIRE(file.good(), Errc::io, "cannot open '" + path + "' for writing");
  file << text;
  file.close();
  BSRFLOW_REQUIRE(!file.fail(), Errc::io, "writing '" + path + "' failed");
}

// Runs `program script` without a shell (no quoting pitfalls); returns its exit status.
int run_program(const std::string& program, const std::string& script) {
  std::vector<char*> argv = {const_cast<char*>(program.c_str()), const_cast<char*>(script.c_str()), nullptr};
  pid_t pid = 0;
  const int spawn_error = posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv.data(), environ);
  BSRFLOW_REQUIRE(spawn_error == 0, Errc::io, "cannot start " + program);
  int status = 0;
  BSRFLOW_REQUIRE(waitpid(pid, &status, 0) == pid, Errc::io, "waiting for " + program + " failed");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

// A value as gnuplot reads it; '?' for a missing one and for one a log axis cannot show.
std::string gp_value(double v, bool log_y) {
  if (!std::isfinite(v) || (log_y && v <= 0)) return "?";
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

bool has_point(const ChartPanel& panel, std::size_t series, bool log_y) {
  for (const auto& row : panel.values)
    if (gp_value(row[series], log_y) != "?") return true;
  return false;
}

// Colours by index, from an explicit palette: gnuplot's own line types repeat their colours after
// 8, and bsr_bench draws 10 systems (two of them shared a colour). Past the palette the colours
// repeat with another point shape: 12 x 5 = 60 series look alike to none other.
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#b8860b"};
constexpr int kPointTypes[] = {7, 5, 9, 11, 13};

std::string line_style(const ChartSeries& s) {
  constexpr int colors = static_cast<int>(std::size(kPalette));
  constexpr int shapes = static_cast<int>(std::size(kPointTypes));
  const int index = std::max(s.color, 1) - 1;
  return std::string("with linespoints lc rgb \"") + kPalette[index % colors] + "\" dt " + std::to_string(s.dash) +
         " pt " + std::to_string(kPointTypes[(index / colors) % shapes]) + " ps 0.8";
}

// Error(invalid_argument) unless every panel's table is x labels x series.
void check_chart(const PanelChart& chart) {
  BSRFLOW_REQUIRE(!chart.panels.empty() && !chart.series.empty(), Errc::invalid_argument,
                  "chart has " + std::to_string(chart.panels.size()) + " panels and " +
                      std::to_string(chart.series.size()) + " series (nothing to plot)");
  for (std::size_t p = 0; p < chart.panels.size(); ++p) {
    const ChartPanel& panel = chart.panels[p];
    const std::string where = "chart panel " + std::to_string(p) + " ('" + panel.title + "')";
    BSRFLOW_REQUIRE(panel.values.size() == panel.x_labels.size(), Errc::invalid_argument,
                    where + " has " + std::to_string(panel.x_labels.size()) + " x labels but " +
                        std::to_string(panel.values.size()) + " rows of values");
    for (std::size_t x = 0; x < panel.values.size(); ++x)
      BSRFLOW_REQUIRE(panel.values[x].size() == chart.series.size(), Errc::invalid_argument,
                      where + " row " + std::to_string(x) + " has " + std::to_string(panel.values[x].size()) +
                          " values for " + std::to_string(chart.series.size()) + " series");
  }
}

}  // namespace

std::string gnuplot_data(const PanelChart& chart) {
  check_chart(chart);
  std::string out;
  for (std::size_t p = 0; p < chart.panels.size(); ++p) {
    const ChartPanel& panel = chart.panels[p];
    if (p > 0) out += "\n\n";
    out += "# panel " + std::to_string(p) + ": " + panel.title + "\n";
    for (std::size_t x = 0; x < panel.x_labels.size(); ++x) {
      out += gp_quote(panel.x_labels[x]);
      for (const double v : panel.values[x]) {
        out += ' ';
        out += gp_value(v, chart.log_y);
      }
      out += "\n";
    }
  }
  return out;
}

std::string gnuplot_script(const PanelChart& chart, const std::string& png_path, const std::string& data_path) {
  check_chart(chart);
  // A grid of panels, the key in the last cell; each cell about 560 x 400 pixels.
  const std::size_t cells = chart.panels.size() + 1;
  const std::size_t cols = std::min<std::size_t>(3, cells);
  const std::size_t rows = (cells + cols - 1) / cols;
  std::ostringstream gp;
  gp << "set terminal pngcairo size " << 560 * cols << "," << 400 * rows + 40 << " noenhanced font \"sans,9\"\n"
     << "set output " << gp_quote(png_path) << "\n"
     << "set datafile missing \"?\"\n"
     << "set grid ytics\n"
     << (chart.log_y ? "set logscale y\n" : "set yrange [0:*]\n")
     << "set xlabel " << gp_quote(chart.xlabel) << "\n"
     << "set ylabel " << gp_quote(chart.ylabel) << "\n"
     << "unset key\n"
     << "set multiplot layout " << rows << "," << cols << " title " << gp_quote(chart.title) << "\n";
  for (std::size_t p = 0; p < chart.panels.size(); ++p) {
    const ChartPanel& panel = chart.panels[p];
    gp << "# panel " << p << "\n"
       << "set title " << gp_quote(panel.title) << "\n"
       << "set xrange [-0.5:" << panel.x_labels.size() << "-0.5]\n";
    std::string clauses;
    for (std::size_t s = 0; s < chart.series.size(); ++s) {
      if (!has_point(panel, s, chart.log_y)) continue;
      clauses += clauses.empty() ? gp_quote(data_path) + " index " + std::to_string(p) + " using 0:" +
                                       std::to_string(s + 2) + ":xtic(1) "
                                 : ", \"\" index " + std::to_string(p) + " using 0:" + std::to_string(s + 2) + " ";
      clauses += line_style(chart.series[s]) + " notitle";
    }
    if (clauses.empty()) {  // an empty panel still shows its x labels, and says why it is empty
      gp << "set label 1 \"no results\" at graph 0.5, graph 0.5 center\n"
         << "plot " << gp_quote(data_path) << " index " << p << " using 0:(1):xtic(1) with points pt -1 notitle\n"
         << "unset label 1\n";
    } else {
      gp << "plot " << clauses << "\n";
    }
  }
  // The key, alone in the last cell: one invisible (NaN) line per series.
  gp << "# key\n"
     << "unset title\nunset xlabel\nunset ylabel\nunset grid\nunset border\nunset tics\nunset logscale y\n"
     << "set key center center vertical noautotitle\n"
     << "set xrange [0:1]\nset yrange [0:1]\n"
     << "plot ";
  for (std::size_t s = 0; s < chart.series.size(); ++s)
    gp << (s > 0 ? ", " : "") << "NaN " << line_style(chart.series[s]) << " title " << gp_quote(chart.series[s].title);
  gp << "\nunset multiplot\n";
  return gp.str();
}

std::string find_program(const std::string& program) {
  namespace fs = std::filesystem;
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0 ? program : "";
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / program;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "";
}

PlotStatus render_png(const PanelChart& chart, const std::string& png_path, const std::string& app,
                      const std::string& gnuplot) {
  const std::string program = find_program(gnuplot);
  if (program.empty()) {
    std::cerr << app << ": " << gnuplot << " not found; skipping the plot " << png_path << '\n';
    return PlotStatus::skipped_no_gnuplot;
  }
  const std::string data_path = png_path + ".dat";
  const std::string script_path = png_path + ".gp";
  write_text(data_path, gnuplot_data(chart));
  write_text(script_path, gnuplot_script(chart, png_path, data_path));
  const int status = run_program(program, script_path);
  std::error_code ec;  // the temporary files are not worth an error
  std::filesystem::remove(data_path, ec);
  std::filesystem::remove(script_path, ec);
  BSRFLOW_REQUIRE(status == 0, Errc::io, "gnuplot failed (exit status " + std::to_string(status) + ") drawing " + png_path);
  return PlotStatus::written;
}

}  // namespace bsrflow::bench
