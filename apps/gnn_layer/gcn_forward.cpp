#include "bsrflow/apps/gnn_layer/gcn_forward.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <span>

#include "bsrflow/apps/common/cublas_dense_gemm.hpp"
#include "bsrflow/apps/gnn_layer/gcn_device.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/csr_to_bsr.hpp"
#include "bsrflow/ops/cublas_check.hpp"

namespace bsrflow::gnn {

const char* path_name(AggregationPath p) { return p == AggregationPath::bsr_split ? "bsr+csr-rest" : "cusparse-csr"; }

namespace {

template <class T>
DeviceBuffer<T> upload_as(const std::vector<double>& v, cudaStream_t stream) {
  std::vector<T> h(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) h[i] = from_double<T>(v[i]);
  DeviceBuffer<T> d = DeviceBuffer<T>::from_host(std::span<const T>(h), stream);
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));  // `h` dies here
  return d;
}

template <class T>
Csr<T> csr_with_structure(const HostCsr<float>& s, cudaStream_t stream) {
  return Csr<T>(s.rows, s.cols, DeviceBuffer<int>::from_host(std::span<const int>(s.row_ptr), stream),
                DeviceBuffer<int>::from_host(std::span<const int>(s.col_idx), stream),
                DeviceBuffer<T>(s.col_idx.size(), stream));
}

std::size_t area(int rows, int cols) { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); }

}  // namespace

template <class T>
GcnOperator<T> make_split_operator(const Csr<float>& A, const CsrSplit& split, int block, cudaStream_t stream) {
  BSRFLOW_REQUIRE(split.dest.size() == static_cast<std::size_t>(A.nnz()) && split.kept.rows == A.rows(),
                  Errc::invalid_argument, "make_split_operator: the split does not belong to this matrix");
  BSRFLOW_REQUIRE(A.rows() % block == 0, Errc::invalid_argument,
                  "make_split_operator: n_pad " + std::to_string(A.rows()) + " is not a multiple of block " +
                      std::to_string(block));
  GcnOperator<T> op;
  op.path = AggregationPath::bsr_split;
  op.n_pad = A.rows();
  op.nnz = A.nnz();
  Csr<T> kept = csr_with_structure<T>(split.kept, stream);
  op.rest = csr_with_structure<float>(split.rest, stream);
  const DeviceBuffer<int> dest = DeviceBuffer<int>::from_host(std::span<const int>(split.dest), stream);
  split_values<T>(A.values().data(), dest.data(), A.nnz(), kept.values().data(), op.rest.values().data(), stream);
  CsrToBsr<T> to_bsr(kept.view(), block, block, Padding::reject, stream);
  to_bsr.numeric(kept.values().data(), stream);
  op.bsr = std::move(to_bsr.output());
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  return op;
}

template <class T>
GcnOperator<T> make_csr_operator(const Csr<float>& A, cudaStream_t stream) {
  GcnOperator<T> op;
  op.path = AggregationPath::csr_cusparse;
  op.n_pad = A.rows();
  op.nnz = A.nnz();
  DeviceBuffer<int> row_ptr(A.row_ptr().size(), stream);
  DeviceBuffer<int> col_idx(A.col_idx().size(), stream);
  DeviceBuffer<T> values(A.values().size(), stream);
  BSRFLOW_CUDA(cudaMemcpyAsync(row_ptr.data(), A.row_ptr().data(), A.row_ptr().bytes(), cudaMemcpyDeviceToDevice, stream));
  if (A.nnz() > 0)
    BSRFLOW_CUDA(cudaMemcpyAsync(col_idx.data(), A.col_idx().data(), A.col_idx().bytes(), cudaMemcpyDeviceToDevice, stream));
  convert_values<T>(A.values().data(), values.data(), A.nnz(), stream);
  op.csr = Csr<T>(A.rows(), A.cols(), std::move(row_ptr), std::move(col_idx), std::move(values));
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  return op;
}

template <class T>
struct GcnForward<T>::Layer {
  int in = 0;
  int out = 0;
  bool aggregate_first = false;  // (A_hat H) W instead of A_hat (H W)
  bool relu = false;
  DeviceBuffer<T> W;             // in x out
  DeviceBuffer<float> bias;      // out
  DeviceBuffer<T> dense;         // n_pad x out: H W (transform first) or Z W (aggregate first)
  DeviceBuffer<float> agg_f32;   // n_pad x width: the split path's aggregation
  DeviceBuffer<T> agg_t;         // n_pad x width: cuSPARSE's aggregation, or Z = T(agg_f32)
  DeviceBuffer<T> h;             // n_pad x out: this layer's output
  GemmPlan plan;                 // split path, when the BSR part has blocks
  bool has_plan = false;
  std::unique_ptr<bench::CusparseCsrSpmm<T>> spmm;  // cuSPARSE path
  const T* input = nullptr;      // n_pad x in
  int width() const { return aggregate_first ? in : out; }
};

template <class T>
GcnForward<T>::GcnForward(const GcnOperator<T>& A, const std::vector<GcnLayerWeights>& layers, const T* X,
                          bench::CublasHandle& cublas, cusparseHandle_t cusparse, cudaStream_t stream)
    : A_(A), cublas_(cublas), X_(X) {
  BSRFLOW_REQUIRE(!layers.empty(), Errc::invalid_argument, "GcnForward: no layers");
  const int n = A.n_pad;
  const T* input = X;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const GcnLayerWeights& w = layers[l];
    auto L = std::make_unique<Layer>();
    L->in = w.in;
    L->out = w.out;
    L->aggregate_first = w.in < w.out;
    L->relu = l + 1 < layers.size();
    L->W = upload_as<T>(w.W, stream);
    L->bias = upload_as<float>(w.bias, stream);
    L->h = DeviceBuffer<T>(area(n, w.out), stream);
    L->input = input;
    const int width = L->width();
    if (!L->aggregate_first || A.path == AggregationPath::bsr_split) L->dense = DeviceBuffer<T>(area(n, w.out), stream);
    if (A.path == AggregationPath::bsr_split) {
      L->agg_f32 = DeviceBuffer<float>(area(n, width), stream);
      if (L->aggregate_first) L->agg_t = DeviceBuffer<T>(area(n, width), stream);
    } else {
      L->agg_t = DeviceBuffer<T>(area(n, width), stream);
    }
    if (L->aggregate_first && A.path == AggregationPath::csr_cusparse) L->dense = DeviceBuffer<T>(area(n, w.out), stream);
    // The aggregation's B operand: the layer input (aggregate first) or H W.
    const T* B = L->aggregate_first ? input : L->dense.data();
    const DenseView<const T> Bv{B, n, width, width, Layout::row_major};
    if (A.path == AggregationPath::bsr_split) {
      if (A.bsr.nnzb() > 0) {
        const DenseView<float> Cv{L->agg_f32.data(), n, width, width, Layout::row_major};
        L->plan = plan_gemm(A.bsr.view(), describe(Bv), describe(Cv), {}, stream);
        L->has_plan = true;
      }
    } else {
      L->spmm = std::make_unique<bench::CusparseCsrSpmm<T>>(
          cusparse, A.csr.view(), Bv, DenseView<T>{L->agg_t.data(), n, width, width, Layout::row_major}, stream);
    }
    input = L->h.data();
    layers_.push_back(std::move(L));
  }
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
}

template <class T>
GcnForward<T>::~GcnForward() = default;

template <class T>
void GcnForward<T>::aggregate(Layer& L, const T* B, int width, const float* bias, bool relu, T* out,
                              cudaStream_t stream) {
  const int n = A_.n_pad;
  const DenseView<const T> Bv{B, n, width, width, Layout::row_major};
  if (A_.path == AggregationPath::csr_cusparse) {
    L.spmm->run(stream);  // into agg_t
    if (bias != nullptr || relu || out != L.agg_t.data())
      bias_activation<T, T>(L.agg_t.data(), bias, out, n, width, relu, stream);
    return;
  }
  if (L.has_plan) {
    L.plan.template run<T, float>(A_.bsr.view(), Bv, DenseView<float>{L.agg_f32.data(), n, width, width, Layout::row_major},
                         1.0f, 0.0f, stream);
  } else {
    BSRFLOW_CUDA(cudaMemsetAsync(L.agg_f32.data(), 0, L.agg_f32.bytes(), stream));
  }
  csr_spmm_finish<T>(A_.rest.view(), B, width, L.agg_f32.data(), width, bias, relu, out, width, width, stream);
}

template <class T>
void GcnForward<T>::enqueue(cudaStream_t stream) {
  cublas_.set_stream(stream);  // also re-sets its workspace: cuBLAS must not allocate inside a capture
  const int n = A_.n_pad;
  for (auto& Lp : layers_) {
    Layer& L = *Lp;
    const DenseView<const T> Wv{L.W.data(), L.in, L.out, L.out, Layout::row_major};
    if (!L.aggregate_first) {
      // H W on cuBLAS, then act(A_hat (H W) + bias).
      bench::cublas_dense_gemm<T>(cublas_.get(), DenseView<const T>{L.input, n, L.in, L.in, Layout::row_major}, Wv,
                                  DenseView<T>{L.dense.data(), n, L.out, L.out, Layout::row_major});
      aggregate(L, L.dense.data(), L.out, L.bias.data(), L.relu, L.h.data(), stream);
    } else {
      // Z = A_hat H (rounded to T), then Z W on cuBLAS, then bias + activation.
      aggregate(L, L.input, L.in, nullptr, false, L.agg_t.data(), stream);
      bench::cublas_dense_gemm<T>(cublas_.get(), DenseView<const T>{L.agg_t.data(), n, L.in, L.in, Layout::row_major}, Wv,
                                  DenseView<T>{L.dense.data(), n, L.out, L.out, Layout::row_major});
      bias_activation<T, T>(L.dense.data(), L.bias.data(), L.h.data(), n, L.out, L.relu, stream);
    }
  }
}

template <class T>
const T* GcnForward<T>::output() const {
  return layers_.back()->h.data();
}

template <class T>
int GcnForward<T>::out_width() const {
  return layers_.back()->out;
}

template <class T>
std::vector<std::string> GcnForward<T>::notes() const {
  std::vector<std::string> out;
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    const Layer& L = *layers_[l];
    std::string agg;
    if (A_.path == AggregationPath::csr_cusparse) {
      agg = "cuSPARSE CSR SpMM";
    } else {
      agg = L.has_plan ? L.plan.name() : std::string("no BSR blocks");
      if (L.has_plan && !L.plan.fallback_reason().empty()) agg += " (reference kernel: " + L.plan.fallback_reason() + ")";
      agg += " + CSR rest";
    }
    out.push_back("layer " + std::to_string(l) + " (" + std::to_string(L.in) + " -> " + std::to_string(L.out) +
                  "): " + (L.aggregate_first ? "aggregate " + agg + ", then ZW (cuBLAS)"
                                             : "XW (cuBLAS), then aggregate " + agg));
  }
  return out;
}

template <class T>
double GcnForward<T>::useful_flops(int nodes) const {
  double f = 0;
  for (const auto& L : layers_)
    f += 2.0 * static_cast<double>(A_.nnz) * L->width() + 2.0 * nodes * static_cast<double>(L->in) * L->out;
  return f;
}

#define GNN_FORWARD_INSTANTIATE(T)                                                                           \
  template GcnOperator<T> make_split_operator<T>(const Csr<float>&, const CsrSplit&, int, cudaStream_t);    \
  template GcnOperator<T> make_csr_operator<T>(const Csr<float>&, cudaStream_t);                            \
  template class GcnForward<T>;
GNN_FORWARD_INSTANTIATE(__half)
GNN_FORWARD_INSTANTIATE(__nv_bfloat16)

}  // namespace bsrflow::gnn
