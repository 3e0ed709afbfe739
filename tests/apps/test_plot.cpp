#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/common/plot.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {
BarChart sample_chart() {
  BarChart chart;
  chart.title = "speed \"test\"";
  chart.ylabel = "TFLOPS";
  chart.categories = {"8192^3 16x16", "8192^3 32x32"};
  chart.series = {"cublas_dense", "cusparse_bsr"};
  chart.values = {{880.0, 13.6}, {870.5, std::nan("")}};
  return chart;
}
}  // namespace

TEST_CASE("gnuplot data: quoted labels, '?' for missing bars", "[apps]") {
  CHECK(gnuplot_data(sample_chart()) ==
        "\"case\" \"cublas_dense\" \"cusparse_bsr\"\n"
        "\"8192^3 16x16\" 880 13.6\n"
        "\"8192^3 32x32\" 870.5 ?\n");
  BarChart bad = sample_chart();
  bad.values.pop_back();
  CHECK_APP_ERROR(gnuplot_data(bad), Errc::invalid_argument, "chart has 2 categories but 1 rows of values");
  bad = sample_chart();
  bad.values[1].push_back(1.0);
  CHECK_APP_ERROR(gnuplot_data(bad), Errc::invalid_argument, "chart row 1 has 3 values for 2 series");
  BarChart zero = sample_chart();
  zero.values[0][1] = 0.0;  // a log axis cannot show 0
  CHECK_THAT(gnuplot_data(zero), Catch::Contains("\"8192^3 16x16\" 880 ?"));
}

TEST_CASE("gnuplot script: PNG output, escaped title, log axis, one bar per series", "[apps]") {
  const std::string gp = gnuplot_script(sample_chart(), "out dir/chart.png", "chart.dat");
  CHECK_THAT(gp, Catch::Contains("set terminal pngcairo"));
  CHECK_THAT(gp, Catch::Contains("set output \"out dir/chart.png\""));
  CHECK_THAT(gp, Catch::Contains("set title \"speed \\\"test\\\"\""));
  CHECK_THAT(gp, Catch::Contains("set logscale y"));
  CHECK_THAT(gp, Catch::Contains("set datafile missing \"?\""));
  CHECK_THAT(gp, Catch::Contains("plot for [i=2:3] \"chart.dat\" using i:xtic(1) title columnheader(i)"));
}

TEST_CASE("render_png skips without gnuplot and draws with it", "[apps]") {
  const auto dir = std::filesystem::temp_directory_path() / "bsrflow_apps_test_plot";
  std::filesystem::create_directories(dir);
  const std::string png = (dir / "chart.png").string();
  // A missing program: skipped, no file, no exception.
  CHECK(render_png(sample_chart(), png, "test", "no-such-gnuplot-binary") == PlotStatus::skipped_no_gnuplot);
  CHECK_FALSE(std::filesystem::exists(png));
  CHECK(find_program("no-such-gnuplot-binary").empty());
  CHECK(find_program("sh") != "");

  if (find_program("gnuplot").empty()) {
    WARN("gnuplot not installed: the drawing half of this test only checks the skip");
    CHECK(render_png(sample_chart(), png, "test") == PlotStatus::skipped_no_gnuplot);
  } else {
    CHECK(render_png(sample_chart(), png, "test") == PlotStatus::written);
    REQUIRE(std::filesystem::exists(png));
    std::ifstream file(png, std::ios::binary);
    char magic[8] = {};
    file.read(magic, 8);
    CHECK(std::string(magic + 1, 3) == "PNG");
    CHECK_FALSE(std::filesystem::exists(png + ".dat"));  // temporary files removed
    CHECK_FALSE(std::filesystem::exists(png + ".gp"));
  }
  // gnuplot itself failing (an unwritable output) is an I/O error, not a crash.
  if (!find_program("gnuplot").empty()) {
    const std::string unwritable = (dir / "missing_dir" / "chart.png").string();
    CHECK_APP_ERROR(render_png(sample_chart(), unwritable, "test"), Errc::io, "cannot open '" + unwritable + ".dat'");
  }
  std::filesystem::remove_all(dir);
}
