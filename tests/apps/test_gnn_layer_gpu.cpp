// gnn_layer on the GPU: A_hat built on the device equals the host's PyG normalisation (isolated
// nodes, existing and repeated loops, weights, every option), relabelling on the device, the
// forward pass on both paths (BSR split + CSR remainder, cuSPARSE CSR) and both layer orders
// against the f64 dense reference, Zachary's karate club, graph replay = eager bit for bit, and
// the app end to end.
#include <catch2/catch.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <random>
#include <span>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/apps/gnn_layer/block_choice.hpp"
#include "bsrflow/apps/gnn_layer/gcn_adjacency_f32.hpp"
#include "bsrflow/apps/gnn_layer/gcn_device.hpp"
#include "bsrflow/apps/gnn_layer/gcn_forward.hpp"
#include "bsrflow/apps/gnn_layer/gcn_norm.hpp"
#include "bsrflow/apps/gnn_layer/gcn_reference.hpp"
#include "bsrflow/apps/gnn_layer/gnn_cli.hpp"
#include "bsrflow/apps/gnn_layer/gnn_runner.hpp"
#include "bsrflow/apps/gnn_layer/karate_club.hpp"
#include "bsrflow/apps/gnn_layer/reorder.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/graph/graph_exec.hpp"
#include "bsrflow/graph/task_graph.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;
using namespace bsrflow::gnn;

namespace {

// Loops (some repeated), duplicates, weights and three isolated nodes at the end.
EdgeList hostile(int n, int m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  EdgeList g;
  g.nodes = n;
  for (int e = 0; e < m; ++e) {
    const int s = static_cast<int>(rng() % static_cast<unsigned>(n - 3));
    const int d = e % 9 == 0 ? s : static_cast<int>(rng() % static_cast<unsigned>(n - 3));
    g.src.push_back(s);
    g.dst.push_back(d);
    g.weight.push_back(0.25 * static_cast<double>(1 + rng() % 8));
    if (e % 13 == 0) {
      g.src.push_back(s);
      g.dst.push_back(d);
      g.weight.push_back(0.5);
    }
  }
  return g;
}

int pad(int n) { return (n + 127) / 128 * 128; }

template <class T>
std::vector<double> download(const T* d, int rows, int cols) {
  std::vector<T> h(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
  BSRFLOW_CUDA(cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<double> out(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) out[i] = to_double(h[i]);
  return out;
}

template <class T>
DeviceBuffer<T> features_on_device(const std::vector<double>& X, int n, int n_pad, int width, cudaStream_t stream) {
  std::vector<T> h(static_cast<std::size_t>(n_pad) * static_cast<std::size_t>(width), from_double<T>(0.0));
  for (std::size_t i = 0; i < X.size(); ++i) h[i] = from_double<T>(X[i]);
  DeviceBuffer<T> d = DeviceBuffer<T>::from_host(std::span<const T>(h), stream);
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  (void)n;
  return d;
}

HostCsr<double> as_double(const HostCsr<float>& a) {
  return {a.rows, a.cols, a.row_ptr, a.col_idx, std::vector<double>(a.values.begin(), a.values.end())};
}

// The smallest split threshold that sends some block to the CSR remainder while others stay in
// BSR, so that both parts of the split path run.
int both_parts_threshold(const HostCsr<float>& A, int block) {
  for (int t = 2; t <= block * block; ++t) {
    const BlockFill f = measure_fill(A.rows, A.row_ptr, A.col_idx, block, t);
    if (f.nnz_kept < f.nnz) {
      REQUIRE(f.nnz_kept > 0);
      return t;
    }
  }
  FAIL("every block has the same population");
  return 0;
}

// The forward pass of `g` on the GPU through one path, against the f64 dense reference.
// block > 0: the split path with that block, both parts non-empty; 0: cuSPARSE CSR.
template <class T>
double forward_error(const EdgeList& g, const NormOptions& o, const std::vector<int>& widths, int block) {
  Stream stream;
  const int n = g.nodes;
  const int n_pad = pad(n);
  const DeviceEdges edges = upload_edges(g, stream);
  const Csr<float> A = build_gcn_adjacency(edges, o, n_pad, stream);
  const std::vector<GcnLayerWeights> layers = make_weights(widths, 3);
  const std::vector<double> X = make_features(n, widths[0], 4);
  const DeviceBuffer<T> Xd = features_on_device<T>(X, n, n_pad, widths[0], stream);
  bench::CublasHandle cublas(stream);
  bench::CusparseHandle cusparse;
  const HostCsr<float> Ah = A.to_host(stream);
  const GcnOperator<T> op =
      block > 0
          ? make_split_operator<T>(A, split_by_blocks(as_double(Ah), block, both_parts_threshold(Ah, block)), block, stream)
          : make_csr_operator<T>(A, stream);
  if (block > 0) {
    CHECK(op.bsr.nnzb() > 0);   // both parts exercised
    CHECK(op.rest.nnz() > 0);
  }
  GcnForward<T> fwd(op, layers, Xd.data(), cublas, cusparse.get(), stream);
  // Poison the output first: an unwritten row cannot pass.
  BSRFLOW_CUDA(cudaMemsetAsync(const_cast<T*>(fwd.output()), 0xff,
                               static_cast<std::size_t>(n_pad) * static_cast<std::size_t>(fwd.out_width()) * sizeof(T),
                               stream));
  fwd.enqueue(stream);
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  const std::vector<double> out = download(fwd.output(), n, fwd.out_width());
  const std::vector<double> ref = forward_dense(gcn_adjacency_dense(g, o), n, X, layers);
  return relative_error(out, ref);
}

}  // namespace

TEST_CASE("gnn_layer: A_hat built on the GPU equals the host's PyG normalisation", "[apps][gnn][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  for (NormOptions o : {NormOptions{}, NormOptions{.improved = true}, NormOptions{.add_self_loops = false},
                        NormOptions{.normalize = false}}) {
    for (bool weighted : {true, false}) {
      CAPTURE(o.normalize, o.add_self_loops, o.improved, weighted);
      EdgeList g = hostile(300, 2000, 11);
      if (!weighted) g.weight.clear();
      const Csr<float> A = build_gcn_adjacency(upload_edges(g, stream), o, pad(g.nodes), stream);
      const HostCsr<float> dev = A.to_host(stream);
      const HostCsr<double> ref = gcn_adjacency_csr(g, o);
      CHECK(dev.rows == 384);
      REQUIRE(dev.nnz() == ref.nnz());
      CHECK(std::equal(ref.row_ptr.begin(), ref.row_ptr.end(), dev.row_ptr.begin()));
      CHECK(dev.row_ptr.back() == ref.row_ptr.back());  // padded rows empty
      CHECK(dev.col_idx == ref.col_idx);
      for (std::size_t k = 0; k < ref.values.size(); ++k)
        CHECK(dev.values[k] == Approx(ref.values[k]).epsilon(1e-6).margin(1e-7));
      // The same algorithm on the host in f32: the very same bits.
      const HostCsr<float> emu = gcn_adjacency_f32(g, o, pad(g.nodes));
      CHECK(dev.row_ptr == emu.row_ptr);
      CHECK(dev.col_idx == emu.col_idx);
      CHECK(dev.values == emu.values);
    }
  }
  SECTION("repeated self loops: the last one wins (loops added), or they are summed (no-normalize)") {
    EdgeList g;
    g.nodes = 3;
    g.src = {0, 1, 0, 0};
    g.dst = {0, 1, 0, 1};
    g.weight = {3, 0.5, 7, 2};
    // Default: node 0's loop is 7 (the last), deg = 7, 2.5, 1 (node 2: fill loop).
    const HostCsr<float> a = build_gcn_adjacency(upload_edges(g, stream), {}, 128, stream).to_host(stream);
    CHECK(a.values == gcn_adjacency_f32(g, {}, 128).values);
    CHECK(a.values[0] == Approx(1.0f));
    CHECK(a.values[3] == 1.0f);
    // normalize = false adds no loops (GCNConv): the input loops are summed as they are.
    const HostCsr<float> b =
        build_gcn_adjacency(upload_edges(g, stream), {.normalize = false}, 128, stream).to_host(stream);
    CHECK(b.row_ptr[1] == 1);
    CHECK(b.row_ptr[2] == 3);
    CHECK(b.values == std::vector<float>{10, 2, 0.5});  // row 0: 3 + 7; row 1: (1 <- 0) 2, (1 <- 1) 0.5
  }
}

TEST_CASE("gnn_layer: relabelling on the GPU equals the host's", "[apps][gnn][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const EdgeList g = hostile(200, 900, 5);
  const std::vector<int> new_of_old = inverse_permutation(rcm_order(g));
  DeviceEdges d = upload_edges(g, stream);
  const DeviceBuffer<int> perm = DeviceBuffer<int>::from_host(std::span<const int>(new_of_old), stream);
  relabel_edges(d, perm.data(), stream);
  const EdgeList h = relabel(g, new_of_old);
  CHECK(d.src.to_host(stream) == h.src);
  CHECK(d.dst.to_host(stream) == h.dst);
}

TEST_CASE("gnn_layer: forward pass against the f64 dense reference", "[apps][gnn][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  const EdgeList g = hostile(300, 3000, 8);
  for (int block : {0, 16, 32}) {
    CAPTURE(block);
    // 3 layers, 16 -> 32 -> 32 -> 8: the first aggregates first (in < out), the rest transform first.
    CHECK(forward_error<__half>(g, {}, {16, 32, 32, 8}, block) < output_tolerance(DType::f16));
    CHECK(forward_error<__nv_bfloat16>(g, {}, {16, 32, 32, 8}, block) < output_tolerance(DType::bf16));
    CHECK(forward_error<__half>(g, {.improved = true}, {24, 16}, block) < output_tolerance(DType::f16));
    CHECK(forward_error<__half>(g, {.add_self_loops = false}, {24, 16}, block) < output_tolerance(DType::f16));
    CHECK(forward_error<__half>(g, {.normalize = false}, {8, 8}, block) < output_tolerance(DType::f16));
  }
  // A width that is not a multiple of 8: the reference GEMM kernel takes the BSR part (plan says why).
  CHECK(forward_error<__half>(g, {}, {12, 6}, 16) < output_tolerance(DType::f16));
}

TEST_CASE("gnn_layer: Zachary's karate club", "[apps][gnn][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  const EdgeList g = karate_club();
  for (int block : {0, 16})
    for (const std::vector<int>& widths : {std::vector<int>{34, 16}, std::vector<int>{8, 16, 4}}) {
      CAPTURE(block, widths.size());
      CHECK(forward_error<__half>(g, {}, widths, block) < output_tolerance(DType::f16));
      CHECK(forward_error<__nv_bfloat16>(g, {}, widths, block) < output_tolerance(DType::bf16));
    }
}

TEST_CASE("gnn_layer: graph replay gives the eager result bit for bit", "[apps][gnn][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const EdgeList g = karate_club();
  const int n_pad = pad(g.nodes);
  const Csr<float> A = build_gcn_adjacency(upload_edges(g, stream), {}, n_pad, stream);
  const std::vector<GcnLayerWeights> layers = make_weights({16, 32, 8}, 1);
  // Two feature sets: the replays alternate between them, so a replay that skipped any layer
  // would leave that layer's output from the other input and differ from the eager result.
  DeviceBuffer<__half> X = features_on_device<__half>(make_features(g.nodes, 16, 2), g.nodes, n_pad, 16, stream);
  const DeviceBuffer<__half> X1 = features_on_device<__half>(make_features(g.nodes, 16, 2), g.nodes, n_pad, 16, stream);
  const DeviceBuffer<__half> X2 = features_on_device<__half>(make_features(g.nodes, 16, 3), g.nodes, n_pad, 16, stream);
  auto load = [&](const DeviceBuffer<__half>& from) {
    BSRFLOW_CUDA(cudaMemcpyAsync(X.data(), from.data(), X.bytes(), cudaMemcpyDeviceToDevice, stream));
  };
  bench::CublasHandle cublas(stream);
  bench::CusparseHandle cusparse;
  for (bool split : {true, false}) {
    CAPTURE(split);
    const GcnOperator<__half> op =
        split ? make_split_operator<__half>(A, split_by_blocks(as_double(A.to_host(stream)), 16, 1), 16, stream)
              : make_csr_operator<__half>(A, stream);
    GcnForward<__half> fwd(op, layers, X.data(), cublas, cusparse.get(), stream);
    std::vector<double> eager[2];
    for (int k = 0; k < 2; ++k) {
      load(k == 0 ? X1 : X2);
      fwd.enqueue(stream);
      BSRFLOW_CUDA(cudaStreamSynchronize(stream));
      eager[k] = download(fwd.output(), n_pad, 8);
    }
    REQUIRE(eager[0] != eager[1]);  // the two inputs really give different outputs
    TaskGraph tg("gcn");
    tg.capture("forward", [&](CaptureContext& ctx) { fwd.enqueue(ctx.stream()); });
    GraphExec exec = tg.instantiate(stream);
    for (int i = 0; i < 4; ++i) {
      CAPTURE(i);
      load(i % 2 == 0 ? X1 : X2);
      BSRFLOW_CUDA(cudaMemsetAsync(const_cast<__half*>(fwd.output()), 0xff, static_cast<std::size_t>(n_pad) * 8 * 2, stream));
      exec.launch(stream);
      BSRFLOW_CUDA(cudaStreamSynchronize(stream));
      CHECK(download(fwd.output(), n_pad, 8) == eager[i % 2]);
    }
  }
}

TEST_CASE("gnn_layer end to end: every row checked and correct", "[apps][gnn][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  for (std::vector<std::string> args :
       {std::vector<std::string>{"--gen", "karate", "--in", "16", "--hidden", "16", "--out", "8", "--path", "bsr"},
        std::vector<std::string>{"--nodes", "4096", "--communities", "32", "--avg-degree", "32", "--intra", "0.95",
                                 "--dtype", "bf16"},
        std::vector<std::string>{"--gen", "rmat", "--scale", "11", "--edge-factor", "8", "--reorder", "rcm"}}) {
    args.insert(args.end(), {"--iters", "2", "--warmup", "1"});
    CAPTURE(args);
    const test::Args a(args);
    const GnnRun run = run_gnn_layer(parse_gnn_options(a.argc(), a.argv()), nullptr);
    CHECK(run.adjacency_check.find("same structure") != std::string::npos);
    REQUIRE_FALSE(run.records.empty());
    for (const bench::Record& r : run.records) {
      CAPTURE(r.text("system"), r.text("mode"), r.number("rel_error"));
      CHECK(r.flag("checked"));
      CHECK(r.flag("correct"));
      CHECK(r.number("ms") > 0);
    }
  }
}
