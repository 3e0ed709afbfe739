// gnn_layer's run: load or generate the graph, reorder, build A_hat on the GPU and check it
// against the host's f64 normalisation, choose BSR (+ CSR remainder) or CSR from the block fill,
// run the forward pass once and check it against a CPU reference (f64 dense on small graphs, f32
// CSR on large ones, skipped past ~2^27 values), then time it as a graph replay and as eager
// launches, beside the same layer on cuSPARSE CSR SpMM (the peer).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "bsrflow/apps/common/record.hpp"
#include "bsrflow/apps/gnn_layer/block_choice.hpp"
#include "bsrflow/apps/gnn_layer/gnn_cli.hpp"

namespace bsrflow::gnn {

struct GnnRun {
  std::vector<bench::Record> records;  // one per (system, launch mode)
  std::string graph;                   // one line: source, nodes, edges, reorder
  PathChoice choice;
  std::vector<std::string> notes;      // per layer: order and kernels
  std::string adjacency_check;         // GPU A_hat vs the host's f64 normalisation
  std::string output_check;            // forward output vs the CPU reference
};

// The graph the options describe (file or generator); `communities` gets the SBM labels.
EdgeList load_graph(const GnnOptions& o, std::vector<int>* communities);

// ||out - ref|| / ||ref|| bound of the forward output per dtype (f16 3e-3, bf16 2e-2): inputs
// and weights are exact in both, so the error is the rounding of A_hat, H W / Z and each layer's
// output to the dtype. An emulation of those roundings (CPU test "gnn output bounds") gives
// ~2.7e-4 and ~2.0e-3 on the test graphs: the bounds leave 10x for accumulation-order effects.
double output_tolerance(DType dtype);

// Needs a GPU. `log` (may be null) gets progress lines.
GnnRun run_gnn_layer(const GnnOptions& o, std::ostream* log);

std::string gnn_markdown(const GnnRun& run);

}  // namespace bsrflow::gnn
