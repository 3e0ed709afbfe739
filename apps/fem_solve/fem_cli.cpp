#include "bsrflow/apps/fem_solve/fem_cli.hpp"

#include <sstream>

#include "bsrflow/apps/common/cli_common.hpp"
#include "bsrflow/apps/fem_solve/fem_reference.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::fem {

namespace po = boost::program_options;

namespace {

struct Raw {
  std::string problem = "poisson";
  std::string precond = "jacobi";
  std::string dtype = "f64";
  std::string refinements = "4,8,16,32";
};

po::options_description describe(FemOptions& o, Raw& raw) {
  po::options_description options("fem_solve options");
  options.add_options()
      ("help,h", po::bool_switch(&o.help), "show this help")
      ("problem", po::value<std::string>(&raw.problem)->default_value(raw.problem), "poisson | elasticity")
      ("n", po::value<int>(&o.n)->default_value(o.n), "cells per side of the unit cube (main solve)")
      ("tol", po::value<double>(&o.tol),
       "PCG relative tolerance (||r|| <= tol ||b||); default 1e-8 for f64, 1e-6 for f32")
      ("max-iter", po::value<int>(&o.max_iterations)->default_value(o.max_iterations), "PCG iteration limit")
      ("precond", po::value<std::string>(&raw.precond)->default_value(raw.precond), "jacobi | block-jacobi")
      ("dtype", po::value<std::string>(&raw.dtype)->default_value(raw.dtype), "f64 | f32")
      ("steps", po::value<int>(&o.steps)->default_value(o.steps),
       "load steps: each scales the coefficient and the load, re-assembles (numeric phases) and replays the solve")
      ("refinements", po::value<std::string>(&raw.refinements)->default_value(raw.refinements),
       "verification meshes (cells per side), each twice the one before, at least 2")
      ("no-verify", po::bool_switch()->notifier([&o](bool off) { if (off) o.verify = false; }),
       "skip the verification table")
      ("vtk", po::value<std::string>(&o.vtk_path), "write the main solve's solution as legacy VTK (ParaView)")
      ("plot", po::value<std::string>(&o.plot_path), "write the residual history of the main solve as PNG (gnuplot)")
      ("compare", po::bool_switch(&o.compare),
       "also solve with a textbook cuSPARSE SpMV + cuBLAS CG, and the BSR system stored as CSR");
  bench::add_timing_options(options, o.timing);
  return options;
}

}  // namespace

FemOptions parse_fem_options(int argc, const char* const* argv) {
  FemOptions o;
  Raw raw;
  const po::options_description options = describe(o, raw);
  const po::variables_map vm = bench::parse_command_line(argc, argv, options);
  if (o.help) return o;
  bench::check_timing_options(o.timing);
  if (raw.problem == "poisson") {
    o.problem = FemProblem::poisson;
  } else if (raw.problem == "elasticity") {
    o.problem = FemProblem::elasticity;
  } else {
    BSRFLOW_FAIL(Errc::invalid_argument, "--problem: unknown problem '" + raw.problem + "' (expected poisson or elasticity)");
  }
  if (raw.precond == "jacobi") {
    o.precond = Preconditioner::jacobi;
  } else if (raw.precond == "block-jacobi") {
    o.precond = Preconditioner::block_jacobi;
  } else {
    BSRFLOW_FAIL(Errc::invalid_argument,
                 "--precond: unknown preconditioner '" + raw.precond + "' (expected jacobi or block-jacobi)");
  }
  o.dtype = bench::parse_dtype_choice(raw.dtype, {DType::f64, DType::f32});
  if (vm.count("tol") == 0) o.tol = o.dtype == DType::f32 ? kDefaultTolF32 : kDefaultTolF64;
  BSRFLOW_REQUIRE(o.n >= 1, Errc::invalid_argument, "--n must be at least 1 (got " + std::to_string(o.n) + ")");
  BSRFLOW_REQUIRE(o.tol > 0 && o.tol < 1, Errc::invalid_argument,
                  "--tol must be in (0, 1) (got " + std::to_string(o.tol) + ")");
  BSRFLOW_REQUIRE(o.max_iterations >= 1, Errc::invalid_argument,
                  "--max-iter must be at least 1 (got " + std::to_string(o.max_iterations) + ")");
  BSRFLOW_REQUIRE(o.steps >= 1, Errc::invalid_argument, "--steps must be at least 1 (got " + std::to_string(o.steps) + ")");
  o.refinements = bench::parse_positive_int_list(raw.refinements, "--refinements");
  BSRFLOW_REQUIRE(o.refinements.size() >= 2, Errc::invalid_argument,
                  "--refinements needs at least 2 meshes to give a rate (got " + raw.refinements + ")");
  for (std::size_t i = 1; i < o.refinements.size(); ++i)
    BSRFLOW_REQUIRE(o.refinements[i] == 2 * o.refinements[i - 1], Errc::invalid_argument,
                    "--refinements: each mesh must have twice the cells per side of the one before (" +
                        std::to_string(o.refinements[i - 1]) + " is followed by " + std::to_string(o.refinements[i]) +
                        ")");
  make_mesh(o.problem, o.n);  // the int32 COO limit, as an argument error before any GPU work
  for (const int n : o.refinements) make_mesh(o.problem, n);
  return o;
}

std::string fem_help() {
  FemOptions scratch;
  Raw raw;
  std::ostringstream text;
  text << "fem_solve: Q1 finite elements on the unit cube (n^3 hexahedra) for Poisson or linear elasticity,\n"
       << "assembled on the GPU (element COO -> CSR -> 3x3 BSR for elasticity, symmetric Dirichlet elimination on\n"
       << "the device) and solved by bsrflow's PCG as one CUDA Graph launch. Prints a verification table against a\n"
       << "manufactured solution (L2 / H1 errors and rates, true residual, iteration counts), the main solve with\n"
       << "its load steps and, with --compare, a textbook cuSPARSE + cuBLAS CG on the same system and the BSR\n"
       << "system stored as CSR. Needs an NVIDIA GPU (H100/H200), exits with 2 without one.\n\n"
       << describe(scratch, raw) << '\n'
       << "Examples:\n  fem_solve --problem poisson --n 64 --compare\n"
       << "  fem_solve --problem elasticity --n 32 --precond block-jacobi --steps 10 --vtk u.vtk --plot res.png\n";
  return text.str();
}

}  // namespace bsrflow::fem
