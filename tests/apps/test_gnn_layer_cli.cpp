// gnn_layer: command line, graph loading and the report (CPU).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/gnn_layer/gcn_norm.hpp"
#include "bsrflow/apps/gnn_layer/gcn_reference.hpp"
#include "bsrflow/apps/gnn_layer/gnn_cli.hpp"
#include "bsrflow/apps/gnn_layer/gnn_dump.hpp"
#include "bsrflow/apps/gnn_layer/karate_club.hpp"
#include "bsrflow/apps/gnn_layer/gnn_runner.hpp"
#include "support/expect_error.hpp"
#include "support/temp_dir.hpp"

using namespace bsrflow;
using namespace bsrflow::gnn;

namespace {
GnnOptions parse(std::vector<std::string> args) {
  const test::Args a(std::move(args));
  return parse_gnn_options(a.argc(), a.argv());
}
}  // namespace

TEST_CASE("gnn_layer command line: defaults and options", "[apps][gnn]") {
  const GnnOptions d = parse({});
  CHECK(d.source == GraphSource::sbm);
  CHECK(d.sbm.nodes == 100000);
  CHECK(d.reorder == Reorder::community);  // the SBM default
  CHECK_FALSE(d.reorder_given);
  CHECK(d.path == PathRequest::automatic);
  CHECK(d.block == 0);
  CHECK(d.split);
  CHECK(d.norm.normalize);
  CHECK(d.norm.add_self_loops);
  CHECK_FALSE(d.norm.improved);
  CHECK(d.layers == 2);
  CHECK(d.dtype == DType::f16);
  CHECK(d.peer);
  CHECK(d.timing.iters == 20);

  const GnnOptions o = parse({"--gen", "rmat", "--scale", "12", "--edge-factor", "4", "--graph-seed", "9", "--reorder",
                              "rcm", "--path", "bsr", "--block", "32", "--no-split", "--layers", "3", "--in", "16",
                              "--hidden", "24", "--out", "8", "--dtype", "bf16", "--improved", "--no-self-loops",
                              "--no-normalize", "--seed", "4", "--no-peer", "--iters", "3", "--warmup", "1",
                              "--json", "g.json", "--csv", "g.csv", "--dump", "d"});
  CHECK(o.source == GraphSource::rmat);
  CHECK(o.rmat.scale == 12);
  CHECK(o.rmat.edge_factor == 4);
  CHECK(o.rmat.seed == 9);
  CHECK(o.reorder == Reorder::rcm);
  CHECK(o.path == PathRequest::bsr);
  CHECK(o.block == 32);
  CHECK_FALSE(o.split);
  CHECK(o.layers == 3);
  CHECK(o.in == 16);
  CHECK(o.hidden == 24);
  CHECK(o.out == 8);
  CHECK(o.dtype == DType::bf16);
  CHECK(o.norm.improved);
  CHECK_FALSE(o.norm.add_self_loops);
  CHECK_FALSE(o.norm.normalize);
  CHECK(o.seed == 4);
  CHECK_FALSE(o.peer);
  CHECK(o.timing.iters == 3);
  CHECK(o.json_path == "g.json");
  CHECK(o.csv_path == "g.csv");
  CHECK(o.dump_dir == "d");

  const test::TempDir dir("gnn_cli");
  const std::string edges = (dir.path / "x.txt").string();
  std::ofstream(edges) << "1 2\n";
  const GnnOptions f = parse({"--graph", edges, "--one-based", "--undirected"});
  CHECK(f.source == GraphSource::file);
  CHECK(f.reorder == Reorder::none);  // no labels, no default reordering
  CHECK(f.one_based);
  CHECK(f.undirected);
  CHECK(parse({"--gen", "karate"}).source == GraphSource::karate);
  CHECK(parse({"--help"}).help);
  CHECK_FALSE(gnn_help().empty());
}

TEST_CASE("gnn_layer command line: errors name the option", "[apps][gnn]") {
  BSRFLOW_CHECK_ERROR(parse({"--gen", "ba"}), Errc::invalid_argument, "--gen: expected sbm, rmat or karate, got 'ba'");
  BSRFLOW_CHECK_ERROR(parse({"--gen", "sbm", "--graph", "x"}), Errc::invalid_argument,
                      "--graph and --gen exclude each other");
  BSRFLOW_CHECK_ERROR(parse({"--graph", "/nonexistent/edges.txt"}), Errc::io,
                      "--graph: cannot open '/nonexistent/edges.txt'");
  BSRFLOW_CHECK_ERROR(parse({"--reorder", "metis"}), Errc::invalid_argument,
                      "--reorder: expected none, rcm or community, got 'metis'");
  BSRFLOW_CHECK_ERROR(parse({"--gen", "rmat", "--reorder", "community"}), Errc::invalid_argument,
                      "--reorder community needs community labels, which only --gen sbm provides (try rcm)");
  BSRFLOW_CHECK_ERROR(parse({"--path", "dense"}), Errc::invalid_argument,
                      "--path: expected auto, bsr or csr, got 'dense'");
  BSRFLOW_CHECK_ERROR(parse({"--block", "48"}), Errc::invalid_argument,
                      "--block: expected 16, 32, 64 or 128 (the Hopper kernel's sizes), got 48");
  BSRFLOW_CHECK_ERROR(parse({"--block", "32", "--path", "csr"}), Errc::invalid_argument,
                      "--block and --path csr exclude each other");
  BSRFLOW_CHECK_ERROR(parse({"--layers", "0"}), Errc::invalid_argument,
                      "--layers, --in, --hidden and --out must all be positive");
  BSRFLOW_CHECK_ERROR(parse({"--dtype", "f32"}), Errc::invalid_argument, "--dtype: unsupported dtype 'f32' (expected f16 or bf16)");
  BSRFLOW_CHECK_ERROR(parse({"--nodes", "1"}), Errc::invalid_argument, "sbm: --nodes must be at least 2, got 1");
  BSRFLOW_CHECK_ERROR(parse({"--gen", "rmat", "--scale", "31"}), Errc::invalid_argument,
                      "rmat: --scale must be in [1, 30], got 31");
  CHECK_APP_ERROR(parse({"--iters", "0"}), Errc::invalid_argument, "--iters");
  CHECK_APP_ERROR(parse({"--frobnicate"}), Errc::invalid_argument, "frobnicate");
}

TEST_CASE("gnn_layer graph loading", "[apps][gnn]") {
  std::vector<int> labels;
  const EdgeList k = load_graph(parse({"--gen", "karate"}), &labels);
  CHECK(k.nodes == 34);
  CHECK(k.edges() == 156);
  CHECK(labels.empty());
  const EdgeList s = load_graph(parse({"--nodes", "500", "--communities", "5", "--avg-degree", "8"}), &labels);
  CHECK(s.nodes == 500);
  CHECK(labels.size() == 500);
  const std::string path = "gnn_cli_test_edges.txt";
  {
    std::ofstream out(path);
    out << "# 1-based\n1 2\n2 3\n";
  }
  const EdgeList f = load_graph(parse({"--graph", path, "--one-based", "--undirected"}), nullptr);
  std::remove(path.c_str());
  CHECK(f.nodes == 3);
  CHECK(f.src == std::vector<int>{0, 1, 1, 2});
  CHECK(f.dst == std::vector<int>{1, 2, 0, 1});
  CHECK(output_tolerance(DType::f16) == 3e-3);
  CHECK(output_tolerance(DType::bf16) == 2e-2);
}

TEST_CASE("gnn_layer report", "[apps][gnn]") {
  GnnRun run;
  run.graph = "sbm graph: 10 nodes";
  run.adjacency_check = "A_hat ok";
  run.choice.reason = "BSR path, block 64";
  run.choice.block = 64;
  run.choice.fills.push_back({.block = 64, .nnz = 100, .nnzb = 4, .fill = 0.0061, .nnzb_kept = 2, .nnz_kept = 90,
                              .fill_kept = 0.011, .predicted_cost = 1, .predicted_speedup = 3.5});
  run.notes = {"layer 0 (8 -> 4): XW (cuBLAS), then aggregate bsr_x + CSR rest"};
  run.output_check = "output ok";
  const auto rec = [](const char* system, const char* mode, double ms, double speedup) {
    bench::Record r;
    r.set("system", system);
    r.set("path", "p");
    r.set("mode", mode);
    r.set("ms", ms);
    r.set("ms_p10", ms);
    r.set("ms_p90", ms);
    r.set("edges_per_s", 2e9);
    r.set("tflops", 1.5);
    r.set("speedup_vs_peer", speedup);
    r.set("rel_error", 1e-3);
    r.set("checked", true);
    r.set("correct", true);
    return r;
  };
  run.records = {rec("bsrflow", "graph", 0.5, 2.4), rec("bsrflow", "eager", 0.6, 2.0), rec("cusparse", "graph", 1.2, 1.0)};
  const std::string md = gnn_markdown(run);
  CHECK(md.find("sbm graph: 10 nodes") != std::string::npos);
  CHECK(md.find("- layer 0 (8 -> 4)") != std::string::npos);
  CHECK(md.find("|    64 |      4 |     0.0061 |") != std::string::npos);  // block, blocks, fill (all)
  CHECK(md.find("3.50x") != std::string::npos);
  CHECK(md.find("2.40x") != std::string::npos);
  CHECK(md.find("Target >= 2x cuSPARSE CSR (graph replay, community graphs after reordering): 2.40x, met") !=
        std::string::npos);
  CHECK(md.find("Graph replay vs eager launches, bsrflow: 0.500 ms vs 0.600 ms (1.20x)") != std::string::npos);
  run.records[0].set("speedup_vs_peer", 1.5);
  CHECK(gnn_markdown(run).find("1.50x, MISSED") != std::string::npos);
  run.records[0].set("speedup_vs_peer", NAN);
  CHECK(gnn_markdown(run).find("not applicable") != std::string::npos);
}

TEST_CASE("gnn_layer --dump: what pyg_compare.py reads round-trips", "[apps][gnn]") {
  const std::string dir = "gnn_dump_test_dir";
  const EdgeList g = karate_club();
  const std::vector<GcnLayerWeights> layers = make_weights({16, 16, 8}, 2);
  const std::vector<double> X = make_features(34, 16, 3);
  const std::vector<double> out = forward_dense(gcn_adjacency_dense(g, {}), 34, X, layers);
  write_dump(dir, g, X, layers, out, {.improved = true}, "bf16");
  // Edges read back through the SNAP reader: same graph, weights 1.
  std::ifstream edges(dir + "/edges.txt");
  std::stringstream text;
  text << edges.rdbuf();
  std::istringstream in(text.str());
  const EdgeList back = read_snap_edges(in, "edges.txt");
  CHECK(back.nodes == 34);
  CHECK(back.src == g.src);
  CHECK(back.dst == g.dst);
  CHECK(back.weight == std::vector<double>(156, 1.0));
  CHECK(read_dump_matrix(dir + "/features.txt", 34, 16) == X);  // exact: 17 digits
  CHECK(read_dump_matrix(dir + "/weight1.txt", 16, 8) == layers[1].W);
  CHECK(read_dump_matrix(dir + "/bias0.txt", 1, 16) == layers[0].bias);
  CHECK(read_dump_matrix(dir + "/output.txt", 34, 8) == out);
  std::ifstream meta(dir + "/meta.txt");
  std::stringstream m;
  m << meta.rdbuf();
  CHECK(m.str() == "nodes 34\nlayers 2\nnormalize 1\nadd_self_loops 1\nimproved 1\ndtype bf16\n");
  BSRFLOW_CHECK_ERROR(read_dump_matrix(dir + "/bias0.txt", 2, 16), Errc::parse,
                      dir + "/bias0.txt: fewer values than 32");
  std::filesystem::remove_all(dir);
  BSRFLOW_CHECK_ERROR(read_dump_matrix(dir + "/x.txt", 1, 1), Errc::io, "cannot open '" + dir + "/x.txt' for reading");
}
