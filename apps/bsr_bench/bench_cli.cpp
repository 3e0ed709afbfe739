#include "bsrflow/apps/bsr_bench/bench_cli.hpp"

#include <algorithm>
#include <sstream>

#include "bsrflow/apps/bsr_bench/suites.hpp"
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/apps/common/cli_common.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace po = boost::program_options;

namespace {

// Every option, bound where a plain value suffices; the single-case ones are read from the
// variables_map so that "given or not" is known.
po::options_description describe(BenchOptions& o) {
  po::options_description general("General");
  general.add_options()
      ("help,h", po::bool_switch(&o.help), "show this help")
      ("list-systems", po::bool_switch(&o.list_systems), "list the systems that can run and exit")
      ("suite", po::value<std::string>(), "quick | standard | llm | skinny (default: standard)")
      ("chain", po::value<int>(),
       "time L products back to back, each on its own weights (A's values), as a decode step runs its layers; "
       "figures are per product (every case of the run; default 1: one product after an L2 flush)")
      ("systems", po::value<std::string>(), "comma-separated systems to run (default: all)")
      ("sm90-configs", po::value<std::string>(),
       "also run these Hopper kernel configurations, one system each, named by the plan: 'all' (every one "
       "instantiated for the case, at the default k-chunk) or a list like "
       "swath256_direct,swath512_swap,swath256_direct_kc32 (--list-systems shows them)");
  po::options_description one("One case (instead of a suite)");
  one.add_options()
      ("m", po::value<int>(), "rows of A and C")
      ("n", po::value<int>(), "columns of B and C")
      ("k", po::value<int>(), "columns of A, rows of B")
      ("block", po::value<std::string>(), "block shape R or RxC (default 32)")
      ("density", po::value<double>(), "fraction of blocks stored (default 0.125)")
      ("pattern", po::value<std::string>(), "uniform | powerlaw | banded | clustered (default uniform)")
      ("dtype", po::value<std::string>(), "f16 | bf16 (default f16)")
      ("b-layout", po::value<std::string>(), "row | col (default row)")
      ("c-layout", po::value<std::string>(), "row | col (default row)")
      ("seed", po::value<unsigned>(), "pattern and data seed (default 1)");
  po::options_description timing("Timing");
  add_timing_options(timing, o.runner.timing);
  timing.add_options()("reference-iters", po::value<int>(&o.runner.reference_iters)->default_value(3),
                       "timed runs of the slow reference kernel");
  timing.add_options()("no-gpu-monitor", po::bool_switch(),
                       "do not sample the SM clock and power during the timed runs (column 'SM MHz (NVML)')");
  po::options_description output("Output");
  output.add_options()
      ("json", po::value<std::string>(&o.json_path), "write the records as JSON")
      ("csv", po::value<std::string>(&o.csv_path), "write the records as CSV")
      ("plot", po::value<std::string>(&o.plot_path), "draw a PNG chart (needs gnuplot; skipped without it)")
      ("plot-from", po::value<std::string>(&o.plot_from), "draw --plot from this JSON file instead of running");
  po::options_description all("bsr_bench options");
  all.add(general).add(one).add(timing).add(output);
  return all;
}

const char* const kCaseOptions[] = {"m", "n", "k", "block", "density", "pattern", "dtype", "b-layout", "c-layout", "seed"};

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

BenchCase single_case(const po::variables_map& vm) {
  std::vector<std::string> missing;
  for (const char* dim : {"m", "n", "k"})
    if (vm.count(dim) == 0) missing.push_back(std::string("--") + dim);
  BSRFLOW_REQUIRE(missing.empty(), Errc::invalid_argument,
                  "a single case needs --m, --n and --k (missing " + join(missing) + ")");
  BenchCase c;
  c.m = vm["m"].as<int>();
  c.n = vm["n"].as<int>();
  c.k = vm["k"].as<int>();
  if (vm.count("block")) {
    const BlockShape b = parse_block_shape(vm["block"].as<std::string>());
    c.R = b.R;
    c.C = b.C;
  }
  if (vm.count("density")) c.density = vm["density"].as<double>();
  if (vm.count("pattern")) c.pattern = parse_pattern(vm["pattern"].as<std::string>());
  if (vm.count("dtype")) {
    c.dtype = parse_dtype_choice(vm["dtype"].as<std::string>(), {DType::f16, DType::bf16});
  }
  if (vm.count("b-layout")) c.b_layout = parse_layout(vm["b-layout"].as<std::string>(), "--b-layout");
  if (vm.count("c-layout")) c.c_layout = parse_layout(vm["c-layout"].as<std::string>(), "--c-layout");
  if (vm.count("seed")) c.seed = vm["seed"].as<unsigned>();
  check_case(c);
  return c;
}

}  // namespace

BenchOptions parse_bench_options(int argc, const char* const* argv) {
  BenchOptions o;
  const po::options_description options = describe(o);
  const po::variables_map vm = parse_command_line(argc, argv, options);
  if (o.help) return o;

  check_timing_options(o.runner.timing);
  o.runner.gpu_monitor = !vm["no-gpu-monitor"].as<bool>();
  BSRFLOW_REQUIRE(o.runner.reference_iters >= 1, Errc::invalid_argument,
                  "--reference-iters must be at least 1 (got " + std::to_string(o.runner.reference_iters) + ")");
  if (vm.count("systems")) {
    const std::vector<std::string> known = system_names();
    for (const auto& name : parse_name_list(vm["systems"].as<std::string>(), "--systems")) {
      BSRFLOW_REQUIRE(std::find(known.begin(), known.end(), name) != known.end(), Errc::invalid_argument,
                      "--systems: unknown system '" + name + "' (known: " + join(known) + ")");
      if (std::find(o.runner.systems.begin(), o.runner.systems.end(), name) == o.runner.systems.end())
        o.runner.systems.push_back(name);
    }
  }
  if (vm.count("sm90-configs")) o.runner.sm90 = parse_sm90_request(vm["sm90-configs"].as<std::string>());
  if (o.list_systems) return o;

  std::vector<std::string> case_options;
  for (const char* name : kCaseOptions)
    if (vm.count(name)) case_options.push_back(std::string("--") + name);

  if (!o.plot_from.empty()) {
    BSRFLOW_REQUIRE(!o.plot_path.empty(), Errc::invalid_argument, "--plot-from needs --plot OUT.png");
    BSRFLOW_REQUIRE(vm.count("suite") == 0 && vm.count("chain") == 0 && case_options.empty(), Errc::invalid_argument,
                    "--plot-from runs nothing; drop --suite, --chain and the single-case options");
    return o;
  }
  if (!case_options.empty()) {
    BSRFLOW_REQUIRE(vm.count("suite") == 0, Errc::invalid_argument,
                    "--suite cannot be combined with single-case options (" + join(case_options) + ")");
    o.cases.push_back(single_case(vm));
  } else {
    o.suite = vm.count("suite") ? vm["suite"].as<std::string>() : "standard";
    o.cases = suite_cases(o.suite);
  }
  if (vm.count("chain")) {
    for (BenchCase& c : o.cases) {
      c.chain = vm["chain"].as<int>();
      check_case(c);
    }
  }
  check_sm90_request(o.runner.sm90, o.cases);
  return o;
}

std::string bench_help() {
  BenchOptions scratch;
  std::ostringstream text;
  text << "bsr_bench: the bsrflow BSR x dense GEMM against cuBLAS dense and cuSPARSE (BSR, Blocked-ELL).\n"
       << "Runs the standard suite without arguments; needs an NVIDIA GPU (H100/H200), exits with 2 without one.\n\n"
       << describe(scratch) << '\n'
       << "Examples:\n"
       << "  bsr_bench --suite quick --json quick.json --plot quick.png\n"
       << "  bsr_bench --m 8192 --n 8192 --k 8192 --block 64 --density 0.125 --pattern powerlaw\n"
       << "  bsr_bench --suite quick --sm90-configs all      (every Hopper configuration as its own system)\n"
       << "  bsr_bench --suite skinny --chain 8              (8 products back to back, as in a decode step)\n"
       << "  bsr_bench --plot-from results.json --plot chart.png   (no GPU needed)\n";
  return text.str();
}

}  // namespace bsrflow::bench
