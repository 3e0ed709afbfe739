// The GCN forward pass on the GPU, H_{l+1} = act(A_hat (H_l W_l) + b_l) (ReLU on all but the last
// layer), in f16 or bf16 with f32 accumulation, as one allocation-free, sync-free enqueue() that
// a TaskGraph captures and replays.
//
// Two forms of A_hat (GcnOperator):
//  - bsr_split: the blocks dense enough to pay (block_choice.hpp) as BSR on bsrflow's GEMM
//    (plan_gemm: the Hopper kernel, or the reference kernel with a stated reason), the
//    scattered rest as a CSR remainder on a CUDA-core kernel adding into the same f32 output;
//  - csr_cusparse: all of A_hat as CSR through cuSPARSE SpMM: the path GNN frameworks take,
//    used as the peer and as the app's own choice when block fill is poor.
// Per layer the cheaper order is used: X W first (PyG's order) when out <= in, else
// (A_hat X) W, which aggregates the narrower matrix. The dense products run on cuBLAS.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

#include "bsrflow/apps/common/cusparse_csr_spmm.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/apps/gnn_layer/block_choice.hpp"
#include "bsrflow/apps/gnn_layer/gcn_reference.hpp"
#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/csr.hpp"
#include "bsrflow/ops/gemm_plan.hpp"

namespace bsrflow::gnn {

enum class AggregationPath { bsr_split, csr_cusparse };
const char* path_name(AggregationPath p);

template <class T>
struct GcnOperator {
  AggregationPath path = AggregationPath::csr_cusparse;
  int n_pad = 0;
  std::int64_t nnz = 0;  // entries of A_hat (the useful work)
  // bsr_split
  Bsr<T> bsr;            // the kept blocks (nnzb may be 0)
  Csr<float> rest;       // the remainder (nnz may be 0)
  // csr_cusparse
  Csr<T> csr;
};

// From A_hat built on the device (build_gcn_adjacency) and the host split of its structure
// (split_by_blocks): kept entries -> CSR -> BSR (CsrToBsr, block x block), rest -> CSR f32.
// Allocates and synchronises.
template <class T>
GcnOperator<T> make_split_operator(const Csr<float>& A, const CsrSplit& split, int block, cudaStream_t stream);

// All of A_hat as CSR in T (for cuSPARSE). Allocates.
template <class T>
GcnOperator<T> make_csr_operator(const Csr<float>& A, cudaStream_t stream);

template <class T>
class GcnForward {
 public:
  // X: n_pad x layers[0].in, row-major, on the device; rows past the real nodes must be finite
  // (zero). Plans every product (allocates, synchronises); the operator, X and the handles must
  // outlive this object.
  GcnForward(const GcnOperator<T>& A, const std::vector<GcnLayerWeights>& layers, const T* X, bench::CublasHandle& cublas,
             cusparseHandle_t cusparse, cudaStream_t stream);
  ~GcnForward();
  GcnForward(const GcnForward&) = delete;
  GcnForward& operator=(const GcnForward&) = delete;

  // The whole forward pass on `stream`: no allocation, no synchronisation.
  void enqueue(cudaStream_t stream);

  const T* output() const;  // n_pad x out_width(), row-major
  int out_width() const;
  // One line per layer: order and the kernels that run, e.g.
  // "layer 0 (128 -> 64): XW (cuBLAS), aggregate bsr_sm90_f16_r64c64_swath256_s5 + CSR rest".
  std::vector<std::string> notes() const;
  // 2 * (nnz * aggregated width + n * in * out) summed over layers, n = real rows of A_hat.
  double useful_flops(int nodes) const;

 private:
  struct Layer;
  // out = act(A_hat B + bias) (bias may be null; act = ReLU or identity), rounded to T once.
  void aggregate(Layer& layer, const T* B, int width, const float* bias, bool relu, T* out, cudaStream_t stream);
  const GcnOperator<T>& A_;
  bench::CublasHandle& cublas_;
  const T* X_;
  std::vector<std::unique_ptr<Layer>> layers_;
};

}  // namespace bsrflow::gnn
