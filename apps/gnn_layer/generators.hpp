// Seeded graph generators for the GCN layer. Both give simple undirected graphs as edge lists
// holding both directions of every edge (no self loops, no duplicates), sorted by (src, dst).
// Deterministic for a given seed on every platform (std::mt19937_64 and plain modulo, no
// std:: distributions whose output is implementation-defined).
#pragma once

#include <cstdint>
#include <vector>

#include "bsrflow/apps/gnn_layer/edge_list.hpp"

namespace bsrflow::gnn {

// Stochastic block model with `communities` groups of (nearly) equal size. Each node draws
// round(avg_degree / 2) partners: inside its own community with probability `intra_fraction`,
// anywhere otherwise; self pairs and repeats are dropped, then both directions are kept. The
// community of each node is random (a shuffled assignment), so node order says nothing about
// communities until the graph is reordered: that is the case reordering exists for.
struct SbmParams {
  int nodes = 100000;
  int communities = 1000;
  double avg_degree = 16;
  double intra_fraction = 0.9;
  std::uint64_t seed = 1;
};

struct GeneratedGraph {
  EdgeList graph;
  std::vector<int> community;  // per node (SBM); empty for R-MAT
};

GeneratedGraph generate_sbm(const SbmParams& p);

// R-MAT (Chakrabarti, Zhan, Faloutsos 2004; Graph500 parameters by default): 2^scale nodes,
// edge_factor * 2^scale drawn edges, each placed by `scale` quadrant choices with probabilities
// a, b, c, 1 - a - b - c. Self loops and repeats dropped, both directions kept. Power-law
// degrees with no community structure a reordering could find: the case where BSR fill is poor.
struct RmatParams {
  int scale = 16;
  double edge_factor = 16;
  double a = 0.57;
  double b = 0.19;
  double c = 0.19;
  std::uint64_t seed = 1;
};

GeneratedGraph generate_rmat(const RmatParams& p);

// Throws Error(invalid_argument) naming the bad parameter (exposed for the CLI's checks).
void check_sbm_params(const SbmParams& p);
void check_rmat_params(const RmatParams& p);

}  // namespace bsrflow::gnn
