// A graph as the GCN layer reads it: directed edges src -> dst with optional weights, node ids
// 0 .. nodes-1. Messages flow from src to dst (PyG's flow="source_to_target"), so row i of the
// normalised adjacency gathers the edges whose TARGET is i.
//
// Readers:
//  - SNAP-style text: one edge per line, "src dst" or "src dst weight", separated by blanks or
//    tabs; lines starting with '#' or '%' and blank lines are skipped. Ids are 0-based unless
//    one_based is set. The node count is the largest id + 1 (or `min_nodes`, if larger).
//  - Matrix Market (.mtx, via formats/matrix_market.hpp): entry (i, j, v) is the edge i -> j
//    with weight v (pattern files: unweighted). Symmetric files give both directions.
// Errors: Errc::io when the file cannot be opened; Errc::parse "name:line: ..." for a bad line
// (missing id, negative id, non-numeric text, a weight that is not finite, extra fields).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace bsrflow::gnn {

struct EdgeList {
  int nodes = 0;
  std::vector<int> src;
  std::vector<int> dst;
  std::vector<double> weight;  // empty: every edge has weight 1

  std::int64_t edges() const { return static_cast<std::int64_t>(src.size()); }
  bool weighted() const { return !weight.empty(); }
  double weight_of(std::int64_t e) const { return weight.empty() ? 1.0 : weight[static_cast<std::size_t>(e)]; }
};

struct EdgeReadOptions {
  bool one_based = false;  // ids in the file start at 1
  int min_nodes = 0;       // node count at least this (isolated nodes past the largest id)
};

EdgeList read_snap_edges(std::istream& in, const std::string& name, const EdgeReadOptions& options = {});
// By extension: ".mtx" -> Matrix Market (1-based by definition; one_based is ignored), anything
// else -> SNAP text.
EdgeList read_edge_file(const std::string& path, const EdgeReadOptions& options = {});

// Adds the reverse of every edge that is not a self loop (with the same weight), after the
// original edges: an undirected edge list as PyG's to_undirected would see it before coalescing.
// Edges listed in both directions in the input end up twice per direction; GCN sums duplicates.
void add_reverse_edges(EdgeList& g);

// Throws Error(invalid_argument) naming the first edge with an id outside [0, nodes) or a
// weight count that does not match the edge count.
void check_edge_list(const EdgeList& g);

// Writes "src dst weight" lines (0-based), the format pyg_compare.py reads.
void write_edge_list(std::ostream& out, const EdgeList& g);

}  // namespace bsrflow::gnn
