// gnn_layer, host side: edge-list reading, Zachary's karate club, the seeded generators, the
// PyG GCNConv normalisation (isolated nodes, existing and repeated self loops, weights,
// improved, no-normalize, no-self-loops), reorderings, block fill and the path choice, and the
// CPU forward references.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "bsrflow/apps/gnn_layer/block_choice.hpp"
#include "bsrflow/apps/gnn_layer/edge_list.hpp"
#include "bsrflow/apps/gnn_layer/gcn_adjacency_f32.hpp"
#include "bsrflow/apps/gnn_layer/gcn_norm.hpp"
#include "bsrflow/apps/gnn_layer/gcn_reference.hpp"
#include "bsrflow/apps/gnn_layer/generators.hpp"
#include "bsrflow/apps/gnn_layer/karate_club.hpp"
#include "bsrflow/apps/gnn_layer/reorder.hpp"
#include "bsrflow/formats/host_convert.hpp"
#include "bsrflow/ops/cpu_gemm.hpp"
#include "bsrflow/apps/gnn_layer/gnn_runner.hpp"
#include "bsrflow/core/dtype.hpp"
#include "support/expect_error.hpp"

using namespace bsrflow;
using namespace bsrflow::gnn;

namespace {

EdgeList parse(const std::string& text, EdgeReadOptions o = {}) {
  std::istringstream in(text);
  return read_snap_edges(in, "g.txt", o);
}

EdgeList edges(int n, std::vector<std::pair<int, int>> e, std::vector<double> w = {}) {
  EdgeList g;
  g.nodes = n;
  for (auto [s, d] : e) {
    g.src.push_back(s);
    g.dst.push_back(d);
  }
  g.weight = std::move(w);
  return g;
}

// A_hat(target, source) from the dense reference.
double at(const std::vector<double>& A, int n, int row, int col) {
  return A[static_cast<std::size_t>(row) * static_cast<std::size_t>(n) + static_cast<std::size_t>(col)];
}

std::vector<double> csr_to_dense(const HostCsr<double>& A) {
  std::vector<double> d(static_cast<std::size_t>(A.rows) * static_cast<std::size_t>(A.cols), 0.0);
  for (int i = 0; i < A.rows; ++i)
    for (int k = A.row_ptr[static_cast<std::size_t>(i)]; k < A.row_ptr[static_cast<std::size_t>(i) + 1]; ++k)
      d[static_cast<std::size_t>(i) * static_cast<std::size_t>(A.cols) +
        static_cast<std::size_t>(A.col_idx[static_cast<std::size_t>(k)])] += A.values[static_cast<std::size_t>(k)];
  return d;
}

std::vector<int> out_degrees(const EdgeList& g) {
  std::vector<int> d(static_cast<std::size_t>(g.nodes), 0);
  for (int s : g.src) ++d[static_cast<std::size_t>(s)];
  return d;
}

// A random multigraph with loops (some repeated), duplicates, isolated nodes and weights.
EdgeList hostile_graph(int n, int m, std::uint64_t seed, bool weighted) {
  std::mt19937_64 rng(seed);
  EdgeList g;
  g.nodes = n;
  const int used = n - 3;  // the last three nodes stay isolated
  for (int e = 0; e < m; ++e) {
    const int s = static_cast<int>(rng() % static_cast<unsigned>(used));
    const int d = e % 7 == 0 ? s : static_cast<int>(rng() % static_cast<unsigned>(used));
    g.src.push_back(s);
    g.dst.push_back(d);
    if (weighted) g.weight.push_back(0.25 * static_cast<double>(1 + rng() % 8));
    if (e % 11 == 0) {  // a duplicate
      g.src.push_back(s);
      g.dst.push_back(d);
      if (weighted) g.weight.push_back(0.5);
    }
  }
  return g;
}

}  // namespace

TEST_CASE("gnn edge lists: SNAP text", "[apps][gnn]") {
  SECTION("comments, blanks, tabs, CRLF, weights") {
    const EdgeList g = parse("# a comment\n% another\n\n0 1 2.5\r\n1\t2 -0.5\n  3 0 1e-3\n");
    CHECK(g.nodes == 4);
    CHECK(g.src == std::vector<int>{0, 1, 3});
    CHECK(g.dst == std::vector<int>{1, 2, 0});
    CHECK(g.weight == std::vector<double>{2.5, -0.5, 1e-3});
    CHECK(g.weighted());
  }
  SECTION("unweighted, one-based, min_nodes") {
    const EdgeList g = parse("1 2\n2 3\n", {.one_based = true, .min_nodes = 10});
    CHECK(g.nodes == 10);
    CHECK(g.src == std::vector<int>{0, 1});
    CHECK(g.dst == std::vector<int>{1, 2});
    CHECK_FALSE(g.weighted());
    CHECK(g.weight_of(1) == 1.0);
  }
  SECTION("empty input") {
    const EdgeList g = parse("# nothing\n");
    CHECK(g.nodes == 0);
    CHECK(g.edges() == 0);
  }
  SECTION("errors name the line") {
    BSRFLOW_CHECK_ERROR(parse("0 1\n7\n"), Errc::parse, "g.txt:2: expected 'src dst [weight]', found one field");
    BSRFLOW_CHECK_ERROR(parse("0 1 1 9\n"), Errc::parse,
                        "g.txt:1: expected 'src dst [weight]', found more than three fields");
    BSRFLOW_CHECK_ERROR(parse("0 x\n"), Errc::parse, "g.txt:1: node id 'x' is not an integer");
    BSRFLOW_CHECK_ERROR(parse("0 1.5\n"), Errc::parse, "g.txt:1: node id '1.5' is not an integer");
    BSRFLOW_CHECK_ERROR(parse("-1 2\n"), Errc::parse, "g.txt:1: node id -1 is below 0 (ids are 0-based)");
    BSRFLOW_CHECK_ERROR(parse("0 2\n", {.one_based = true}), Errc::parse,
                        "g.txt:1: node id 0 is below 1 (ids are 1-based)");
    BSRFLOW_CHECK_ERROR(parse("0 1 2\n1 2\n"), Errc::parse, "g.txt:2: this edge has no weight but earlier ones do");
    BSRFLOW_CHECK_ERROR(parse("0 1\n1 2 3\n"), Errc::parse, "g.txt:2: this edge has a weight but earlier ones do not");
    BSRFLOW_CHECK_ERROR(parse("0 1 nan\n"), Errc::parse, "g.txt:1: edge weight 'nan' is not finite");
    BSRFLOW_CHECK_ERROR(parse("0 1 w\n"), Errc::parse, "g.txt:1: edge weight 'w' is not a number");
    BSRFLOW_CHECK_ERROR(parse("0 4294967296\n"), Errc::parse, "g.txt:1: node id 4294967296 does not fit in int32");
  }
}

TEST_CASE("gnn edge lists: files, Matrix Market, reverse edges, checks", "[apps][gnn]") {
  BSRFLOW_CHECK_ERROR(read_edge_file("/nonexistent/g.txt"), Errc::io, "cannot open '/nonexistent/g.txt' for reading");
  const std::string mtx = "gnn_test_graph.mtx";
  {
    std::ofstream out(mtx);
    out << "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0.5\n3 3 4\n";
  }
  const EdgeList m = read_edge_file(mtx);
  std::remove(mtx.c_str());
  CHECK(m.nodes == 3);
  CHECK(m.src == std::vector<int>{1, 0, 2});  // (2,1) then its mirror, then the diagonal entry
  CHECK(m.dst == std::vector<int>{0, 1, 2});
  CHECK(m.weight == std::vector<double>{0.5, 0.5, 4});

  EdgeList g = edges(3, {{0, 1}, {2, 2}, {1, 2}}, {1, 2, 3});
  add_reverse_edges(g);  // loops are not mirrored
  CHECK(g.src == std::vector<int>{0, 2, 1, 1, 2});
  CHECK(g.dst == std::vector<int>{1, 2, 2, 0, 1});
  CHECK(g.weight == std::vector<double>{1, 2, 3, 1, 3});

  BSRFLOW_CHECK_ERROR(check_edge_list(edges(2, {{0, 1}, {1, 2}})), Errc::invalid_argument,
                      "edge 1: 1 -> 2 has a node outside [0, 2)");
  BSRFLOW_CHECK_ERROR(check_edge_list(edges(2, {{0, 1}}, {1, 2})), Errc::invalid_argument,
                      "edge list: 2 weights for 1 edges");

  std::ostringstream out;
  write_edge_list(out, edges(2, {{0, 1}}, {0.1}));
  CHECK(out.str() == "# 2 nodes, 1 directed edges: src dst weight (0-based)\n0 1 0.10000000000000001\n");
}

TEST_CASE("gnn: Zachary's karate club", "[apps][gnn]") {
  std::istringstream in{std::string(karate_club_text())};
  const EdgeList raw = read_snap_edges(in, "karate", {.one_based = true});
  CHECK(raw.nodes == 34);
  REQUIRE(raw.edges() == 78);
  std::set<std::pair<int, int>> seen;
  for (std::size_t e = 0; e < raw.src.size(); ++e) {
    CHECK(raw.src[e] < raw.dst[e]);
    CHECK(seen.insert({raw.src[e], raw.dst[e]}).second);  // no repeated edge
  }
  const EdgeList g = karate_club();
  CHECK(g.nodes == 34);
  CHECK(g.edges() == 156);
  // Degree sequence of Zachary (1977), nodes 1..34.
  const std::vector<int> expected = {16, 9, 10, 6, 3, 4, 4, 4, 5, 2, 3, 1, 2, 5, 2, 2, 2,
                                     2,  2, 3,  2, 2, 2, 5, 3, 3, 2, 4, 3, 4, 4, 6, 12, 17};
  CHECK(out_degrees(g) == expected);
  CHECK(out_degrees(g)[33] == 17);  // node 34, the club's administrator
  CHECK(out_degrees(g)[0] == 16);   // node 1, the instructor
}

TEST_CASE("gnn generators: SBM", "[apps][gnn]") {
  const SbmParams p{.nodes = 2000, .communities = 20, .avg_degree = 10, .intra_fraction = 0.9, .seed = 7};
  const GeneratedGraph a = generate_sbm(p);
  const GeneratedGraph b = generate_sbm(p);
  CHECK(a.graph.src == b.graph.src);
  CHECK(a.graph.dst == b.graph.dst);
  CHECK(a.community == b.community);
  SbmParams q = p;
  q.seed = 8;
  CHECK(generate_sbm(q).graph.src != a.graph.src);

  const EdgeList& g = a.graph;
  CHECK(g.nodes == 2000);
  CHECK_FALSE(g.weighted());
  std::set<std::pair<int, int>> pairs;
  std::int64_t intra = 0;
  for (std::size_t e = 0; e < g.src.size(); ++e) {
    CHECK(g.src[e] != g.dst[e]);
    if (e > 0) CHECK(std::make_pair(g.src[e - 1], g.dst[e - 1]) < std::make_pair(g.src[e], g.dst[e]));
    pairs.insert({g.src[e], g.dst[e]});
    intra += a.community[static_cast<std::size_t>(g.src[e])] == a.community[static_cast<std::size_t>(g.dst[e])];
  }
  for (auto [s, d] : pairs) CHECK(pairs.count({d, s}) == 1);  // symmetric
  // 5 draws per node, both directions, a few repeats dropped: just under 10 per node.
  const double avg = static_cast<double>(g.edges()) / g.nodes;
  CHECK(avg > 9.3);
  CHECK(avg <= 10.0);
  // Intra fraction 0.9 plus the 1/20 of random partners that land inside by chance.
  const double frac = static_cast<double>(intra) / static_cast<double>(g.edges());
  CHECK(frac > 0.88);
  CHECK(frac < 0.94);
  std::vector<int> sizes(20, 0);
  for (int c : a.community) ++sizes[static_cast<std::size_t>(c)];
  CHECK(std::all_of(sizes.begin(), sizes.end(), [](int s) { return s == 100; }));
  // Communities are scattered over the ids (not 0..99, 100..199, ...).
  CHECK((a.community[0] != a.community[1] || a.community[1] != a.community[2] || a.community[2] != a.community[3]));

  BSRFLOW_CHECK_ERROR(generate_sbm({.nodes = 1}), Errc::invalid_argument, "sbm: --nodes must be at least 2, got 1");
  BSRFLOW_CHECK_ERROR(generate_sbm({.nodes = 10, .communities = 11}), Errc::invalid_argument,
                      "sbm: --communities must be in [1, nodes], got 11");
  BSRFLOW_CHECK_ERROR(generate_sbm({.nodes = 10, .communities = 2, .avg_degree = 4, .intra_fraction = 1.5}),
                      Errc::invalid_argument, "sbm: --intra must be in [0, 1], got 1.500000");
}

TEST_CASE("gnn generators: R-MAT", "[apps][gnn]") {
  const RmatParams p{.scale = 10, .edge_factor = 8, .seed = 3};
  const GeneratedGraph a = generate_rmat(p);
  CHECK(a.community.empty());
  const EdgeList& g = a.graph;
  CHECK(g.nodes == 1024);
  CHECK(g.src == generate_rmat(p).graph.src);
  std::set<std::pair<int, int>> pairs;
  for (std::size_t e = 0; e < g.src.size(); ++e) {
    CHECK(g.src[e] != g.dst[e]);
    CHECK(pairs.insert({g.src[e], g.dst[e]}).second);
  }
  for (auto [s, d] : pairs) CHECK(pairs.count({d, s}) == 1);
  CHECK(g.edges() <= 2 * 8 * 1024);
  CHECK(g.edges() > 8 * 1024);  // repeats are many in R-MAT, but not half
  // Skewed: node 0 (all "a" quadrant choices) has far more than the average degree.
  const std::vector<int> deg = out_degrees(g);
  CHECK(deg[0] > 10 * g.edges() / g.nodes);
  BSRFLOW_CHECK_ERROR(generate_rmat({.scale = 0}), Errc::invalid_argument, "rmat: --scale must be in [1, 30], got 0");
  BSRFLOW_CHECK_ERROR(generate_rmat({.scale = 4, .a = 0.6, .b = 0.3, .c = 0.2}), Errc::invalid_argument,
                      "rmat: a, b, c must be non-negative with a + b + c <= 1");
}

TEST_CASE("gnn normalisation: PyG GCNConv semantics on hand-checked graphs", "[apps][gnn]") {
  SECTION("undirected pair plus an isolated node") {
    // 0 <-> 1, node 2 isolated: deg = 2, 2, 1 (its added loop).
    const EdgeList g = edges(3, {{0, 1}, {1, 0}});
    const std::vector<double> A = gcn_adjacency_dense(g, {});
    const std::vector<double> expected = {0.5, 0.5, 0, 0.5, 0.5, 0, 0, 0, 1};
    for (std::size_t e = 0; e < 9; ++e) CHECK(A[e] == Approx(expected[e]).epsilon(1e-15));
    CHECK(inverse_sqrt_degrees(g, {}) == std::vector<double>{1 / std::sqrt(2.0), 1 / std::sqrt(2.0), 1});
    // Without loops the isolated node has degree 0: deg^-1/2 is set to 0, its row stays empty.
    const std::vector<double> B = gcn_adjacency_dense(g, {.add_self_loops = false});
    CHECK(B == std::vector<double>{0, 1, 0, 1, 0, 0, 0, 0, 0});
    CHECK(inverse_sqrt_degrees(g, {.add_self_loops = false})[2] == 0);
    const HostCsr<double> C = gcn_adjacency_csr(g, {.add_self_loops = false});
    CHECK(C.row_ptr == std::vector<int>{0, 1, 2, 2});
  }
  SECTION("the matrix row is the target: a directed weighted edge") {
    // 0 -> 1 with weight 3: deg[1] = 3 + 1 (loop), deg[0] = 1 (its loop only).
    const EdgeList g = edges(2, {{0, 1}}, {3});
    const std::vector<double> A = gcn_adjacency_dense(g, {});
    CHECK(at(A, 2, 1, 0) == 1.5);  // 1 * 3 * 1/2
    CHECK(at(A, 2, 0, 1) == 0);
    CHECK(at(A, 2, 0, 0) == 1);
    CHECK(at(A, 2, 1, 1) == 0.25);
    const std::vector<double> improved = gcn_adjacency_dense(g, {.improved = true});  // deg[1] = 5, deg[0] = 2
    CHECK(at(improved, 2, 1, 0) == Approx(3 / std::sqrt(10.0)).epsilon(1e-15));
    CHECK(at(improved, 2, 0, 0) == Approx(1.0).epsilon(1e-15));
    CHECK(at(improved, 2, 1, 1) == Approx(2.0 / 5).epsilon(1e-15));
  }
  SECTION("existing self loops keep their weight; repeated ones: the last wins") {
    // Node 0 has loops of weight 3 then 7, node 1 one loop of weight 0.5, node 2 none.
    const EdgeList g = edges(3, {{0, 0}, {1, 1}, {0, 0}, {0, 1}}, {3, 0.5, 7, 2});
    CHECK(self_loop_weights(g, {}) == std::vector<double>{7, 0.5, 1});
    CHECK(self_loop_weights(g, {.improved = true}) == std::vector<double>{7, 0.5, 2});
    const std::vector<double> A = gcn_adjacency_dense(g, {});
    // deg = 7, 0.5 + 2, 1.
    CHECK(at(A, 3, 0, 0) == Approx(1.0).epsilon(1e-15));
    CHECK(at(A, 3, 1, 1) == Approx(0.5 / 2.5).epsilon(1e-15));
    CHECK(at(A, 3, 1, 0) == Approx(2 / std::sqrt(7 * 2.5)).epsilon(1e-15));
    CHECK(at(A, 3, 2, 2) == 1);
    // --no-self-loops: the loops stay as they are and repeated ones are summed (scatter-add).
    const std::vector<double> B = gcn_adjacency_dense(g, {.add_self_loops = false});
    CHECK(at(B, 3, 0, 0) == Approx(1.0).epsilon(1e-15));  // (3 + 7) / 10
    CHECK(at(B, 3, 2, 2) == 0);
  }
  SECTION("--no-normalize: raw weights, duplicates summed, no loops added") {
    const EdgeList g = edges(3, {{0, 1}, {0, 1}, {2, 2}, {1, 0}}, {1, 2, 5, 4});
    const std::vector<double> A = gcn_adjacency_dense(g, {.normalize = false});
    CHECK(A == std::vector<double>{0, 4, 0, 3, 0, 0, 0, 0, 5});
    CHECK(csr_to_dense(gcn_adjacency_csr(g, {.normalize = false})) == A);
  }
  SECTION("zero incoming weight: deg 0 -> deg^-1/2 = 0 (inf masked), as in PyG") {
    const EdgeList g = edges(2, {{0, 1}, {1, 1}}, {2, 0});
    // Loop of node 1 has weight 0 and is kept; deg[1] = 2 + 0 = 2; deg[0] = 1 (added loop).
    CHECK(inverse_sqrt_degrees(g, {})[1] == Approx(1 / std::sqrt(2.0)));
    const EdgeList h = edges(2, {{1, 0}}, {0});  // deg[0] = 0 without loops
    CHECK(inverse_sqrt_degrees(h, {.add_self_loops = false}) == std::vector<double>{0, 0});
  }
}

TEST_CASE("gnn normalisation: CSR path equals the dense definition on hostile graphs", "[apps][gnn]") {
  for (bool weighted : {false, true})
    for (NormOptions o : {NormOptions{}, NormOptions{.improved = true}, NormOptions{.add_self_loops = false},
                          NormOptions{.normalize = false}}) {
      CAPTURE(weighted, o.normalize, o.add_self_loops, o.improved);
      const EdgeList g = hostile_graph(40, 150, weighted ? 5 : 6, weighted);
      const std::vector<double> dense = gcn_adjacency_dense(g, o);
      const HostCsr<double> csr = gcn_adjacency_csr(g, o);
      CHECK(csr.rows == 40);
      for (int i = 0; i < csr.rows; ++i)
        for (int k = csr.row_ptr[static_cast<std::size_t>(i)] + 1; k < csr.row_ptr[static_cast<std::size_t>(i) + 1]; ++k)
          CHECK(csr.col_idx[static_cast<std::size_t>(k) - 1] < csr.col_idx[static_cast<std::size_t>(k)]);
      const std::vector<double> from_csr = csr_to_dense(csr);
      for (std::size_t e = 0; e < dense.size(); ++e) CHECK(from_csr[e] == Approx(dense[e]).margin(1e-14));
      // With loops added, each of the (used or isolated) nodes has exactly one diagonal entry.
      if (o.adds_loops())
        for (int i = 0; i < 40; ++i) CHECK(at(from_csr, 40, i, i) != 0);
    }
}

TEST_CASE("gnn normalisation: the GPU's f32 algorithm (host emulation) matches the f64 definition", "[apps][gnn]") {
  for (bool weighted : {false, true})
    for (NormOptions o : {NormOptions{}, NormOptions{.improved = true}, NormOptions{.add_self_loops = false},
                          NormOptions{.normalize = false}}) {
      CAPTURE(weighted, o.normalize, o.add_self_loops, o.improved);
      const EdgeList g = hostile_graph(90, 700, weighted ? 15 : 16, weighted);
      const HostCsr<double> ref = gcn_adjacency_csr(g, o);
      const HostCsr<float> f32 = gcn_adjacency_f32(g, o, 128);
      CHECK(f32.rows == 128);
      REQUIRE(f32.nnz() == ref.nnz());
      CHECK(std::equal(ref.row_ptr.begin(), ref.row_ptr.end(), f32.row_ptr.begin()));
      CHECK(f32.row_ptr[128] == f32.row_ptr[90]);  // padded rows empty
      CHECK(f32.col_idx == ref.col_idx);
      for (std::size_t k = 0; k < ref.values.size(); ++k)
        CHECK(f32.values[k] == Approx(ref.values[k]).epsilon(1e-6).margin(1e-7));
    }
  SECTION("repeated loops: the last wins; zero in-degree gives 0, not inf") {
    const EdgeList g = edges(3, {{0, 0}, {1, 1}, {0, 0}, {0, 1}}, {3, 0.5, 7, 2});
    const HostCsr<float> A = gcn_adjacency_f32(g, {}, 3);
    CHECK(A.row_ptr == std::vector<int>{0, 1, 3, 4});
    CHECK(A.values[0] == Approx(1.0f));          // 7 / 7
    CHECK(A.values[3] == 1.0f);                  // node 2: fill loop only
    const HostCsr<float> B = gcn_adjacency_f32(edges(2, {{1, 0}}, {0}), {.add_self_loops = false}, 2);
    CHECK(B.values == std::vector<float>{0.0f});  // 0 * w * 0, no NaN
  }
  BSRFLOW_CHECK_ERROR(gcn_adjacency_f32(edges(5, {}), {}, 4), Errc::invalid_argument,
                      "gcn_adjacency_f32: n_pad 4 < nodes 5");
}

TEST_CASE("gnn reordering: RCM, community order, permutations", "[apps][gnn]") {
  SECTION("a shuffled path comes back with bandwidth 1") {
    const int n = 200;
    std::vector<int> shuffle(n);
    for (int i = 0; i < n; ++i) shuffle[static_cast<std::size_t>(i)] = i;
    std::mt19937_64 rng(1);
    std::shuffle(shuffle.begin(), shuffle.end(), rng);
    EdgeList path;
    path.nodes = n;
    for (int i = 0; i + 1 < n; ++i) {
      path.src.push_back(shuffle[static_cast<std::size_t>(i)]);
      path.dst.push_back(shuffle[static_cast<std::size_t>(i) + 1]);
    }
    add_reverse_edges(path);
    CHECK(bandwidth(path) > 10);
    const std::vector<int> order = rcm_order(path);
    const EdgeList r = relabel(path, inverse_permutation(order));
    CHECK(bandwidth(r) == 1);
    CHECK(rcm_order(path) == order);  // deterministic
  }
  SECTION("isolated nodes and several components are all placed") {
    const EdgeList g = edges(6, {{0, 2}, {2, 0}, {4, 5}, {3, 3}});
    std::vector<int> order = rcm_order(g);
    REQUIRE(order.size() == 6);
    std::sort(order.begin(), order.end());
    CHECK(order == std::vector<int>{0, 1, 2, 3, 4, 5});
  }
  SECTION("RCM on a shuffled SBM lowers the bandwidth") {
    const GeneratedGraph s = generate_sbm({.nodes = 1000, .communities = 50, .avg_degree = 6, .intra_fraction = 1.0});
    const EdgeList r = relabel(s.graph, inverse_permutation(rcm_order(s.graph)));
    CHECK(bandwidth(r) < bandwidth(s.graph) / 2);
  }
  SECTION("community order groups labels, stably") {
    const EdgeList g = edges(5, {});
    CHECK(community_order(g, {2, 0, 1, 0, 2}) == std::vector<int>{1, 3, 2, 0, 4});
    BSRFLOW_CHECK_ERROR(community_order(g, {0, 1}), Errc::invalid_argument, "community order: 2 labels for 5 nodes");
    BSRFLOW_CHECK_ERROR(community_order(g, {0, 1, -1, 0, 0}), Errc::invalid_argument,
                        "community order: node 2 has negative label -1");
  }
  SECTION("inverse permutation and its errors") {
    CHECK(inverse_permutation({2, 0, 1}) == std::vector<int>{1, 2, 0});
    BSRFLOW_CHECK_ERROR(inverse_permutation({0, 0, 1}), Errc::invalid_argument,
                        "not a permutation: entry 1 is 0 (repeated)");
    BSRFLOW_CHECK_ERROR(inverse_permutation({0, 3, 1}), Errc::invalid_argument,
                        "not a permutation: entry 1 is 3 (out of range)");
  }
  SECTION("relabelling permutes A_hat: P A_hat P^T") {
    const EdgeList g = hostile_graph(30, 80, 9, true);
    const std::vector<int> order = rcm_order(g);
    const std::vector<int> p = inverse_permutation(order);
    const std::vector<double> A = gcn_adjacency_dense(g, {});
    const std::vector<double> B = gcn_adjacency_dense(relabel(g, p), {});
    for (int i = 0; i < 30; ++i)
      for (int j = 0; j < 30; ++j)
        CHECK(at(B, 30, p[static_cast<std::size_t>(i)], p[static_cast<std::size_t>(j)]) == Approx(at(A, 30, i, j)).margin(1e-15));
  }
}

TEST_CASE("gnn block fill and the BSR / CSR choice", "[apps][gnn]") {
  const auto pattern = [](const EdgeList& g) { return gcn_adjacency_csr(g, {}); };
  SECTION("the split threshold follows the cost model") {
    CHECK(min_block_entries(16) == 21);    // ceil(256 * 8 / 102)
    CHECK(min_block_entries(32) == 32);    // ceil(1024 * 8 / 263)
    CHECK(min_block_entries(64) == 71);    // ceil(4096 * 8 / 462)
    CHECK(min_block_entries(128) == 178);  // ceil(16384 * 8 / 737)
    CHECK(min_block_entries(8) == 65);     // not an sm90 size: never worth a block
  }
  SECTION("diagonal: one entry per row") {
    const HostCsr<double> I = pattern(edges(64, {}));  // loops only
    const BlockFill f = measure_fill(64, I.row_ptr, I.col_idx, 16, 1);
    CHECK(f.nnz == 64);
    CHECK(f.nnzb == 4);
    CHECK(f.nnzb_kept == 4);
    CHECK(f.fill == 64.0 / (4 * 256));
    CHECK(f.fill_kept == f.fill);
    const BlockFill t = measure_fill(64, I.row_ptr, I.col_idx, 16);  // 16 entries < 21: all to the remainder
    CHECK(t.nnzb_kept == 0);
    CHECK(t.nnz_kept == 0);
    CHECK(t.predicted_speedup == 1.0);
    const BlockFill p = measure_fill(64, I.row_ptr, I.col_idx, 48, 1);  // partial last block counted whole
    CHECK(p.nnzb == 2);
    BSRFLOW_CHECK_ERROR(measure_fill(64, I.row_ptr, I.col_idx, 0), Errc::invalid_argument,
                        "block size must be positive, got 0");
  }
  SECTION("dense 128-node cliques: full blocks, BSR with the largest block") {
    EdgeList g;
    g.nodes = 256;
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < 128; ++i)
        for (int j = 0; j < 128; ++j)
          if (i != j) {
            g.src.push_back(c * 128 + i);
            g.dst.push_back(c * 128 + j);
          }
    const HostCsr<double> A = pattern(g);
    const PathChoice c = choose_path(256, A.row_ptr, A.col_idx, 0, false);
    REQUIRE(c.fills.size() == 4);
    for (const BlockFill& f : c.fills) CHECK(f.fill == 1.0);
    CHECK(c.use_bsr);
    CHECK(c.block == 128);
    CHECK(c.min_entries == 178);
    CHECK(c.reason.rfind("BSR path, block 128: 100.0% of the edges in blocks of fill 1.000", 0) == 0);
  }
  SECTION("random sparse graph: CSR, and the reason says why") {
    const GeneratedGraph r = generate_rmat({.scale = 12, .edge_factor = 4});
    const HostCsr<double> A = pattern(r.graph);
    const PathChoice c = choose_path(A.rows, A.row_ptr, A.col_idx, 0, false);
    CHECK_FALSE(c.use_bsr);
    CHECK(c.block == 0);
    CHECK(c.reason.rfind("CSR path: block fill is poor (best block", 0) == 0);
    const PathChoice forced = choose_path(A.rows, A.row_ptr, A.col_idx, 32, false);
    CHECK(forced.use_bsr);
    CHECK(forced.block == 32);
    CHECK(forced.reason.rfind("BSR path from --block: block 32: ", 0) == 0);
    const PathChoice whole = choose_path(A.rows, A.row_ptr, A.col_idx, 32, false, false);
    CHECK(whole.min_entries == 1);
    CHECK(whole.fills[0].nnz_kept == whole.fills[0].nnz);
    const PathChoice csr = choose_path(A.rows, A.row_ptr, A.col_idx, 0, true);
    CHECK_FALSE(csr.use_bsr);
    CHECK(csr.reason == "CSR path: asked for with --path csr");
  }
  SECTION("community order: the diagonal blocks fill up, scattered edges go to the remainder") {
    const GeneratedGraph s =
        generate_sbm({.nodes = 8192, .communities = 128, .avg_degree = 32, .intra_fraction = 0.95});
    const HostCsr<double> before = pattern(s.graph);
    const HostCsr<double> after =
        pattern(relabel(s.graph, inverse_permutation(community_order(s.graph, s.community))));
    const BlockFill f0 = measure_fill(8192, before.row_ptr, before.col_idx, 64);
    const BlockFill f1 = measure_fill(8192, after.row_ptr, after.col_idx, 64);
    CHECK(f0.nnz_kept < f0.nnz / 20);  // shuffled: only diagonal blocks (self loops) can be worth it
    CHECK(f1.nnzb_kept == 128);                                     // one block per community
    CHECK(f1.nnz_kept > static_cast<std::int64_t>(0.9 * f1.nnz));   // intra edges + loops
    CHECK(f1.fill_kept > 0.3);
    const PathChoice c = choose_path(8192, after.row_ptr, after.col_idx, 0, false);
    CHECK(c.use_bsr);
    CHECK(c.block == 64);
    CHECK_FALSE(choose_path(8192, before.row_ptr, before.col_idx, 0, false).use_bsr);
  }
  SECTION("split_by_blocks: every entry lands once, in order, with its value") {
    const EdgeList g = hostile_graph(100, 900, 4, true);
    const HostCsr<double> A = pattern(g);
    const CsrSplit s = split_by_blocks(A, 16, 5);
    CHECK(s.kept.nnz() + s.rest.nnz() == A.nnz());
    CHECK(s.kept.nnz() > 0);
    CHECK(s.rest.nnz() > 0);
    for (int i = 0; i < A.rows; ++i)
      for (int k = A.row_ptr[static_cast<std::size_t>(i)]; k < A.row_ptr[static_cast<std::size_t>(i) + 1]; ++k) {
        const int d = s.dest[static_cast<std::size_t>(k)];
        const HostCsr<float>& part = d >= 0 ? s.kept : s.rest;
        const auto idx = static_cast<std::size_t>(d >= 0 ? d : -d - 1);
        CHECK(part.col_idx[idx] == A.col_idx[static_cast<std::size_t>(k)]);
        CHECK(part.values[idx] == static_cast<float>(A.values[static_cast<std::size_t>(k)]));
        CHECK(static_cast<int>(idx) >= part.row_ptr[static_cast<std::size_t>(i)]);
        CHECK(static_cast<int>(idx) < part.row_ptr[static_cast<std::size_t>(i) + 1]);
      }
    // The kept blocks are exactly those measure_fill counts.
    CHECK(s.kept.nnz() == measure_fill(100, A.row_ptr, A.col_idx, 16, 5).nnz_kept);
  }
}

TEST_CASE("gnn split: BSR part (csr_to_bsr + BSR GEMM) plus CSR remainder equals the whole product", "[apps][gnn]") {
  // The GPU path's structure on the CPU: A_hat as the GPU builds it (n_pad rows), split, the kept
  // entries converted to BSR and multiplied by the CPU oracle of the GEMM, the rest added by a
  // plain CSR loop; against A_hat * B straight from the CSR.
  const EdgeList g = hostile_graph(200, 2500, 21, true);
  const int n_pad = 256;
  const HostCsr<float> A = gcn_adjacency_f32(g, {}, n_pad);
  const HostCsr<double> Ad{A.rows, A.cols, A.row_ptr, A.col_idx, std::vector<double>(A.values.begin(), A.values.end())};
  // About the mean block population (the graph has ~0.07 density): both parts get entries.
  for (auto [block, min_entries] : {std::pair{16, 18}, std::pair{32, 72}}) {
    CAPTURE(block);
    const CsrSplit s = split_by_blocks(Ad, block, min_entries);
    REQUIRE(s.kept.nnz() > 0);
    REQUIRE(s.rest.nnz() > 0);
    const HostBsr<float> bsr = host::csr_to_bsr(s.kept, block, block, Padding::reject);
    CHECK(bsr.nnzb() == measure_fill(n_pad, A.row_ptr, A.col_idx, block, min_entries).nnzb_kept);
    const int width = 8;
    HostDense<float> B(n_pad, width);
    const std::vector<double> x = make_features(n_pad, width, 3);
    for (std::size_t i = 0; i < x.size(); ++i) B.data[i] = static_cast<float>(x[i]);
    const HostDense<float> C0(n_pad, width);
    HostDense<double> C = host::gemm_f64<float, float>(bsr, B, C0, 1.0, 0.0);
    for (int i = 0; i < n_pad; ++i)
      for (int k = s.rest.row_ptr[static_cast<std::size_t>(i)]; k < s.rest.row_ptr[static_cast<std::size_t>(i) + 1]; ++k)
        for (int c = 0; c < width; ++c)
          C(i, c) += static_cast<double>(s.rest.values[static_cast<std::size_t>(k)]) *
                     B(s.rest.col_idx[static_cast<std::size_t>(k)], c);
    double num = 0;
    double den = 0;
    for (int i = 0; i < n_pad; ++i)
      for (int c = 0; c < width; ++c) {
        double ref = 0;
        for (int k = A.row_ptr[static_cast<std::size_t>(i)]; k < A.row_ptr[static_cast<std::size_t>(i) + 1]; ++k)
          ref += static_cast<double>(A.values[static_cast<std::size_t>(k)]) * B(A.col_idx[static_cast<std::size_t>(k)], c);
        num += (C(i, c) - ref) * (C(i, c) - ref);
        den += ref * ref;
      }
    CHECK(den > 0);
    CHECK(std::sqrt(num / den) < 1e-14);
  }
}

TEST_CASE("gnn CPU references: dense and CSR forward agree; layer semantics", "[apps][gnn]") {
  const std::vector<int> widths = layer_widths(3, 8, 16, 4);
  CHECK(widths == std::vector<int>{8, 16, 16, 4});
  BSRFLOW_CHECK_ERROR(layer_widths(0, 8, 16, 4), Errc::invalid_argument,
                      "--layers, --in, --hidden and --out must all be positive");
  const std::vector<GcnLayerWeights> layers = make_weights(widths, 5);
  REQUIRE(layers.size() == 3);
  for (const auto& l : layers) {
    for (double v : l.W) CHECK(std::ldexp(v, 10) == std::round(std::ldexp(v, 10)));  // few bits: exact in f16 and bf16
    for (double v : l.bias) CHECK(std::abs(v) <= 0.5);
  }
  SECTION("karate club, three layers") {
    const EdgeList g = karate_club();
    const std::vector<double> X = make_features(34, 8, 2);
    const std::vector<double> dense = forward_dense(gcn_adjacency_dense(g, {}), 34, X, layers);
    const std::vector<double> csr = forward_csr<double>(gcn_adjacency_csr(g, {}), X, layers);
    CHECK(relative_error(csr, dense) < 1e-13);
    const std::vector<float> f32 = forward_csr<float>(gcn_adjacency_csr(g, {}), X, layers);
    CHECK(relative_error(std::vector<double>(f32.begin(), f32.end()), dense) < 1e-5);
    CHECK(dense.size() == 34u * 4u);
    CHECK(std::any_of(dense.begin(), dense.end(), [](double v) { return v < 0; }));  // last layer: no ReLU
  }
  SECTION("one isolated node: A_hat = 1, so the layer is X W + b exactly") {
    const std::vector<GcnLayerWeights> one = make_weights({2, 3}, 1);
    const std::vector<double> X = {0.5, -1};
    const std::vector<double> H = forward_dense(gcn_adjacency_dense(edges(1, {}), {}), 1, X, one);
    for (int j = 0; j < 3; ++j)
      CHECK(H[static_cast<std::size_t>(j)] ==
            0.5 * one[0].W[static_cast<std::size_t>(j)] - one[0].W[3 + static_cast<std::size_t>(j)] + one[0].bias[static_cast<std::size_t>(j)]);
  }
  SECTION("hidden layers apply ReLU") {
    const std::vector<GcnLayerWeights> two = make_weights({4, 8, 2}, 3);
    const EdgeList g = edges(3, {{0, 1}, {1, 2}});
    const std::vector<double> X = make_features(3, 4, 1);
    std::vector<GcnLayerWeights> first = {two[0]};
    first[0].W.assign(first[0].W.size(), 0.0);  // then the first layer's output is relu(bias)
    first.push_back(two[1]);
    const std::vector<double> H = forward_dense(gcn_adjacency_dense(g, {}), 3, X, first);
    // Layer 2 sees relu(b1) on every node.
    std::vector<double> h1(8);
    for (int c = 0; c < 8; ++c) h1[static_cast<std::size_t>(c)] = std::max(0.0, two[0].bias[static_cast<std::size_t>(c)]);
    const std::vector<double> A = gcn_adjacency_dense(g, {});
    for (int i = 0; i < 3; ++i) {
      const double rowsum = at(A, 3, i, 0) + at(A, 3, i, 1) + at(A, 3, i, 2);
      for (int j = 0; j < 2; ++j) {
        double xw = 0;
        for (int c = 0; c < 8; ++c) xw += h1[static_cast<std::size_t>(c)] * two[1].W[static_cast<std::size_t>(c) * 2 + static_cast<std::size_t>(j)];
        CHECK(H[static_cast<std::size_t>(i) * 2 + static_cast<std::size_t>(j)] ==
              Approx(rowsum * xw + two[1].bias[static_cast<std::size_t>(j)]).margin(1e-14));
      }
    }
  }
}

namespace {

template <class T>
double round_to(double v) {
  return to_double(from_double<T>(v));
}

// The GPU forward's roundings on the CPU (sums in double, standing in for the f32 accumulators):
// A_hat's values stored in T (the BSR part; the CSR remainder keeps f32, so this is the worse
// case), H W / Z W rounded to T by cuBLAS, Z = A_hat H rounded to T before Z W, each layer's
// output rounded to T.
template <class T>
std::vector<double> emulated_forward(const HostCsr<double>& A, const std::vector<double>& X,
                                     const std::vector<GcnLayerWeights>& layers) {
  const auto n = static_cast<std::size_t>(A.rows);
  std::vector<double> H = X;
  const auto aggregate = [&](const std::vector<double>& B, std::size_t w) {
    std::vector<double> out(n * w, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (int k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) {
        const double a = round_to<T>(A.values[static_cast<std::size_t>(k)]);
        const auto j = static_cast<std::size_t>(A.col_idx[static_cast<std::size_t>(k)]);
        for (std::size_t c = 0; c < w; ++c) out[i * w + c] += a * B[j * w + c];
      }
    return out;
  };
  const auto times_w = [&](const std::vector<double>& B, const GcnLayerWeights& l) {
    std::vector<double> out(n * static_cast<std::size_t>(l.out), 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < static_cast<std::size_t>(l.in); ++k)
        for (std::size_t c = 0; c < static_cast<std::size_t>(l.out); ++c)
          out[i * static_cast<std::size_t>(l.out) + c] += B[i * static_cast<std::size_t>(l.in) + k] * l.W[k * static_cast<std::size_t>(l.out) + c];
    for (double& v : out) v = round_to<T>(v);
    return out;
  };
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const GcnLayerWeights& w = layers[l];
    std::vector<double> pre;
    if (w.in < w.out) {
      std::vector<double> Z = aggregate(H, static_cast<std::size_t>(w.in));
      for (double& v : Z) v = round_to<T>(v);
      pre = times_w(Z, w);
    } else {
      pre = aggregate(times_w(H, w), static_cast<std::size_t>(w.out));
    }
    for (std::size_t e = 0; e < pre.size(); ++e) {
      double v = pre[e] + w.bias[e % static_cast<std::size_t>(w.out)];
      if (l + 1 < layers.size()) v = std::max(v, 0.0);
      pre[e] = round_to<T>(v);
    }
    H = std::move(pre);
  }
  return H;
}

}  // namespace

TEST_CASE("gnn output bounds: the GPU's f16 / bf16 roundings, emulated, stay inside them", "[apps][gnn]") {
  // Checks the bounds before any GPU run: a bound the arithmetic cannot meet would fail every run.
  for (const EdgeList& g : {karate_club(), hostile_graph(300, 3000, 8, true)})
    for (const std::vector<int>& widths : {std::vector<int>{16, 32, 32, 8}, std::vector<int>{24, 16}}) {
      CAPTURE(g.nodes, widths.size());
      const std::vector<GcnLayerWeights> layers = make_weights(widths, 3);
      const std::vector<double> X = make_features(g.nodes, widths[0], 4);
      const HostCsr<double> A = gcn_adjacency_csr(g, {});
      const std::vector<double> ref = forward_dense(gcn_adjacency_dense(g, {}), g.nodes, X, layers);
      const double e16 = relative_error(emulated_forward<__half>(A, X, layers), ref);
      const double e_bf16 = relative_error(emulated_forward<__nv_bfloat16>(A, X, layers), ref);
      CAPTURE(e16, e_bf16);
      CHECK(e16 > 0);  // the emulation does round
      CHECK(e16 < output_tolerance(DType::f16) / 3);
      CHECK(e_bf16 < output_tolerance(DType::bf16) / 3);
    }
}
