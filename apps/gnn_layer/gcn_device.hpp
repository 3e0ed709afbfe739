// The GCN layer's GPU steps, as plain launchers (kernels in gcn_device.cu):
//  - building A_hat from an edge list (relabel, self loops with PyG's rule, COO -> CSR with
//    duplicates summed, weighted in-degrees, deg^-1/2 scaling), the same semantics as
//    gcn_norm.hpp computes on the host;
//  - the numeric phase of the BSR / CSR-remainder split (block_choice.hpp) and dtype casts;
//  - the CSR remainder product C += A_rest * B on CUDA cores;
//  - bias + activation.
// Everything after build_gcn_adjacency is allocation-free and sync-free: capturable.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bsrflow/apps/gnn_layer/edge_list.hpp"
#include "bsrflow/apps/gnn_layer/gcn_norm.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/csr.hpp"

namespace bsrflow::gnn {

struct DeviceEdges {
  int nodes = 0;
  DeviceBuffer<int> src;
  DeviceBuffer<int> dst;
  DeviceBuffer<float> weight;  // empty: unweighted
  std::int64_t edges() const { return static_cast<std::int64_t>(src.size()); }
};

// Weights go to the device as f32 (what PyG's edge_weight is).
DeviceEdges upload_edges(const EdgeList& g, cudaStream_t stream);

// src[e] = new_of_old[src[e]], dst likewise (new_of_old: nodes entries on the device).
void relabel_edges(DeviceEdges& edges, const int* new_of_old, cudaStream_t stream);

// A_hat (rows = cols = n_pad >= nodes; rows past `nodes` are empty), f32 values: the matrix
// gcn_adjacency_csr builds in f64. Sorts, sums duplicates (CooToCsr), adds / keeps loops,
// normalises. Allocates and synchronises `stream`.
Csr<float> build_gcn_adjacency(const DeviceEdges& edges, const NormOptions& o, int n_pad, cudaStream_t stream);

// out[i] = T(in[i]).
template <class T>
void convert_values(const float* in, T* out, std::int64_t count, cudaStream_t stream);

// The split's numeric phase: value e goes to kept[dest[e]] (as T) or rest[-dest[e] - 1].
template <class T>
void split_values(const float* values, const int* dest, std::int64_t count, T* kept, float* rest,
                  cudaStream_t stream);

// The split path's last pass: out[i, c] = act(C[i, c] + sum_k A.values[k] * B[A.col_idx[k], c]
// + bias[c]) for every row i of A (the CSR remainder; C holds the BSR part's f32 product) and
// c < width, rounded to T once; bias may be null, act = ReLU or identity. Row-major B (ldb),
// C (ldc), out (ldo). One warp per row, 4 columns per lane (16-byte f32 / 8-byte f16 accesses)
// where widths, leading dimensions and pointers allow, else 1. One pass instead of an f32
// read-modify-write of C followed by a bias / activation pass over it.
template <class T>
void csr_spmm_finish(CsrView<const float> A, const T* B, std::int64_t ldb, const float* C, std::int64_t ldc,
                     const float* bias, bool relu, T* out, std::int64_t ldo, int width, cudaStream_t stream);

// out[i, c] = act(in[i, c] + bias[c]) for i < rows, c < cols; row-major, leading dimension
// cols for both; bias may be null (no bias); act = ReLU or identity. TIn is float or T.
template <class TIn, class T>
void bias_activation(const TIn* in, const float* bias, T* out, int rows, int cols, bool relu, cudaStream_t stream);

}  // namespace bsrflow::gnn
