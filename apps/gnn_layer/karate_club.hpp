// Zachary's karate club: the friendships among 34 members of a university karate club, 78
// undirected edges, observed 1970-72 before the club split in two.
//   W. W. Zachary, "An information flow model for conflict and fission in small groups",
//   Journal of Anthropological Research 33(4), 452-473 (1977).
// The edge list is the one distributed with the paper's data (UCINET's ZACHE matrix; the same
// 78 edges as networkx.karate_club_graph and Newman's karate.gml), kept here as 1-based text.
#pragma once

#include <string_view>

#include "bsrflow/apps/gnn_layer/edge_list.hpp"

namespace bsrflow::gnn {

// The 78 undirected edges, one "u v" line each, 1-based, u < v.
std::string_view karate_club_text();

// The graph as the app uses it: 34 nodes (0-based), both directions of each edge (156 edges).
EdgeList karate_club();

}  // namespace bsrflow::gnn
