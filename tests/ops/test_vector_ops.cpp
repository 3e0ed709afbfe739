// axpy / xpby / axpby / dot / nrm2 (vector_ops.hpp).
//
// Integer-valued inputs make every result exact in f32 and f64 whatever the summation order,
// so GPU results compare bit for bit with a host computation, over the whole storage including
// poisoned guards on both sides (a stray write or an unwritten element fails). Sizes cover 0,
// sizes below, at and just past one 16-byte unit, one more than a multiple of the unroll, and
// multi-trip grid-stride sizes; pointers are 16-byte aligned or shifted by one element (the
// element-wise path). Real-valued dots are held to a bound against an fp64 reference and must
// be bitwise reproducible, including between aligned and misaligned copies of the same data.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/ops/vector_ops.hpp"
#include "support/device_vectors.hpp"
#include "support/expect_error.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;
using test::GuardedVector;

namespace {

// A device scalar holding `v` (kept alive by the returned buffer).
template <class T>
DeviceBuffer<T> device_scalar(T v, cudaStream_t stream) {
  return DeviceBuffer<T>::from_host(std::vector<T>{v}, stream);
}

template <class T>
T read_scalar(const DeviceBuffer<T>& d, cudaStream_t stream) {
  return d.to_host(stream).front();
}

enum class Op { axpy, xpby, axpby };

// y after the op, computed in double (exact for the integer data used here) and rounded to T.
template <class T>
std::vector<T> expected_axpby(Op op, const std::vector<T>& x, const std::vector<T>& y, double a, double b) {
  std::vector<T> out(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double xi = x[i], yi = y[i];
    switch (op) {
      case Op::axpy: out[i] = static_cast<T>(a * xi + yi); break;
      case Op::xpby: out[i] = static_cast<T>(xi + b * yi); break;
      case Op::axpby: out[i] = static_cast<T>(b == 0 ? a * xi : a * xi + b * yi); break;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("vector ops reject bad arguments before touching the GPU", "[ops]") {
  double v = 0;
  double* p = &v;  // never dereferenced: every call below fails its checks first
  BSRFLOW_CHECK_ERROR(axpy_launch<double>(-1, scalar(1.0), p, p), Errc::invalid_argument, "axpy: n (-1) is negative");
  BSRFLOW_CHECK_ERROR(axpy_launch<double>(5, scalar(1.0), nullptr, p), Errc::invalid_argument,
                      "axpy: x is null but n = 5");
  BSRFLOW_CHECK_ERROR(axpy_launch<double>(5, scalar(1.0), p, nullptr), Errc::invalid_argument,
                      "axpy: y is null but n = 5");
  BSRFLOW_CHECK_ERROR(xpby_launch<float>(-7, nullptr, scalar(1.0f), nullptr), Errc::invalid_argument,
                      "xpby: n (-7) is negative");
  BSRFLOW_CHECK_ERROR(xpby_launch<float>(3, nullptr, scalar(1.0f), nullptr), Errc::invalid_argument,
                      "xpby: x is null but n = 3");
  BSRFLOW_CHECK_ERROR(axpby_launch<double>(2, scalar(1.0), p, scalar(0.0), nullptr), Errc::invalid_argument,
                      "axpby: y is null but n = 2");
  BSRFLOW_CHECK_ERROR(dot_launch<double>(-2, p, p, p, ReduceWorkspace<double>{}), Errc::invalid_argument,
                      "dot: n (-2) is negative");
  BSRFLOW_CHECK_ERROR(dot_launch<double>(4, p, nullptr, p, ReduceWorkspace<double>{}), Errc::invalid_argument,
                      "dot: y is null but n = 4");
  BSRFLOW_CHECK_ERROR(dot_launch<double>(0, nullptr, nullptr, nullptr, ReduceWorkspace<double>{}),
                      Errc::invalid_argument, "dot: result is null");
  BSRFLOW_CHECK_ERROR(dot_launch<double>(4, p, p, p, ReduceWorkspace<double>{}), Errc::invalid_argument,
                      "dot: the reduce workspace is not set up (null partials or ticket)");
  BSRFLOW_CHECK_ERROR(nrm2_launch<float>(4, nullptr, nullptr, ReduceWorkspace<float>{}), Errc::invalid_argument,
                      "nrm2: x is null but n = 4");
  BSRFLOW_CHECK_ERROR(reduce_grid_blocks(-1), Errc::invalid_argument, "reduce_grid_blocks: n (-1) is negative");
}

TEMPLATE_TEST_CASE("axpy, xpby and axpby are exact at every size and alignment", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const std::size_t n = GENERATE(0, 1, 3, 4, 5, 7, 8, 9, 1000, 4099, (1 << 20) + 3);
  const int misalign_x = GENERATE(0, 1);
  const int misalign_y = GENERATE(0, 1);
  const bool device_scalars = GENERATE(false, true);
  const Op op = GENERATE(Op::axpy, Op::xpby, Op::axpby);
  CAPTURE(n, misalign_x, misalign_y, device_scalars, static_cast<int>(op));

  const std::vector<T> x = test::int_values<T>(n, 1), y = test::int_values<T>(n, 2);
  GuardedVector<T> dx(x, misalign_x, stream), dy(y, misalign_y, stream);
  // misalign 0 must really exercise the 16-byte path (DeviceBuffer memory is 256-byte aligned).
  CHECK((reinterpret_cast<std::uintptr_t>(dx.data()) % 16 == 0) == (misalign_x == 0));
  const T a = 3, b = -2;
  const DeviceBuffer<T> da = device_scalar(a, stream), db = device_scalar(b, stream);
  const ScalarArg<T> sa = device_scalars ? scalar_at(da.data()) : scalar(a);
  const ScalarArg<T> sb = device_scalars ? scalar_at(db.data()) : scalar(b);
  switch (op) {
    case Op::axpy: axpy<T>(static_cast<std::int64_t>(n), sa, dx.data(), dy.data(), stream); break;
    case Op::xpby: xpby<T>(static_cast<std::int64_t>(n), dx.data(), sb, dy.data(), stream); break;
    case Op::axpby: axpby<T>(static_cast<std::int64_t>(n), sa, dx.data(), sb, dy.data(), stream); break;
  }
  CHECK(test::bitwise_equal(dy.storage(stream), dy.expected_storage(expected_axpby(op, x, y, a, b))));
  CHECK(test::bitwise_equal(dx.storage(stream), dx.expected_storage(x)));  // x untouched
}

TEMPLATE_TEST_CASE("axpby over many grid-stride trips", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const std::size_t n = 9'000'001;  // > 4 units x 256 threads x 4 blocks x 132 SMs per trip, several trips
  const int misalign = GENERATE(0, 1);
  const std::vector<T> x = test::int_values<T>(n, 3), y = test::int_values<T>(n, 4);
  GuardedVector<T> dx(x, misalign, stream), dy(y, 0, stream);
  axpby<T>(static_cast<std::int64_t>(n), scalar(T(-1)), dx.data(), scalar(T(2)), dy.data(), stream);
  CHECK(test::bitwise_equal(dy.storage(stream), dy.expected_storage(expected_axpby(Op::axpby, x, y, -1, 2))));
}

TEMPLATE_TEST_CASE("axpby does not read y when b is 0", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const std::size_t n = GENERATE(1, 5, 1029);
  const bool device_zero = GENERATE(false, true);
  const std::vector<T> x = test::int_values<T>(n, 5);
  GuardedVector<T> dx(x, 0, stream), dy(test::poisoned<T>(n), 0, stream);  // y is NaN
  const DeviceBuffer<T> zero = device_scalar(T(0), stream);
  axpby<T>(static_cast<std::int64_t>(n), scalar(T(2)), dx.data(), device_zero ? scalar_at(zero.data()) : scalar(T(0)),
           dy.data(), stream);
  CHECK(test::bitwise_equal(dy.storage(stream), dy.expected_storage(expected_axpby(Op::axpby, x, x, 2, 0))));
}

TEMPLATE_TEST_CASE("dot and nrm2 are exact on integer data and independent of alignment", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const std::size_t n = GENERATE(0, 1, 3, 5, 8, 1000, 4099, (1 << 20) + 3, 3'000'001);
  const int misalign_x = GENERATE(0, 1);
  const int misalign_y = GENERATE(0, 1);
  CAPTURE(n, misalign_x, misalign_y);
  // Range 2: |sum| <= 4 * 3M < 2^24, so every partial sum is an exact f32 integer.
  const std::vector<T> x = test::int_values<T>(n, 6, 2), y = test::int_values<T>(n, 7, 2);
  double dot_ref = 0, sq_ref = 0;
  for (std::size_t i = 0; i < n; ++i) {
    dot_ref += static_cast<double>(x[i]) * y[i];
    sq_ref += static_cast<double>(x[i]) * x[i];
  }
  GuardedVector<T> dx(x, misalign_x, stream), dy(y, misalign_y, stream);
  ReduceScratch<T> scratch(reduce_grid_blocks(static_cast<std::int64_t>(n)), 1, stream);
  DeviceBuffer<T> result(1, stream);

  result.fill_bytes(0xFF, stream);
  dot<T>(static_cast<std::int64_t>(n), dx.data(), dy.data(), result.data(), scratch.view(), stream);
  CHECK(read_scalar(result, stream) == static_cast<T>(dot_ref));

  result.fill_bytes(0xFF, stream);
  nrm2<T>(static_cast<std::int64_t>(n), dx.data(), result.data(), scratch.view(), stream);
  CHECK(read_scalar(result, stream) == static_cast<T>(std::sqrt(sq_ref)));
  CHECK(test::bitwise_equal(dx.storage(stream), dx.expected_storage(x)));  // inputs untouched
  CHECK(test::bitwise_equal(dy.storage(stream), dy.expected_storage(y)));
}

TEMPLATE_TEST_CASE("dot and nrm2 with a workspace smaller than the preferred grid", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const std::size_t n = 100'003;
  const int max_blocks = GENERATE(1, 3);  // the grid is capped at the workspace
  const std::vector<T> x = test::int_values<T>(n, 8, 2), y = test::int_values<T>(n, 9, 2);
  double dot_ref = 0;
  for (std::size_t i = 0; i < n; ++i) dot_ref += static_cast<double>(x[i]) * y[i];
  GuardedVector<T> dx(x, 0, stream), dy(y, 0, stream);
  ReduceScratch<T> scratch(max_blocks, 1, stream);
  DeviceBuffer<T> result(1, stream);
  result.fill_bytes(0xFF, stream);
  const KernelLaunch k = dot_launch<T>(static_cast<std::int64_t>(n), dx.data(), dy.data(), result.data(), scratch.view());
  CHECK(k.grid().x == static_cast<unsigned>(max_blocks));
  k.launch(stream);
  CHECK(read_scalar(result, stream) == static_cast<T>(dot_ref));
}

TEMPLATE_TEST_CASE("dot on real data: within bounds, bitwise reproducible, alignment-independent", "[ops][gpu]", float,
                   double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const std::size_t n = GENERATE(777, 3'000'001);
  const std::vector<T> x = test::real_values<T>(n, 10), y = test::real_values<T>(n, 11);
  double ref = 0, abs_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ref += static_cast<double>(x[i]) * y[i];
    abs_sum += std::fabs(static_cast<double>(x[i]) * y[i]);
  }
  GuardedVector<T> ax(x, 0, stream), ay(y, 0, stream), mx(x, 1, stream), my(y, 1, stream);
  ReduceScratch<T> scratch(reduce_grid_blocks(static_cast<std::int64_t>(n)), 1, stream);
  DeviceBuffer<T> result(1, stream);
  auto run = [&](GuardedVector<T>& u, GuardedVector<T>& v) {
    result.fill_bytes(0xFF, stream);
    dot<T>(static_cast<std::int64_t>(n), u.data(), v.data(), result.data(), scratch.view(), stream);
    return read_scalar(result, stream);
  };
  const T first = run(ax, ay);
  const T second = run(ax, ay);
  const T misaligned = run(mx, my);
  CHECK(test::bitwise_equal(std::vector<T>{first}, std::vector<T>{second}));
  CHECK(test::bitwise_equal(std::vector<T>{first}, std::vector<T>{misaligned}));
  // Per-thread serial sums of ~n / (4 * SMs * 256) terms, then two trees: far inside 64 eps.
  const double eps = std::is_same_v<T, float> ? 6e-8 : 1.2e-16;
  CHECK(std::fabs(static_cast<double>(first) - ref) <= 64 * eps * abs_sum);
}

TEMPLATE_TEST_CASE("dot and nrm2 of nothing are 0", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  ReduceScratch<T> scratch(1, 1, stream);
  DeviceBuffer<T> result(1, stream);
  result.fill_bytes(0xFF, stream);
  const KernelLaunch k = dot_launch<T>(0, nullptr, nullptr, result.data(), scratch.view());
  CHECK(k.grid().x == 1);
  k.launch(stream);
  CHECK(read_scalar(result, stream) == T(0));
  result.fill_bytes(0xFF, stream);
  nrm2<T>(0, nullptr, result.data(), scratch.view(), stream);
  CHECK(read_scalar(result, stream) == T(0));
  // And the elementwise ops launch one block that touches nothing.
  CHECK(axpy_launch<T>(0, scalar(T(1)), nullptr, nullptr).grid().x == 1);
  axpy<T>(0, scalar(T(1)), nullptr, nullptr, stream);
  stream.synchronize();
}

TEMPLATE_TEST_CASE("a KernelLaunch with device scalars reads them at every launch", "[ops][gpu]", float, double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const std::size_t n = 1001;
  const std::vector<T> x = test::int_values<T>(n, 12), y = test::int_values<T>(n, 13);
  GuardedVector<T> dx(x, 0, stream), dy(y, 0, stream);
  DeviceBuffer<T> alpha = device_scalar(T(2), stream);
  const KernelLaunch k = axpy_launch<T>(static_cast<std::int64_t>(n), scalar_at(alpha.data()), dx.data(), dy.data());
  k.launch(stream);
  alpha.copy_from_host(std::vector<T>{T(-5)}, stream);  // stream-ordered: the second launch sees -5
  k.launch(stream);
  std::vector<T> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<T>(static_cast<double>(y[i]) + 2.0 * x[i] - 5.0 * x[i]);
  CHECK(test::bitwise_equal(dy.storage(stream), dy.expected_storage(want)));
}

TEMPLATE_TEST_CASE("vector ops are capturable into a CUDA graph and replay with new device scalars", "[ops][gpu]", float,
                   double) {
  BSRFLOW_REQUIRE_GPU();
  using T = TestType;
  Stream stream;
  const std::size_t n = 5000;
  const std::vector<T> x = test::int_values<T>(n, 14, 2), y = test::int_values<T>(n, 15, 2);
  GuardedVector<T> dx(x, 0, stream), dy(y, 0, stream);
  DeviceBuffer<T> alpha = device_scalar(T(1), stream);
  ReduceScratch<T> scratch(reduce_grid_blocks(static_cast<std::int64_t>(n)), 1, stream);
  DeviceBuffer<T> result(1, stream);
  stream.synchronize();

  // Made before capture (the only host work), launched inside it.
  const KernelLaunch update = axpy_launch<T>(static_cast<std::int64_t>(n), scalar_at(alpha.data()), dx.data(), dy.data());
  const KernelLaunch norm = dot_launch<T>(static_cast<std::int64_t>(n), dy.data(), dy.data(), result.data(), scratch.view());
  cudaGraph_t graph = nullptr;
  BSRFLOW_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  update.launch(stream);
  norm.launch(stream);
  BSRFLOW_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  BSRFLOW_CUDA(cudaGraphInstantiate(&exec, graph, 0));

  std::vector<double> current(y.begin(), y.end());
  for (int replay = 0; replay < 3; ++replay) {
    const T a = static_cast<T>(replay - 1);  // -1, 0, 1
    alpha.copy_from_host(std::vector<T>{a}, stream);
    BSRFLOW_CUDA(cudaGraphLaunch(exec, stream));
    double sq = 0;
    for (std::size_t i = 0; i < n; ++i) {
      current[i] += static_cast<double>(a) * x[i];
      sq += current[i] * current[i];
    }
    CHECK(read_scalar(result, stream) == static_cast<T>(sq));
  }
  std::vector<T> want(current.begin(), current.end());
  CHECK(test::bitwise_equal(dy.storage(stream), dy.expected_storage(want)));
  BSRFLOW_CUDA(cudaGraphExecDestroy(exec));
  BSRFLOW_CUDA(cudaGraphDestroy(graph));
}
