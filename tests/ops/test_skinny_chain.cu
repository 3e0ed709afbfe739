// GPU test of skinny products launched one after another on one stream, each reading the one
// before's output (a decode step's layers), with programmatic dependent launch (PDL,
// GemmOptions::programmatic_launch): a run that starts early must wait for the run before it
// before it reads B, writes C or touches its plan's split-row counters and partial tiles. Every
// output of the chain is poisoned (NaN) beforehand and compared bit for bit with the same chain
// launched plainly, eagerly and replayed from a CUDA graph (programmatic edges).
#include <catch2/catch.hpp>

#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/random_fill.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;

namespace {

constexpr std::size_t kLayers = 6;
constexpr int kN = 16;

// A square pattern of 16 x 16 blocks: `per_row` random blocks in every block row, and with
// `long_rows` every 64th row full (far above average: the plan splits it across CTAs).
HostBsr<__half> square_pattern(int block_rows, int per_row, bool long_rows, std::uint32_t seed) {
  HostBsr<__half> h;
  h.rows = h.cols = block_rows * 16;
  h.R = h.C = 16;
  std::mt19937 rng(seed);
  std::vector<int> all(static_cast<std::size_t>(block_rows));
  std::iota(all.begin(), all.end(), 0);
  h.row_ptr.push_back(0);
  for (int r = 0; r < block_rows; ++r) {
    const int count = long_rows && r % 64 == 0 ? block_rows : per_row;
    std::shuffle(all.begin(), all.end(), rng);
    std::vector<int> cols(all.begin(), all.begin() + count);
    std::sort(cols.begin(), cols.end());
    h.col_idx.insert(h.col_idx.end(), cols.begin(), cols.end());
    h.row_ptr.push_back(static_cast<int>(h.col_idx.size()));
  }
  h.values.assign(h.col_idx.size() * 256, __float2half(0.0f));
  return h;
}

struct Chain {
  Bsr<__half> A;                             // the pattern (its values unused)
  std::vector<DeviceBuffer<__half>> weights;  // one set of A's values per layer
  std::vector<DeviceBuffer<__half>> x;        // x[0] the input, x[i + 1] = alpha * A_i x[i]

  Chain(const HostBsr<__half>& h, cudaStream_t s) : A(Bsr<__half>::from_host(h, s)) {
    const std::int64_t vals = static_cast<std::int64_t>(h.values.size()), n = std::int64_t{h.rows} * kN;
    for (std::size_t i = 0; i < kLayers; ++i) {
      weights.emplace_back(static_cast<std::size_t>(vals), s);
      fill_random_nonzero(weights.back().data(), vals, 100 + i, s);
    }
    for (std::size_t i = 0; i <= kLayers; ++i) x.emplace_back(static_cast<std::size_t>(n), s);
    fill_random_nonzero(x[0].data(), n, 7, s);
  }
  DenseView<__half> view(std::size_t i) { return {x[i].data(), A.rows(), kN, kN, Layout::row_major}; }

  void poison(cudaStream_t s) {
    for (std::size_t i = 1; i <= kLayers; ++i) BSRFLOW_CUDA(cudaMemsetAsync(x[i].data(), 0xFF, x[i].bytes(), s));
  }
  void run(const GemmPlan& plan, cudaStream_t s) {
    for (std::size_t i = 0; i < kLayers; ++i) {
      BsrView<const __half> a = std::as_const(A).view();
      a.values = weights[i].data();
      const DenseView<__half> in = view(i);
      const DenseView<const __half> b{in.data, in.rows, in.cols, in.ld, in.layout};
      plan.run<__half, __half>(a, b, view(i + 1), 0.125f, 0.0f, s);
    }
  }
  std::vector<std::vector<__half>> outputs(cudaStream_t s) const {
    std::vector<std::vector<__half>> out;
    for (std::size_t i = 1; i <= kLayers; ++i) out.push_back(x[i].to_host(s));
    return out;
  }
};

bool all_finite(const std::vector<__half>& v) {
  for (const __half h : v)
    if (!std::isfinite(__half2float(h))) return false;
  return true;
}

void check_chain(bool long_rows) {
  Stream stream;
  // 1024 block rows: more pieces than one wave of CTAs on any GPU up to 341 SMs, so the plan's
  // rule takes PDL (tuning_skinny.hpp programmatic_launch).
  Chain chain(square_pattern(1024, 4, long_rows, 11), stream);
  const DenseDesc desc = describe(chain.view(0));
  GemmOptions plain_options;
  plain_options.programmatic_launch = false;
  const GemmPlan pdl = plan_gemm(std::as_const(chain.A).view(), desc, desc, GemmOptions{}, stream);
  const GemmPlan plain = plan_gemm(std::as_const(chain.A).view(), desc, desc, plain_options, stream);
  REQUIRE(pdl.kernel() == GemmKernel::skinny);
  CHECK(pdl.programmatic_launch());
  CHECK_FALSE(plain.programmatic_launch());
  CHECK((pdl.split_rows() > 0) == long_rows);

  chain.poison(stream);
  chain.run(plain, stream);
  const std::vector<std::vector<__half>> want = chain.outputs(stream);
  for (const auto& out : want) REQUIRE(all_finite(out));

  chain.poison(stream);
  chain.run(pdl, stream);
  const std::vector<std::vector<__half>> eager = chain.outputs(stream);
  for (std::size_t i = 0; i < kLayers; ++i) CHECK(bsrflow::test::bitwise_equal(eager[i], want[i]));

  // Captured, the launches become programmatic edges of the graph.
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  BSRFLOW_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  chain.run(pdl, stream);
  BSRFLOW_CUDA(cudaStreamEndCapture(stream, &graph));
  BSRFLOW_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2; ++replay) {
    chain.poison(stream);
    BSRFLOW_CUDA(cudaGraphLaunch(exec, stream));
    const std::vector<std::vector<__half>> replayed = chain.outputs(stream);
    for (std::size_t i = 0; i < kLayers; ++i) CHECK(bsrflow::test::bitwise_equal(replayed[i], want[i]));
  }
  BSRFLOW_CUDA(cudaGraphExecDestroy(exec));
  BSRFLOW_CUDA(cudaGraphDestroy(graph));
}

}  // namespace

TEST_CASE("skinny GEMM: a chain of dependent products with programmatic dependent launch",
          "[ops][skinny][gpu][skinnysmall]") {
  BSRFLOW_REQUIRE_SM90_OR_NEWER();
  SECTION("whole rows") { check_chain(false); }
  SECTION("rows split across CTAs: the counters and partial tiles of one plan, run after run") { check_chain(true); }
}
