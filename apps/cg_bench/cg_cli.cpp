#include "bsrflow/apps/cg_bench/cg_cli.hpp"

#include <cstdint>
#include <sstream>

#include "bsrflow/apps/common/cli_common.hpp"
#include "bsrflow/apps/common/poisson.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace po = boost::program_options;

namespace {

struct Raw {
  std::string grids = "32,64,128";
  std::string dtype = "f64";
  std::string preconds = "none,jacobi";
};

po::options_description describe(CgBenchOptions& o, Raw& raw) {
  po::options_description options("cg_bench options");
  options.add_options()
      ("help,h", po::bool_switch(&o.help), "show this help")
      ("grids", po::value<std::string>(&raw.grids)->default_value(raw.grids),
       "comma-separated Poisson grid edges (grid^3 rows each)")
      ("dtype", po::value<std::string>(&raw.dtype)->default_value(raw.dtype), "f64 | f32")
      ("precond", po::value<std::string>(&raw.preconds)->default_value(raw.preconds),
       "comma-separated preconditioners: none, jacobi")
      ("cg-iterations", po::value<int>(&o.cg_iterations)->default_value(o.cg_iterations),
       "CG iterations per timed solve (K; no convergence stop)")
      ("no-peer", po::bool_switch()->notifier([&o](bool off) { if (off) o.peer = false; }),
       "skip the cuSPARSE + cuBLAS CG")
      ("json", po::value<std::string>(&o.json_path), "write the records as JSON")
      ("csv", po::value<std::string>(&o.csv_path), "write the records as CSV");
  add_timing_options(options, o.timing);
  return options;
}

}  // namespace

CgBenchOptions parse_cg_bench_options(int argc, const char* const* argv) {
  CgBenchOptions o;
  Raw raw;
  const po::options_description options = describe(o, raw);
  parse_command_line(argc, argv, options);
  if (o.help) return o;
  check_timing_options(o.timing);
  o.grids = parse_positive_int_list(raw.grids, "--grids");
  for (const int grid : o.grids) {
    const auto g = static_cast<std::int64_t>(grid);
    BSRFLOW_REQUIRE(poisson3d_nnz(grid) < (std::int64_t{1} << 31) && g * g * g < (std::int64_t{1} << 31),
                    Errc::invalid_argument,
                    "--grids: " + std::to_string(grid) + " gives " + std::to_string(poisson3d_nnz(grid)) +
                        " entries; int32 indices allow fewer than 2^31");
  }
  o.dtype = parse_dtype_choice(raw.dtype, {DType::f64, DType::f32});
  o.preconds.clear();
  for (const std::string& name : parse_name_list(raw.preconds, "--precond")) {
    if (name == "none") {
      o.preconds.push_back(Preconditioner::none);
    } else if (name == "jacobi") {
      o.preconds.push_back(Preconditioner::jacobi);
    } else {
      BSRFLOW_FAIL(Errc::invalid_argument, "--precond: unknown preconditioner '" + name + "' (expected none or jacobi)");
    }
  }
  BSRFLOW_REQUIRE(o.cg_iterations >= 1, Errc::invalid_argument,
                  "--cg-iterations must be at least 1 (got " + std::to_string(o.cg_iterations) + ")");
  return o;
}

std::string cg_bench_help() {
  CgBenchOptions scratch;
  Raw raw;
  std::ostringstream text;
  text << "cg_bench: one CG iteration on the 3D 7-point Poisson matrix, bsrflow's PcgSolver in three launch modes\n"
       << "(whole solve as one graph launch with a device-side WHILE loop; one graph launch + host check per\n"
       << "iteration; kernels launched one by one) against a textbook cuSPARSE + cuBLAS CG in the same process.\n"
       << "Each solve runs exactly --cg-iterations iterations; reports us per iteration, GB/s on the byte model\n"
       << "(docs/benchmarks/cg_bench.md) and its share of the device-to-device copy bandwidth of the same run.\n"
       << "Needs an NVIDIA GPU (H100/H200), exits with 2 without one.\n\n"
       << describe(scratch, raw) << '\n'
       << "Example:\n  cg_bench --grids 32,128 --precond none --json cg.json\n";
  return text.str();
}

}  // namespace bsrflow::bench
