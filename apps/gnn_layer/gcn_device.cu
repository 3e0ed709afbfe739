#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <span>
#include <vector>

#include "bsrflow/apps/gnn_layer/gcn_device.hpp"
#include "bsrflow/apps/gnn_layer/gcn_rules.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/formats/coo_to_csr.hpp"

namespace bsrflow::gnn {
namespace {

constexpr int kThreads = 256;

// f32 <-> value type on the device (round to nearest even).
__device__ inline float to_float(float v) { return v; }
__device__ inline float to_float(__half v) { return __half2float(v); }
__device__ inline float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T> __device__ inline T from_float(float v);
template <> __device__ inline float from_float<float>(float v) { return v; }
template <> __device__ inline __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __device__ inline __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

int grid_for(std::int64_t count) {
  const std::int64_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 1 ? 1 : (blocks > 65535 * 8 ? 65535 * 8 : blocks));
}

#define GNN_GRID_STRIDE(i, count) \
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < (count); \
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)

__global__ void relabel_kernel(int* src, int* dst, std::int64_t m, const int* new_of_old) {
  GNN_GRID_STRIDE(e, m) {
    src[e] = new_of_old[src[e]];
    dst[e] = new_of_old[dst[e]];
  }
}

// loop_last[i] = the largest edge index of a loop i -> i (PyG keeps the last), -1 if none.
__global__ void last_loop_kernel(const int* src, const int* dst, std::int64_t m, int* loop_last) {
  GNN_GRID_STRIDE(e, m) {
    if (src[e] == dst[e]) atomicMax(&loop_last[src[e]], static_cast<int>(e));
  }
}

// The matrix COO: entry e = (dst, src, w) for every edge, with w = 0 for loops when loops are
// re-added (0 + loop weight below is exact, and the diagonal entry exists anyway), then one
// loop entry per node.
__global__ void matrix_coo_kernel(const int* src, const int* dst, const float* weight, std::int64_t m,
                                  bool replace_loops, int* row, int* col, float* value) {
  GNN_GRID_STRIDE(e, m) {
    const int s = src[e];
    const int d = dst[e];
    row[e] = d;
    col[e] = s;
    value[e] = rules::edge_value(s, d, weight, e, replace_loops);
  }
}

__global__ void loop_entries_kernel(const int* loop_last, const float* weight, int nodes, float fill, int* row,
                                    int* col, float* value) {
  GNN_GRID_STRIDE(i, nodes) {
    const int last = loop_last[i];
    row[i] = static_cast<int>(i);
    col[i] = static_cast<int>(i);
    value[i] = rules::loop_value(last, weight, fill);
  }
}

// deg^-1/2 of each row's weight sum (row = target), with PyG's inf -> 0.
__global__ void inverse_sqrt_degree_kernel(CsrView<const float> A, float* dis) {
  GNN_GRID_STRIDE(i, A.rows) {
    float deg = 0.0f;
    for (int k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) deg += A.values[k];
    dis[i] = rules::inverse_sqrt_degree(deg);
  }
}

// value(i <- j) = dis[j] * w * dis[i], PyG's order of the two products.
__global__ void normalise_kernel(const int* row_ptr, const int* col_idx, float* values, int rows, const float* dis) {
  GNN_GRID_STRIDE(i, rows) {
    const float di = dis[i];
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) values[k] = rules::normalised(dis[col_idx[k]], values[k], di);
  }
}

template <class T>
__global__ void convert_kernel(const float* in, T* out, std::int64_t count) {
  GNN_GRID_STRIDE(i, count) { out[i] = from_float<T>(in[i]); }
}

template <class T>
__global__ void split_kernel(const float* values, const int* dest, std::int64_t count, T* kept, float* rest) {
  GNN_GRID_STRIDE(e, count) {
    const int d = dest[e];
    if (d >= 0)
      kept[d] = from_float<T>(values[e]);
    else
      rest[-d - 1] = values[e];
  }
}

// V consecutive values of type U, loaded or stored as one access (V = 4: 16 bytes of f32, 8 of f16).
template <class U, int V>
struct alignas(sizeof(U) * V) Pack {
  U v[V];
};

template <class T, int V>
__global__ void csr_spmm_finish_kernel(CsrView<const float> A, const T* B, std::int64_t ldb, const float* C,
                                       std::int64_t ldc, const float* bias, bool relu, T* out, std::int64_t ldo,
                                       int width) {
  const int lane = threadIdx.x % 32;
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * (blockDim.x / 32);
  for (std::int64_t i = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32; i < A.rows;
       i += warps) {
    const int begin = A.row_ptr[i];
    const int end = A.row_ptr[i + 1];
    for (int c = lane * V; c < width; c += 32 * V) {
      Pack<float, V> acc = *reinterpret_cast<const Pack<float, V>*>(C + i * ldc + c);  // f32 accumulators
      for (int k = begin; k < end; ++k) {
        const float a = A.values[k];
        const Pack<T, V> b = *reinterpret_cast<const Pack<T, V>*>(B + static_cast<std::int64_t>(A.col_idx[k]) * ldb + c);
#pragma unroll
        for (int v = 0; v < V; ++v) acc.v[v] += a * to_float(b.v[v]);
      }
      Pack<T, V> o;
#pragma unroll
      for (int v = 0; v < V; ++v) {
        float x = acc.v[v];
        if (bias != nullptr) x += bias[c + v];
        if (relu) x = fmaxf(x, 0.0f);
        o.v[v] = from_float<T>(x);
      }
      *reinterpret_cast<Pack<T, V>*>(out + i * ldo + c) = o;
    }
  }
}

template <class TIn, class T>
__global__ void bias_activation_kernel(const TIn* in, const float* bias, T* out, int rows, int cols, bool relu) {
  const std::int64_t count = static_cast<std::int64_t>(rows) * cols;
  GNN_GRID_STRIDE(e, count) {
    float v = to_float(in[e]);
    if (bias != nullptr) v += bias[e % cols];
    if (relu) v = fmaxf(v, 0.0f);
    out[e] = from_float<T>(v);
  }
}

void check_launch() { BSRFLOW_CUDA(cudaGetLastError()); }

}  // namespace

DeviceEdges upload_edges(const EdgeList& g, cudaStream_t stream) {
  check_edge_list(g);
  DeviceEdges d;
  d.nodes = g.nodes;
  d.src = DeviceBuffer<int>::from_host(std::span<const int>(g.src), stream);
  d.dst = DeviceBuffer<int>::from_host(std::span<const int>(g.dst), stream);
  if (g.weighted()) {
    std::vector<float> w(g.weight.begin(), g.weight.end());
    d.weight = DeviceBuffer<float>::from_host(std::span<const float>(w), stream);
    BSRFLOW_CUDA(cudaStreamSynchronize(stream));  // `w` dies here
  }
  return d;
}

void relabel_edges(DeviceEdges& edges, const int* new_of_old, cudaStream_t stream) {
  const std::int64_t m = edges.edges();
  if (m == 0) return;
  relabel_kernel<<<grid_for(m), kThreads, 0, stream>>>(edges.src.data(), edges.dst.data(), m, new_of_old);
  check_launch();
}

Csr<float> build_gcn_adjacency(const DeviceEdges& edges, const NormOptions& o, int n_pad, cudaStream_t stream) {
  BSRFLOW_REQUIRE(n_pad >= edges.nodes, Errc::invalid_argument,
                  "build_gcn_adjacency: n_pad " + std::to_string(n_pad) + " < nodes " + std::to_string(edges.nodes));
  const std::int64_t m = edges.edges();
  const bool loops = o.adds_loops();
  const std::int64_t total = m + (loops ? edges.nodes : 0);
  DeviceBuffer<int> row(static_cast<std::size_t>(total), stream);
  DeviceBuffer<int> col(static_cast<std::size_t>(total), stream);
  DeviceBuffer<float> value(static_cast<std::size_t>(total), stream);
  const float* w = edges.weight.empty() ? nullptr : edges.weight.data();
  if (m > 0) {
    matrix_coo_kernel<<<grid_for(m), kThreads, 0, stream>>>(edges.src.data(), edges.dst.data(), w, m, loops,
                                                            row.data(), col.data(), value.data());
    check_launch();
  }
  if (loops && edges.nodes > 0) {
    DeviceBuffer<int> loop_last(static_cast<std::size_t>(edges.nodes), stream);
    BSRFLOW_CUDA(cudaMemsetAsync(loop_last.data(), 0xff, loop_last.bytes(), stream));  // -1
    if (m > 0) {
      last_loop_kernel<<<grid_for(m), kThreads, 0, stream>>>(edges.src.data(), edges.dst.data(), m, loop_last.data());
      check_launch();
    }
    loop_entries_kernel<<<grid_for(edges.nodes), kThreads, 0, stream>>>(
        loop_last.data(), w, edges.nodes, static_cast<float>(o.fill()), row.data() + m, col.data() + m,
        value.data() + m);
    check_launch();
    BSRFLOW_CUDA(cudaStreamSynchronize(stream));  // loop_last is freed at scope end (stream-ordered anyway)
  }
  CooView<const float> coo{n_pad, n_pad, total, row.data(), col.data(), value.data()};
  CooToCsr<float> to_csr(coo, stream);
  to_csr.numeric(value.data(), stream);
  Csr<float> A = std::move(to_csr.output());
  if (o.normalize && A.rows() > 0) {
    DeviceBuffer<float> dis(static_cast<std::size_t>(A.rows()), stream);
    inverse_sqrt_degree_kernel<<<grid_for(A.rows()), kThreads, 0, stream>>>(A.view(), dis.data());
    check_launch();
    normalise_kernel<<<grid_for(A.rows()), kThreads, 0, stream>>>(A.row_ptr().data(), A.col_idx().data(),
                                                               A.values().data(), A.rows(), dis.data());
    check_launch();
  }
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  return A;
}

template <class T>
void convert_values(const float* in, T* out, std::int64_t count, cudaStream_t stream) {
  if (count == 0) return;
  convert_kernel<T><<<grid_for(count), kThreads, 0, stream>>>(in, out, count);
  check_launch();
}

template <class T>
void split_values(const float* values, const int* dest, std::int64_t count, T* kept, float* rest,
                  cudaStream_t stream) {
  if (count == 0) return;
  split_kernel<T><<<grid_for(count), kThreads, 0, stream>>>(values, dest, count, kept, rest);
  check_launch();
}

template <class T>
void csr_spmm_finish(CsrView<const float> A, const T* B, std::int64_t ldb, const float* C, std::int64_t ldc,
                     const float* bias, bool relu, T* out, std::int64_t ldo, int width, cudaStream_t stream) {
  if (A.rows == 0 || width == 0) return;
  const auto aligned = [](const void* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; };
  const bool packed = width % 4 == 0 && ldb % 4 == 0 && ldc % 4 == 0 && ldo % 4 == 0 && aligned(B, 4 * sizeof(T)) &&
                      aligned(C, 4 * sizeof(float)) && aligned(out, 4 * sizeof(T));
  const std::int64_t threads = static_cast<std::int64_t>(A.rows) * 32;
  if (packed)
    csr_spmm_finish_kernel<T, 4><<<grid_for(threads), kThreads, 0, stream>>>(A, B, ldb, C, ldc, bias, relu, out, ldo, width);
  else
    csr_spmm_finish_kernel<T, 1><<<grid_for(threads), kThreads, 0, stream>>>(A, B, ldb, C, ldc, bias, relu, out, ldo, width);
  check_launch();
}

template <class TIn, class T>
void bias_activation(const TIn* in, const float* bias, T* out, int rows, int cols, bool relu, cudaStream_t stream) {
  const std::int64_t count = static_cast<std::int64_t>(rows) * cols;
  if (count == 0) return;
  bias_activation_kernel<TIn, T><<<grid_for(count), kThreads, 0, stream>>>(in, bias, out, rows, cols, relu);
  check_launch();
}

#define GNN_INSTANTIATE(T)                                                                                      \
  template void convert_values<T>(const float*, T*, std::int64_t, cudaStream_t);                               \
  template void split_values<T>(const float*, const int*, std::int64_t, T*, float*, cudaStream_t);             \
  template void csr_spmm_finish<T>(CsrView<const float>, const T*, std::int64_t, const float*, std::int64_t,    \
                                   const float*, bool, T*, std::int64_t, int, cudaStream_t);                   \
  template void bias_activation<T, T>(const T*, const float*, T*, int, int, bool, cudaStream_t);
GNN_INSTANTIATE(__half)
GNN_INSTANTIATE(__nv_bfloat16)
template void convert_values<float>(const float*, float*, std::int64_t, cudaStream_t);
template void csr_spmm_finish<float>(CsrView<const float>, const float*, std::int64_t, const float*, std::int64_t,
                                     const float*, bool, float*, std::int64_t, int, cudaStream_t);
template void bias_activation<float, float>(const float*, const float*, float*, int, int, bool, cudaStream_t);

}  // namespace bsrflow::gnn
