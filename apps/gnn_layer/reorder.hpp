// Node reorderings that raise block density: reverse Cuthill-McKee on the symmetrised pattern,
// or grouping by community label. Both run on the host (O(E log d) / O(n log n)); the app
// applies the result on the GPU (gnn_device.hpp, relabel_edges).
//
// A permutation is given as `order`: order[k] = the old node that becomes node k. Its inverse
// new_of_old[v] = k is what relabelling uses.
#pragma once

#include <string>
#include <vector>

#include "bsrflow/apps/gnn_layer/edge_list.hpp"

namespace bsrflow::gnn {

enum class Reorder { none, rcm, community };
Reorder parse_reorder(const std::string& text);  // "none" | "rcm" | "community"
const char* reorder_name(Reorder r);

// Reverse Cuthill-McKee: edges are taken in both directions, loops and weights ignored. Each
// connected component starts from a node of least degree (ties: smallest id) and is walked
// breadth first, neighbours by increasing degree (ties: smallest id); the whole order is
// reversed at the end. Isolated nodes come out as their own components. Deterministic.
std::vector<int> rcm_order(const EdgeList& g);

// Nodes grouped by community label (stable: by label, then by old id). Throws
// Error(invalid_argument) if labels.size() != g.nodes or a label is negative.
std::vector<int> community_order(const EdgeList& g, const std::vector<int>& labels);

// order -> new_of_old. Throws Error(invalid_argument) if `order` is not a permutation of 0..n-1.
std::vector<int> inverse_permutation(const std::vector<int>& order);

// The same graph with node v renamed new_of_old[v] (edge order and weights unchanged).
EdgeList relabel(const EdgeList& g, const std::vector<int>& new_of_old);

// Half bandwidth max |src - dst| over the edges: what RCM makes small.
int bandwidth(const EdgeList& g);

}  // namespace bsrflow::gnn
