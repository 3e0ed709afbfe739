// GEMM test problems shared by the kernels' GPU tests (test_sm90_gemm.cu, test_skinny_gemm.cu):
// block patterns (random, hostile, power-law), integer-valued and real operands with poisoned
// padding, the device copies with a guard tail past C, and check_exact - a plan's result
// against the reference kernel, bit for bit over C's whole storage.
#pragma once

#include <catch2/catch.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"
#include "bsrflow/ops/cpu_gemm.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/reference_gemm.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

namespace bsrflow::test::gemm {


// staircase: block row i holds min(i, block columns) blocks - every row length from 0 up, across
// the producer's 32-block column-index batches.
enum class Pattern { random_half, empty_rows, single_block, full, powerlaw, one_long_row, staircase, none };

inline std::vector<std::vector<int>> block_pattern(Pattern p, int block_rows, int block_cols, std::uint32_t seed) {
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(block_rows));
  std::mt19937 rng(seed);
  switch (p) {
    case Pattern::random_half:
    case Pattern::empty_rows: {
      std::bernoulli_distribution keep(0.5);
      for (int i = 0; i < block_rows; ++i)
        for (int j = 0; j < block_cols; ++j)
          if (keep(rng)) rows[i].push_back(j);
      if (p == Pattern::empty_rows)
        for (int i = 0; i < block_rows; i += 2) rows[i].clear();
      else if (block_rows > 1)
        rows[1].clear();  // one empty row in every problem
      break;
    }
    case Pattern::single_block:
      rows[block_rows / 2].push_back(block_cols / 2);
      break;
    case Pattern::full:
      for (auto& r : rows)
        for (int j = 0; j < block_cols; ++j) r.push_back(j);
      break;
    case Pattern::powerlaw: {
      const HostCsr<float> csr =
          bsrflow::test::powerlaw_csr<float>(block_rows, block_cols, std::int64_t{block_rows} * block_cols / 6, 1.2, seed);
      for (int i = 0; i < block_rows; ++i)
        rows[i].assign(csr.col_idx.begin() + csr.row_ptr[i], csr.col_idx.begin() + csr.row_ptr[i + 1]);
      break;
    }
    case Pattern::one_long_row:
      for (int j = 0; j < block_cols; ++j) rows[block_rows - 1].push_back(j);
      rows[0].push_back(0);
      break;
    case Pattern::staircase:
      for (int i = 0; i < block_rows; ++i)
        for (int j = 0; j < std::min(i, block_cols); ++j) rows[i].push_back(j);
      break;
    case Pattern::none: break;
  }
  return rows;
}

inline std::int64_t round8(std::int64_t v) { return (v + 7) / 8 * 8; }

// Leading dimension: the minimum rounded up to 8 (the sm90 kernel's requirement), plus 8 more
// when `padded`.
inline std::int64_t ld_for(int rows, int cols, Layout layout, bool padded) {
  return round8(std::max(layout == Layout::row_major ? cols : rows, 1)) + (padded ? 8 : 0);
}

template <class T, class ValueFn>
HostDense<T> make_dense(int rows, int cols, Layout layout, bool padded, ValueFn value) {
  return nan_padded_dense<T>(rows, cols, layout, ld_for(rows, cols, layout, padded), value);
}

struct Case {
  int M = 0, N = 0, K = 0, R = 16, C = 16;
  Layout b_layout = Layout::row_major;
  Layout c_layout = Layout::row_major;
  bool padded = false;
  Pattern pattern = Pattern::random_half;
  float alpha = 2.0f;
  float beta = 0.0f;
  std::uint32_t seed = 1;
};

inline std::string describe(const Case& c) {
  std::ostringstream os;
  os << "M=" << c.M << " N=" << c.N << " K=" << c.K << " block " << c.R << "x" << c.C << ", B "
     << (c.b_layout == Layout::row_major ? "row" : "col") << "-major, C "
     << (c.c_layout == Layout::row_major ? "row" : "col") << "-major" << (c.padded ? ", padded ld" : "")
     << ", alpha " << c.alpha << " beta " << c.beta << ", pattern " << static_cast<int>(c.pattern);
  return os.str();
}

constexpr std::size_t kGuard = 64;  // poisoned elements past C's storage

template <class T>
DeviceBuffer<T> upload_with_guard(const std::vector<T>& host, cudaStream_t s) {
  std::vector<T> v = host;
  v.resize(host.size() + kGuard);
  std::memset(static_cast<void*>(v.data() + host.size()), 0xFF, kGuard * sizeof(T));
  return DeviceBuffer<T>::from_host(v, s);
}

template <class T>
DenseView<T> view_of(DeviceBuffer<T>& buf, const HostDense<T>& h) {
  return {buf.data(), h.rows, h.cols, h.ld, h.layout};
}
template <class T>
DenseView<const T> cview_of(const DeviceBuffer<T>& buf, const HostDense<T>& h) {
  return {buf.data(), h.rows, h.cols, h.ld, h.layout};
}

template <class TIn, class TOut>
struct Problem {
  HostBsr<TIn> A;
  HostDense<TIn> B;
  HostDense<TOut> C;
};

template <class TIn, class TOut>
Problem<TIn, TOut> integer_problem(const Case& c) {
  const auto pattern = block_pattern(c.pattern, ceil_div(c.M, c.R), ceil_div(c.K, c.C), c.seed);
  std::mt19937 rng(c.seed + 7);
  auto v = [&] { return bsrflow::test::int_value<TIn>(rng, 4); };
  auto w = [&] { return bsrflow::test::int_value<TOut>(rng, 4); };
  return {make_bsr<TIn>(c.M, c.K, c.R, c.C, pattern, v), make_dense<TIn>(c.K, c.N, c.b_layout, c.padded, v),
          make_dense<TOut>(c.M, c.N, c.c_layout, c.padded, w)};
}

template <class TIn, class TOut>
Problem<TIn, TOut> real_problem(const Case& c) {
  const auto pattern = block_pattern(c.pattern, ceil_div(c.M, c.R), ceil_div(c.K, c.C), c.seed);
  std::mt19937 rng(c.seed + 11);
  auto v = [&] { return bsrflow::test::real_value<TIn>(rng); };
  auto w = [&] { return bsrflow::test::real_value<TOut>(rng); };
  return {make_bsr<TIn>(c.M, c.K, c.R, c.C, pattern, v), make_dense<TIn>(c.K, c.N, c.b_layout, c.padded, v),
          make_dense<TOut>(c.M, c.N, c.c_layout, c.padded, w)};
}

// The device side of a problem plus two copies of C's storage (+ guard), for the kernel under
// test and for the reference.
template <class TIn, class TOut>
struct DeviceProblem {
  Bsr<TIn> A;
  DeviceBuffer<TIn> B;
  std::vector<TOut> c_init;  // initial storage incl. guard
  DeviceBuffer<TOut> C;

  DeviceProblem(const Problem<TIn, TOut>& p, bool poison_c, cudaStream_t s)
      : A(Bsr<TIn>::from_host(p.A, s)), B(DeviceBuffer<TIn>::from_host(p.B.data, s)) {
    c_init = p.C.data;
    if (poison_c) std::memset(static_cast<void*>(c_init.data()), 0xFF, c_init.size() * sizeof(TOut));
    C = upload_with_guard(c_init, s);
  }
  void reset_c(cudaStream_t s) {
    std::vector<TOut> v = c_init;
    v.resize(c_init.size() + kGuard);
    std::memset(static_cast<void*>(v.data() + c_init.size()), 0xFF, kGuard * sizeof(TOut));
    C.copy_from_host(v, s);
  }
};

template <class TIn, class TOut>
std::vector<TOut> run_plan(const GemmPlan& plan, DeviceProblem<TIn, TOut>& d, const Problem<TIn, TOut>& p,
                           float alpha, float beta, cudaStream_t s) {
  d.reset_c(s);
  plan.run<TIn, TOut>(std::as_const(d.A).view(), cview_of(d.B, p.B), view_of(d.C, p.C), alpha, beta, s);
  return d.C.to_host(s);
}

template <class TIn, class TOut>
std::vector<TOut> run_reference(DeviceProblem<TIn, TOut>& d, const Problem<TIn, TOut>& p, float alpha, float beta,
                                cudaStream_t s) {
  d.reset_c(s);
  reference_gemm<TIn, TOut>(std::as_const(d.A).view(), cview_of(d.B, p.B), view_of(d.C, p.C), alpha, beta, s);
  return d.C.to_host(s);
}

// Captures one plan.run into a CUDA Graph, then replays it `replays` times, C reset before each:
// C's whole storage after every replay.
template <class TIn, class TOut>
std::vector<std::vector<TOut>> replay_in_graph(const GemmPlan& plan, DeviceProblem<TIn, TOut>& d,
                                               const Problem<TIn, TOut>& p, float alpha, float beta, int replays,
                                               cudaStream_t s) {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  REQUIRE(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
  plan.run<TIn, TOut>(std::as_const(d.A).view(), cview_of(d.B, p.B), view_of(d.C, p.C), alpha, beta, s);
  REQUIRE(cudaStreamEndCapture(s, &graph) == cudaSuccess);
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  std::vector<std::vector<TOut>> out;
  for (int r = 0; r < replays; ++r) {
    d.reset_c(s);
    REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess);
    out.push_back(d.C.to_host(s));
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  return out;
}

// Plans `c` with `options`, checks the plan chose kernel `expect`, runs it and the reference on
// identical inputs and compares C's whole storage bit for bit.
template <class TIn, class TOut>
void check_exact(const Case& c, const GemmOptions& options, GemmKernel expect = GemmKernel::sm90) {
  CAPTURE(describe(c));
  Stream stream;
  const Problem<TIn, TOut> p = integer_problem<TIn, TOut>(c);
  DeviceProblem<TIn, TOut> d(p, c.beta == 0.0f, stream);
  const GemmPlan plan =
      plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)), options, stream);
  CAPTURE(plan.name(), plan.fallback_reason());
  REQUIRE(plan.kernel() == expect);
  const std::vector<TOut> got = run_plan(plan, d, p, c.alpha, c.beta, stream);
  const std::vector<TOut> want = run_reference(d, p, c.alpha, c.beta, stream);
  CHECK(bsrflow::test::bitwise_equal(got, want));
}

// Calls fn(TIn{}, TOut{}, bound) for the fast kernels' input / output dtypes, with the bound on
// their relative error against fp64 used by check_repeatable_against_fp64: f32 output carries
// the f32 sum's rounding only, 16-bit output adds its own.
template <class Fn>
void for_each_dtype_pair(Fn&& fn) {
  fn(__half{}, float{}, 1e-5);
  fn(__half{}, __half{}, 1e-3);
  fn(__nv_bfloat16{}, float{}, 1e-5);
  fn(__nv_bfloat16{}, __nv_bfloat16{}, 8e-3);
}

// Runs `plan` twice on the real-valued problem `p`: the two results must be bitwise equal and
// within `bound` (relative Frobenius norm) of the fp64 product of the rounded inputs.
template <class TIn, class TOut>
void check_repeatable_against_fp64(const GemmPlan& plan, DeviceProblem<TIn, TOut>& d, const Problem<TIn, TOut>& p,
                                   float alpha, float beta, double bound, cudaStream_t s) {
  const std::vector<TOut> first = run_plan(plan, d, p, alpha, beta, s);
  const std::vector<TOut> second = run_plan(plan, d, p, alpha, beta, s);
  CHECK(bsrflow::test::bitwise_equal(first, second));
  HostDense<TOut> out = p.C;
  std::copy(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(out.data.size()), out.data.begin());
  const HostDense<double> ref = host::gemm_f64(p.A, p.B, p.C, alpha, beta);
  const double err = host::relative_error(out, ref);
  CAPTURE(plan.name(), err);
  CHECK(err <= bound);
}

// For each of the fast kernels' dtype pairs (for_each_dtype_pair): plans `c` on real-valued data
// with `options`, hands the plan to `inspect` (checks on what the planner chose), then
// check_repeatable_against_fp64 with alpha = 1.5 and c.beta.
template <class Inspect>
void check_dtypes_against_fp64(const Case& c, const GemmOptions& options, Inspect&& inspect) {
  CAPTURE(describe(c));
  Stream stream;
  for_each_dtype_pair([&](auto tag_in, auto tag_out, double bound) {
    using TIn = decltype(tag_in);
    using TOut = decltype(tag_out);
    const Problem<TIn, TOut> p = real_problem<TIn, TOut>(c);
    DeviceProblem<TIn, TOut> d(p, false, stream);
    const GemmPlan plan =
        plan_gemm(std::as_const(d.A).view(), describe(cview_of(d.B, p.B)), describe(view_of(d.C, p.C)), options, stream);
    inspect(plan);
    check_repeatable_against_fp64(plan, d, p, 1.5f, c.beta, bound, stream);
  });
}

}  // namespace bsrflow::test::gemm
