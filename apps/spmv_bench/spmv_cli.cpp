#include "bsrflow/apps/spmv_bench/spmv_cli.hpp"

#include <charconv>
#include <cstdint>
#include <sstream>
#include <tuple>

#include "bsrflow/apps/common/cli_common.hpp"
#include "bsrflow/apps/common/poisson.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace po = boost::program_options;

namespace {

struct Raw {
  std::string cases = "poisson_f64,poisson_f32,block_f64";
  std::string variants = "default,team,team16,8x256,16x512,4x128";
};

po::options_description describe(SpmvBenchOptions& o, Raw& raw) {
  po::options_description options("spmv_bench options");
  options.add_options()
      ("help,h", po::bool_switch(&o.help), "show this help")
      ("cases", po::value<std::string>(&raw.cases)->default_value(raw.cases),
       "comma-separated: poisson_f64, poisson_f32, block_f64, block_f32")
      ("poisson-grid", po::value<int>(&o.poisson_grid)->default_value(o.poisson_grid),
       "7-point Poisson CSR on grid^3 rows")
      ("block-grid", po::value<int>(&o.block_grid)->default_value(o.block_grid),
       "dense-block Poisson BSR on grid^3 nodes")
      ("block", po::value<int>(&o.block)->default_value(o.block), "block size of the block cases (1..8)")
      ("variants", po::value<std::string>(&raw.variants)->default_value(raw.variants),
       "bsrflow SpMV configurations: 'default' (the plan's choice), 'bulk' (the bulk kernel), 'team' or "
       "team8|team16|team32 (the team kernel), 'stream' or ITEMSxROWS (the stream kernel, items per thread "
       "4|8|16 x max rows per CTA); "
       "the first also runs with the fused dot")
      ("json", po::value<std::string>(&o.json_path), "write the records as JSON")
      ("csv", po::value<std::string>(&o.csv_path), "write the records as CSV");
  add_timing_options(options, o.timing);
  return options;
}

int whole_int(const std::string& text) {
  int v = -1;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  return res.ec == std::errc() && res.ptr == text.data() + text.size() ? v : -1;
}

}  // namespace

std::vector<std::string> spmv_case_names() { return {"poisson_f64", "poisson_f32", "block_f64", "block_f32"}; }

SpmvOptions parse_spmv_variant(const std::string& text) {
  if (text == "default") return {};
  if (text == "stream") return SpmvOptions{0, 0, SpmvKernel::stream, 0};
  if (text == "bulk") return SpmvOptions{0, 0, SpmvKernel::bulk, 0};
  if (text.starts_with("team")) {
    const int team = text == "team" ? 0 : whole_int(text.substr(4));
    BSRFLOW_REQUIRE(team == 0 || team == 8 || team == 16 || team == 32, Errc::invalid_argument,
                    "--variants: '" + text + "': a team is team8, team16 or team32 (or 'team': the plan's width)");
    return SpmvOptions{0, 0, SpmvKernel::team, team};
  }
  const std::size_t x = text.find('x');
  const int items = x == std::string::npos ? -1 : whole_int(text.substr(0, x));
  const int rows = x == std::string::npos ? -1 : whole_int(text.substr(x + 1));
  BSRFLOW_REQUIRE(items >= 0 && rows >= 0, Errc::invalid_argument,
                  "--variants: '" + text + "' is not 'default', 'bulk', 'stream', 'team', teamN or ITEMSxROWS (e.g. 8x256)");
  BSRFLOW_REQUIRE(items == 4 || items == 8 || items == 16, Errc::invalid_argument,
                  "--variants: '" + text + "': items per thread must be 4, 8 or 16");
  BSRFLOW_REQUIRE(rows >= 1 && rows <= 65536, Errc::invalid_argument,
                  "--variants: '" + text + "': rows per CTA must be in [1, 65536]");
  return {items, rows};
}

std::string spmv_variant_name(const SpmvOptions& v) {
  if (v.kernel == SpmvKernel::team) return v.team == 0 ? "team" : "team" + std::to_string(v.team);
  if (v.kernel == SpmvKernel::bulk) return "bulk";
  if (v.items_per_thread == 0 && v.max_rows_per_cta == 0)
    return v.kernel == SpmvKernel::stream ? "stream" : "default";
  return std::to_string(v.items_per_thread) + "x" + std::to_string(v.max_rows_per_cta);
}

SpmvBenchOptions parse_spmv_bench_options(int argc, const char* const* argv) {
  SpmvBenchOptions o;
  Raw raw;
  const po::options_description options = describe(o, raw);
  parse_command_line(argc, argv, options);
  if (o.help) return o;
  check_timing_options(o.timing);
  for (const std::string& name : parse_name_list(raw.cases, "--cases")) {
    SpmvCase c;
    c.name = name;
    if (name == "poisson_f64" || name == "block_f64") {
      c.dtype = DType::f64;
    } else if (name == "poisson_f32" || name == "block_f32") {
      c.dtype = DType::f32;
    } else {
      BSRFLOW_FAIL(Errc::invalid_argument,
                   "--cases: unknown case '" + name + "' (expected poisson_f64, poisson_f32, block_f64, block_f32)");
    }
    c.blocked = name.rfind("block", 0) == 0;
    o.cases.push_back(c);
  }
  for (const std::string& text : parse_name_list(raw.variants, "--variants")) o.variants.push_back(parse_spmv_variant(text));
  BSRFLOW_REQUIRE(o.block >= 1 && o.block <= 8, Errc::invalid_argument,
                  "--block " + std::to_string(o.block) + " is out of range [1, 8]");
  for (const auto& [option, grid, b] : {std::tuple{"--poisson-grid", o.poisson_grid, 1}, std::tuple{"--block-grid", o.block_grid, o.block}}) {
    BSRFLOW_REQUIRE(grid > 0, Errc::invalid_argument,
                    std::string(option) + " must be positive (got " + std::to_string(grid) + ")");
    const auto g = static_cast<std::int64_t>(grid);
    BSRFLOW_REQUIRE(poisson3d_nnz(grid) < (std::int64_t{1} << 31) && g * g * g * b < (std::int64_t{1} << 31),
                    Errc::invalid_argument,
                    std::string(option) + " " + std::to_string(grid) + " is too large for int32 indices (" +
                        std::to_string(poisson3d_nnz(grid)) + " stored entries or blocks, " +
                        std::to_string(g * g * g * b) + " rows)");
  }
  return o;
}

std::string spmv_bench_help() {
  SpmvBenchOptions scratch;
  Raw raw;
  std::ostringstream text;
  text << "spmv_bench: bsrflow's BSR SpMV (each --variants configuration, and the first one with the fused dot)\n"
       << "against cuSPARSE CSR SpMV and cuSPARSE bsrmv on the 7-point Poisson matrix and its dense-block variant.\n"
       << "Reports GB/s on the bytes that must move and their share of the device-to-device copy bandwidth\n"
       << "measured in the same run. Needs an NVIDIA GPU (H100/H200), exits with 2 without one.\n\n"
       << describe(scratch, raw) << '\n'
       << "Example:\n  spmv_bench --cases poisson_f64,block_f64 --variants 8x256,16x512 --json spmv.json\n";
  return text.str();
}

}  // namespace bsrflow::bench
