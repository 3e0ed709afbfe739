#include "bsrflow/apps/convert_bench/convert_cli.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "bsrflow/apps/common/cli_common.hpp"
#include "bsrflow/apps/common/poisson.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace po = boost::program_options;

namespace {

struct Raw {
  std::string dtype = "f64";
  std::string blocks = "3,16,32";
  std::string numeric = "staged,scatter,staged-wide";
  bool no_pool_kept = false;
};

// "scatter,staged" -> the variants, in order, each once.
std::vector<CsrToBsrNumeric> parse_numeric_variants(const std::string& text) {
  const auto& kAll = kCsrToBsrNumericVariants;
  std::vector<CsrToBsrNumeric> variants;
  std::string known;
  for (const CsrToBsrNumeric v : kAll) known += (known.empty() ? "" : ", ") + std::string(numeric_variant_name(v));
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string name = text.substr(start, comma - start);
    bool found = false;
    for (const CsrToBsrNumeric v : kAll)
      if (name == numeric_variant_name(v)) {
        found = true;
        BSRFLOW_REQUIRE(std::find(variants.begin(), variants.end(), v) == variants.end(), Errc::invalid_argument,
                        "--numeric: '" + name + "' is listed twice");
        variants.push_back(v);
      }
    BSRFLOW_REQUIRE(found, Errc::invalid_argument,
                    "--numeric: unknown variant '" + name + "' (expected a comma-separated list of " + known + ")");
    start = comma + 1;
  }
  return variants;
}

po::options_description describe(ConvertOptions& o, Raw& raw) {
  po::options_description options("convert_bench options");
  options.add_options()
      ("help,h", po::bool_switch(&o.help), "show this help")
      ("dtype", po::value<std::string>(&raw.dtype)->default_value(raw.dtype), "f64 | f32 | f16 | bf16 (cuSPARSE: f32, f64)")
      ("grid", po::value<int>(&o.grid)->default_value(o.grid), "Poisson grid edge: grid^3 rows")
      ("blocks", po::value<std::string>(&raw.blocks)->default_value(raw.blocks), "comma-separated square block sizes")
      ("numeric", po::value<std::string>(&raw.numeric)->default_value(raw.numeric),
       "comma-separated numeric kernels, each timed as its own system: staged (the library's default, system "
       "'bsrflow'), scatter ('bsrflow-scatter'), staged-wide ('bsrflow-staged-wide')")
      ("no-pool-kept", po::bool_switch(&raw.no_pool_kept),
       "leave out the 'symbolic+numeric, pool kept' rows (symbolic+numeric timed again with the memory pool keeping "
       "freed memory, which shows what the allocations cost)")
      ("json", po::value<std::string>(&o.json_path), "write the records as JSON")
      ("csv", po::value<std::string>(&o.csv_path), "write the records as CSV");
  add_timing_options(options, o.timing);
  return options;
}

}  // namespace

ConvertOptions parse_convert_options(int argc, const char* const* argv) {
  ConvertOptions o;
  Raw raw;
  const po::options_description options = describe(o, raw);
  parse_command_line(argc, argv, options);
  if (o.help) return o;
  check_timing_options(o.timing);
  o.dtype = parse_dtype_choice(raw.dtype, {DType::f64, DType::f32, DType::f16, DType::bf16});
  BSRFLOW_REQUIRE(o.grid > 0, Errc::invalid_argument, "--grid must be positive (got " + std::to_string(o.grid) + ")");
  BSRFLOW_REQUIRE(poisson3d_nnz(o.grid) < (std::int64_t{1} << 31), Errc::invalid_argument,
                  "--grid " + std::to_string(o.grid) + " gives " + std::to_string(poisson3d_nnz(o.grid)) +
                      " entries; int32 indices allow fewer than 2^31");
  o.blocks = parse_positive_int_list(raw.blocks, "--blocks");
  o.numeric_variants = parse_numeric_variants(raw.numeric);
  o.pool_kept = !raw.no_pool_kept;
  return o;
}

std::string convert_help() {
  ConvertOptions scratch;
  Raw raw;
  std::ostringstream text;
  text << "convert_bench: CSR -> BSR (bsrflow::CsrToBsr: symbolic + numeric, and the numeric refresh alone) against\n"
       << "cuSPARSE csr2bsr on the 3D 7-point Poisson matrix. Needs an NVIDIA GPU (H100/H200), exits with 2 without one.\n\n"
       << describe(scratch, raw) << '\n'
       << "Example:\n  convert_bench --grid 128 --blocks 3,16,32 --json convert.json\n";
  return text.str();
}

}  // namespace bsrflow::bench
