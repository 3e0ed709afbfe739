#include "bsrflow/apps/gnn_layer/generators.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "bsrflow/core/error.hpp"

namespace bsrflow::gnn {
namespace {

// Uniform in [0, n): modulo of a 64-bit draw; the bias (n / 2^64) is far below anything measured.
int draw_below(std::mt19937_64& rng, int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); }
double draw_unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// Undirected pairs (u != v) -> both directions, sorted by (src, dst), duplicates removed.
EdgeList symmetric_simple(int nodes, std::vector<std::uint64_t>& pairs) {
  const std::size_t m = pairs.size();
  pairs.reserve(2 * m);
  for (std::size_t e = 0; e < m; ++e) {
    const auto u = static_cast<std::uint32_t>(pairs[e] >> 32);
    const auto v = static_cast<std::uint32_t>(pairs[e]);
    pairs.push_back((static_cast<std::uint64_t>(v) << 32) | u);
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  EdgeList g;
  g.nodes = nodes;
  g.src.resize(pairs.size());
  g.dst.resize(pairs.size());
  for (std::size_t e = 0; e < pairs.size(); ++e) {
    g.src[e] = static_cast<int>(pairs[e] >> 32);
    g.dst[e] = static_cast<int>(pairs[e] & 0xffffffffu);
  }
  return g;
}

std::uint64_t pair_key(int u, int v) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(u)) << 32) | static_cast<std::uint32_t>(v);
}

}  // namespace

void check_sbm_params(const SbmParams& p) {
  BSRFLOW_REQUIRE(p.nodes >= 2, Errc::invalid_argument, "sbm: --nodes must be at least 2, got " + std::to_string(p.nodes));
  BSRFLOW_REQUIRE(p.communities >= 1 && p.communities <= p.nodes, Errc::invalid_argument,
                  "sbm: --communities must be in [1, nodes], got " + std::to_string(p.communities));
  BSRFLOW_REQUIRE(p.avg_degree > 0 && p.avg_degree * p.nodes / 2 < 2.0e9, Errc::invalid_argument,
                  "sbm: --avg-degree must be positive with fewer than 2^31 edges, got " + std::to_string(p.avg_degree));
  BSRFLOW_REQUIRE(p.intra_fraction >= 0 && p.intra_fraction <= 1, Errc::invalid_argument,
                  "sbm: --intra must be in [0, 1], got " + std::to_string(p.intra_fraction));
}

void check_rmat_params(const RmatParams& p) {
  BSRFLOW_REQUIRE(p.scale >= 1 && p.scale <= 30, Errc::invalid_argument,
                  "rmat: --scale must be in [1, 30], got " + std::to_string(p.scale));
  BSRFLOW_REQUIRE(p.edge_factor > 0 && p.edge_factor * std::ldexp(1.0, p.scale) < 1.0e9, Errc::invalid_argument,
                  "rmat: --edge-factor must be positive with fewer than 1e9 drawn edges");
  BSRFLOW_REQUIRE(p.a >= 0 && p.b >= 0 && p.c >= 0 && p.a + p.b + p.c <= 1, Errc::invalid_argument,
                  "rmat: a, b, c must be non-negative with a + b + c <= 1");
}

GeneratedGraph generate_sbm(const SbmParams& p) {
  check_sbm_params(p);
  std::mt19937_64 rng(p.seed);
  // Community sizes differ by at most one; which node lands in which community is shuffled.
  std::vector<int> order(static_cast<std::size_t>(p.nodes));
  for (int v = 0; v < p.nodes; ++v) order[static_cast<std::size_t>(v)] = v;
  for (int i = p.nodes - 1; i > 0; --i) std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(draw_below(rng, i + 1))]);
  GeneratedGraph out;
  out.community.resize(order.size());
  std::vector<int> start(static_cast<std::size_t>(p.communities) + 1);
  for (int c = 0; c <= p.communities; ++c)
    start[static_cast<std::size_t>(c)] = static_cast<int>(static_cast<std::int64_t>(c) * p.nodes / p.communities);
  for (int c = 0; c < p.communities; ++c)
    for (int i = start[static_cast<std::size_t>(c)]; i < start[static_cast<std::size_t>(c) + 1]; ++i)
      out.community[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = c;
  // members of community c: order[start[c] .. start[c+1])
  const int per_node = std::max(1, static_cast<int>(std::lround(p.avg_degree / 2)));
  std::vector<std::uint64_t> pairs;
  pairs.reserve(static_cast<std::size_t>(p.nodes) * static_cast<std::size_t>(per_node));
  for (int u = 0; u < p.nodes; ++u) {
    const int c = out.community[static_cast<std::size_t>(u)];
    const int first = start[static_cast<std::size_t>(c)];
    const int size = start[static_cast<std::size_t>(c) + 1] - first;
    for (int k = 0; k < per_node; ++k) {
      const int v = draw_unit(rng) < p.intra_fraction ? order[static_cast<std::size_t>(first + draw_below(rng, size))]
                                                      : draw_below(rng, p.nodes);
      if (v != u) pairs.push_back(pair_key(u, v));
    }
  }
  out.graph = symmetric_simple(p.nodes, pairs);
  return out;
}

GeneratedGraph generate_rmat(const RmatParams& p) {
  check_rmat_params(p);
  std::mt19937_64 rng(p.seed);
  const int nodes = 1 << p.scale;
  const auto drawn = static_cast<std::int64_t>(std::llround(p.edge_factor * nodes));
  std::vector<std::uint64_t> pairs;
  pairs.reserve(static_cast<std::size_t>(drawn));
  for (std::int64_t e = 0; e < drawn; ++e) {
    int u = 0;
    int v = 0;
    for (int level = 0; level < p.scale; ++level) {
      const double r = draw_unit(rng);
      const int down = r >= p.a + p.b ? 1 : 0;                                // quadrants c, d
      const int right = (r >= p.a && r < p.a + p.b) || r >= p.a + p.b + p.c;  // quadrants b, d
      u = (u << 1) | down;
      v = (v << 1) | right;
    }
    if (u != v) pairs.push_back(pair_key(u, v));
  }
  GeneratedGraph out;
  out.graph = symmetric_simple(nodes, pairs);
  return out;
}

}  // namespace bsrflow::gnn
