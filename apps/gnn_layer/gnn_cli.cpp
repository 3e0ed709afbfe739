#include "bsrflow/apps/gnn_layer/gnn_cli.hpp"

#include <fstream>
#include <sstream>

#include "bsrflow/apps/common/cli_common.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::gnn {

namespace po = boost::program_options;

namespace {

struct Raw {
  std::string gen;
  std::string reorder;
  std::string path = "auto";
  std::string dtype = "f16";
};

po::options_description describe(GnnOptions& o, Raw& raw) {
  po::options_description options("gnn_layer options");
  options.add_options()
      ("help,h", po::bool_switch(&o.help), "show this help")
      ("graph", po::value<std::string>(&o.graph_path), "edge-list file: SNAP text 'src dst [weight]' or .mtx")
      ("one-based", po::bool_switch(&o.one_based), "ids in the SNAP file start at 1")
      ("undirected", po::bool_switch(&o.undirected), "add the reverse of every edge of the file")
      ("gen", po::value<std::string>(&raw.gen), "generate the graph: sbm (default without --graph) | rmat | karate")
      ("nodes", po::value<int>(&o.sbm.nodes)->default_value(o.sbm.nodes), "sbm: nodes")
      ("communities", po::value<int>(&o.sbm.communities)->default_value(o.sbm.communities), "sbm: communities")
      ("avg-degree", po::value<double>(&o.sbm.avg_degree)->default_value(o.sbm.avg_degree), "sbm: mean degree")
      ("intra", po::value<double>(&o.sbm.intra_fraction)->default_value(o.sbm.intra_fraction),
       "sbm: fraction of edges inside a community")
      ("scale", po::value<int>(&o.rmat.scale)->default_value(o.rmat.scale), "rmat: 2^scale nodes")
      ("edge-factor", po::value<double>(&o.rmat.edge_factor)->default_value(o.rmat.edge_factor),
       "rmat: drawn edges per node")
      ("graph-seed", po::value<std::uint64_t>(&o.sbm.seed)->default_value(o.sbm.seed), "generator seed")
      ("improved", po::bool_switch(&o.norm.improved), "self loops of weight 2 (GCNConv improved=True)")
      ("no-normalize", po::bool_switch()->notifier([&o](bool off) { if (off) o.norm.normalize = false; }),
       "raw edge weights, no loops added (GCNConv normalize=False)")
      ("no-self-loops", po::bool_switch()->notifier([&o](bool off) { if (off) o.norm.add_self_loops = false; }),
       "no loops added (GCNConv add_self_loops=False)")
      ("reorder", po::value<std::string>(&raw.reorder),
       "none | rcm | community (default: community for sbm, none otherwise)")
      ("path", po::value<std::string>(&raw.path)->default_value(raw.path),
       "auto (from the block fill) | bsr | csr")
      ("block", po::value<int>(&o.block)->default_value(0), "BSR block size (16, 32, 64, 128); 0 = from the fill")
      ("no-split", po::bool_switch()->notifier([&o](bool off) { if (off) o.split = false; }),
       "BSR path: every block to BSR, no CSR remainder")
      ("layers", po::value<int>(&o.layers)->default_value(o.layers), "GCN layers")
      ("in", po::value<int>(&o.in)->default_value(o.in), "input features")
      ("hidden", po::value<int>(&o.hidden)->default_value(o.hidden), "hidden features")
      ("out", po::value<int>(&o.out)->default_value(o.out), "output features")
      ("dtype", po::value<std::string>(&raw.dtype)->default_value(raw.dtype), "f16 | bf16")
      ("seed", po::value<std::uint64_t>(&o.seed)->default_value(o.seed), "features and weights seed")
      ("no-peer", po::bool_switch()->notifier([&o](bool off) { if (off) o.peer = false; }),
       "skip the cuSPARSE CSR layer")
      ("json", po::value<std::string>(&o.json_path), "write the records as JSON")
      ("csv", po::value<std::string>(&o.csv_path), "write the records as CSV")
      ("dump", po::value<std::string>(&o.dump_dir), "write graph, features, weights and output to DIR (pyg_compare.py)");
  bench::add_timing_options(options, o.timing);
  return options;
}

}  // namespace

const char* source_name(GraphSource s) {
  switch (s) {
    case GraphSource::file: return "file";
    case GraphSource::rmat: return "rmat";
    case GraphSource::karate: return "karate";
    case GraphSource::sbm: break;
  }
  return "sbm";
}

GnnOptions parse_gnn_options(int argc, const char* const* argv) {
  GnnOptions o;
  Raw raw;
  const po::options_description options = describe(o, raw);
  bench::parse_command_line(argc, argv, options);
  if (o.help) return o;
  bench::check_timing_options(o.timing);
  BSRFLOW_REQUIRE(o.graph_path.empty() || raw.gen.empty(), Errc::invalid_argument,
                  "--graph and --gen exclude each other");
  if (!o.graph_path.empty()) {
    // Checked here, before the GPU check and any work, so a mistyped path is the first thing said.
    BSRFLOW_REQUIRE(std::ifstream(o.graph_path).good(), Errc::io, "--graph: cannot open '" + o.graph_path + "'");
    o.source = GraphSource::file;
  } else if (raw.gen.empty() || raw.gen == "sbm") {
    o.source = GraphSource::sbm;
  } else if (raw.gen == "rmat") {
    o.source = GraphSource::rmat;
  } else if (raw.gen == "karate") {
    o.source = GraphSource::karate;
  } else {
    BSRFLOW_FAIL(Errc::invalid_argument, "--gen: expected sbm, rmat or karate, got '" + raw.gen + "'");
  }
  o.rmat.seed = o.sbm.seed;
  if (o.source == GraphSource::sbm) check_sbm_params(o.sbm);
  if (o.source == GraphSource::rmat) check_rmat_params(o.rmat);
  o.reorder_given = !raw.reorder.empty();
  o.reorder = o.reorder_given ? parse_reorder(raw.reorder)
                              : (o.source == GraphSource::sbm ? Reorder::community : Reorder::none);
  BSRFLOW_REQUIRE(o.reorder != Reorder::community || o.source == GraphSource::sbm, Errc::invalid_argument,
                  "--reorder community needs community labels, which only --gen sbm provides (try rcm)");
  if (raw.path == "auto") {
    o.path = PathRequest::automatic;
  } else if (raw.path == "bsr") {
    o.path = PathRequest::bsr;
  } else if (raw.path == "csr") {
    o.path = PathRequest::csr;
  } else {
    BSRFLOW_FAIL(Errc::invalid_argument, "--path: expected auto, bsr or csr, got '" + raw.path + "'");
  }
  BSRFLOW_REQUIRE(o.block == 0 || o.block == 16 || o.block == 32 || o.block == 64 || o.block == 128,
                  Errc::invalid_argument,
                  "--block: expected 16, 32, 64 or 128 (the Hopper kernel's sizes), got " + std::to_string(o.block));
  BSRFLOW_REQUIRE(o.block == 0 || o.path != PathRequest::csr, Errc::invalid_argument,
                  "--block and --path csr exclude each other");
  BSRFLOW_REQUIRE(o.layers >= 1 && o.in >= 1 && o.hidden >= 1 && o.out >= 1, Errc::invalid_argument,
                  "--layers, --in, --hidden and --out must all be positive");
  o.dtype = bench::parse_dtype_choice(raw.dtype, {DType::f16, DType::bf16});
  return o;
}

std::string gnn_help() {
  GnnOptions scratch;
  Raw raw;
  std::ostringstream text;
  text << "gnn_layer: a GCN forward pass (PyTorch Geometric GCNConv semantics) with the aggregation on bsrflow's\n"
       << "BSR GEMM (dense blocks) plus a CSR remainder, the dense products on cuBLAS, captured into a CUDA Graph and\n"
       << "replayed; against the same layer with cuSPARSE CSR SpMM. Reports ms per forward (graph replay and eager),\n"
       << "edges/s, effective TFLOPS, block fill, and checks the output against a CPU reference (docs/gnn_layer.md).\n"
       << "Needs an NVIDIA GPU (H100/H200), exits with 2 without one.\n\n"
       << describe(scratch, raw) << '\n'
       << "Examples:\n  gnn_layer --gen sbm --nodes 200000 --communities 2000 --avg-degree 32\n"
       << "  gnn_layer --gen karate --layers 1 --in 16 --out 8 --dump karate_dump\n"
       << "  gnn_layer --graph roadNet-CA.txt --undirected --reorder rcm\n";
  return text.str();
}

}  // namespace bsrflow::gnn
