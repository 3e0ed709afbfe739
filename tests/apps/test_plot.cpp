#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/common/plot.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {
PanelChart sample_chart() {
  PanelChart chart;
  chart.title = "speed \"test\"";
  chart.xlabel = "block";
  chart.ylabel = "TFLOPS";
  chart.series = {{"cublas_dense", 1, 1}, {"cusparse_bsr f16", 2, 1}, {"cusparse_bsr bf16", 2, 2}};
  chart.panels = {{"8192^3 12.5% uniform", {"16", "16x64"}, {{880.0, 13.6, 12.0}, {870.5, std::nan(""), 11.0}}},
                  {"8192^3 50% uniform", {"32"}, {{800.0, std::nan(""), std::nan("")}}}};
  return chart;
}
}  // namespace

TEST_CASE("gnuplot data: a block per panel, quoted x labels, '?' for missing points", "[apps]") {
  CHECK(gnuplot_data(sample_chart()) ==
        "# panel 0: 8192^3 12.5% uniform\n"
        "\"16\" 880 13.6 12\n"
        "\"16x64\" 870.5 ? 11\n"
        "\n\n"
        "# panel 1: 8192^3 50% uniform\n"
        "\"32\" 800 ? ?\n");
  PanelChart bad = sample_chart();
  bad.panels[0].values.pop_back();
  CHECK_APP_ERROR(gnuplot_data(bad), Errc::invalid_argument,
                  "chart panel 0 ('8192^3 12.5% uniform') has 2 x labels but 1 rows of values");
  bad = sample_chart();
  bad.panels[1].values[0].push_back(1.0);
  CHECK_APP_ERROR(gnuplot_script(bad, "c.png", "c.dat"), Errc::invalid_argument,
                  "chart panel 1 ('8192^3 50% uniform') row 0 has 4 values for 3 series");
  CHECK_APP_ERROR(gnuplot_data(PanelChart{}), Errc::invalid_argument, "chart has 0 panels and 0 series (nothing to plot)");
  PanelChart zero = sample_chart();
  zero.panels[0].values[0][1] = 0.0;  // a log axis cannot show 0
  CHECK_THAT(gnuplot_data(zero), Catch::Contains("\"16\" 880 ? 12"));
  zero.log_y = false;
  CHECK_THAT(gnuplot_data(zero), Catch::Contains("\"16\" 880 0 12"));
}

TEST_CASE("gnuplot script: a multiplot panel per density, a line per series, the key alone", "[apps]") {
  const std::string gp = gnuplot_script(sample_chart(), "out dir/chart.png", "chart.dat");
  CHECK_THAT(gp, Catch::Contains("set terminal pngcairo size 1680,440"));  // 2 panels + the key in one row
  CHECK_THAT(gp, Catch::Contains("set output \"out dir/chart.png\""));
  CHECK_THAT(gp, Catch::Contains("set multiplot layout 1,3 title \"speed \\\"test\\\"\""));
  CHECK_THAT(gp, Catch::Contains("set logscale y"));
  CHECK_THAT(gp, Catch::Contains("set datafile missing \"?\""));
  CHECK_THAT(gp, Catch::Contains("set xlabel \"block\""));
  // Panel 0: every series has points; x positions are the rows, labelled by the first column.
  CHECK_THAT(gp, Catch::Contains("set title \"8192^3 12.5% uniform\"\nset xrange [-0.5:2-0.5]\n"
                                 "plot \"chart.dat\" index 0 using 0:2:xtic(1) with linespoints lc rgb \"#1f77b4\" dt 1 pt 7 ps 0.8 "
                                 "notitle, \"\" index 0 using 0:3 with linespoints lc rgb \"#ff7f0e\" dt 1 pt 7 ps 0.8 notitle, "
                                 "\"\" index 0 using 0:4 with linespoints lc rgb \"#ff7f0e\" dt 2 pt 7 ps 0.8 notitle\n"));
  // Panel 1: only cublas_dense has a point there.
  CHECK_THAT(gp, Catch::Contains("set xrange [-0.5:1-0.5]\n"
                                 "plot \"chart.dat\" index 1 using 0:2:xtic(1) with linespoints lc rgb \"#1f77b4\" dt 1 pt 7 ps 0.8 "
                                 "notitle\n"));
  // The key: one NaN line per series, in the last cell.
  CHECK_THAT(gp, Catch::Contains("plot NaN with linespoints lc rgb \"#1f77b4\" dt 1 pt 7 ps 0.8 title \"cublas_dense\", NaN with "
                                 "linespoints lc rgb \"#ff7f0e\" dt 1 pt 7 ps 0.8 title \"cusparse_bsr f16\", NaN with linespoints "
                                 "lc rgb \"#ff7f0e\" dt 2 pt 7 ps 0.8 title \"cusparse_bsr bf16\"\nunset multiplot\n"));
  // A panel without any point still draws (its x labels and "no results").
  PanelChart empty = sample_chart();
  empty.panels[1].values[0][0] = std::nan("");
  CHECK_THAT(gnuplot_script(empty, "c.png", "c.dat"),
             Catch::Contains("set label 1 \"no results\" at graph 0.5, graph 0.5 center\n"
                             "plot \"c.dat\" index 1 using 0:(1):xtic(1) with points pt -1 notitle\n"));
  // More panels wrap into rows of three.
  PanelChart many = sample_chart();
  for (int i = 0; i < 4; ++i) many.panels.push_back(many.panels[1]);
  CHECK_THAT(gnuplot_script(many, "c.png", "c.dat"), Catch::Contains("set multiplot layout 3,3"));
  CHECK_THAT(gnuplot_script(many, "c.png", "c.dat"), Catch::Contains("size 1680,1240"));
}

TEST_CASE("gnuplot script: every series index up to 60 has a look of its own", "[apps]") {
  // bsr_bench draws 10 systems; gnuplot's own line types repeat their colours after 8 (two
  // systems shared one). Past the 12-colour palette the point shape changes.
  PanelChart chart;
  chart.panels = {{"p", {"16"}, {{}}}};
  for (int i = 1; i <= 60; ++i) {
    chart.series.push_back({"s" + std::to_string(i), i, 1});
    chart.panels[0].values[0].push_back(1.0);
  }
  const std::string gp = gnuplot_script(chart, "c.png", "c.dat");
  std::set<std::string> styles;
  std::size_t pos = 0;
  while ((pos = gp.find("NaN with linespoints ", pos)) != std::string::npos) {  // the key's lines
    const std::size_t start = gp.find("lc rgb", pos);
    const std::size_t end = gp.find(" ps ", start);
    styles.insert(gp.substr(start, end - start));  // colour, dash (1 for all) and point shape
    pos = end;
  }
  CHECK(styles.size() == 60);
  CHECK_THAT(gp, Catch::Contains("NaN with linespoints lc rgb \"#1f77b4\" dt 1 pt 5 ps 0.8 title \"s13\""));
  chart.series[0].color = 0;  // out of range: the first colour, not a crash
  CHECK_THAT(gnuplot_script(chart, "c.png", "c.dat"), Catch::Contains("lc rgb \"#1f77b4\" dt 1 pt 7 ps 0.8 title \"s1\""));
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
    PanelChart empty = sample_chart();  // a panel without points must not stop gnuplot
    empty.panels[1].values[0][0] = std::nan("");
    CHECK(render_png(empty, png, "test") == PlotStatus::written);
  }
  // gnuplot itself failing (an unwritable output) is an I/O error, not a crash.
  if (!find_program("gnuplot").empty()) {
    const std::string unwritable = (dir / "missing_dir" / "chart.png").string();
    CHECK_APP_ERROR(render_png(sample_chart(), unwritable, "test"), Errc::io, "cannot open '" + unwritable + ".dat'");
  }
  std::filesystem::remove_all(dir);
}
