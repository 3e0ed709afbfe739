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

}  // namespace

std::string gnuplot_data(const BarChart& chart) {
  BSRFLOW_REQUIRE(chart.values.size() == chart.categories.size(), Errc::invalid_argument,
                  "chart has " + std::to_string(chart.categories.size()) + " categories but " +
                      std::to_string(chart.values.size()) + " rows of values");
  std::string out = gp_quote("case");
  for (const auto& s : chart.series) {
    out += ' ';
    out += gp_quote(s);
  }
  out += "\n";
  for (std::size_t c = 0; c < chart.categories.size(); ++c) {
    BSRFLOW_REQUIRE(chart.values[c].size() == chart.series.size(), Errc::invalid_argument,
                    "chart row " + std::to_string(c) + " has " + std::to_string(chart.values[c].size()) +
                        " values for " + std::to_string(chart.series.size()) + " series");
    out += gp_quote(chart.categories[c]);
    for (const double v : chart.values[c]) {
      // Log scale cannot show <= 0: those bars are missing too.
      if (!std::isfinite(v) || (chart.log_y && v <= 0)) {
        out += " ?";
        continue;
      }
      char buf[32];
      const auto res = std::to_chars(buf, buf + sizeof(buf), v);
      out += ' ';
      out.append(buf, res.ptr);
    }
    out += "\n";
  }
  return out;
}

std::string gnuplot_script(const BarChart& chart, const std::string& png_path, const std::string& data_path) {
  // Width grows with the number of bars so labels stay readable.
  const std::size_t bars = chart.categories.size() * (chart.series.size() + 1);
  const std::size_t width = std::max<std::size_t>(900, std::min<std::size_t>(4000, 40 + 14 * bars));
  std::ostringstream gp;
  gp << "set terminal pngcairo size " << width << ",720 noenhanced font \"sans,9\"\n"
     << "set output " << gp_quote(png_path) << "\n"
     << "set title " << gp_quote(chart.title) << "\n"
     << "set ylabel " << gp_quote(chart.ylabel) << "\n"
     << "set datafile missing \"?\"\n"
     << "set style data histograms\n"
     << "set style histogram clustered gap 1\n"
     << "set style fill solid 0.85 border -1\n"
     << "set boxwidth 0.9\n"
     << "set key outside right top vertical\n"
     << "set xtics rotate by 30 right\n"  // labels end at their tick: long case names stay readable
     << "set grid ytics\n"
     << "set bmargin 14\n"
     << "set lmargin 16\n";
  if (chart.log_y) gp << "set logscale y\n";
  else gp << "set yrange [0:*]\n";
  gp << "plot for [i=2:" << chart.series.size() + 1 << "] " << gp_quote(data_path)
     << " using i:xtic(1) title columnheader(i)\n";
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

PlotStatus render_png(const BarChart& chart, const std::string& png_path, const std::string& app,
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
