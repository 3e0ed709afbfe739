// Instantiated task graphs on the GPU: replay, in-place updates, captured library calls (cuBLAS;
// skinny GEMMs launched with programmatic dependent launch, whose captured edges are programmatic),
// device loops in both modes, the errors of illegal captures and freed buffers, a soak and two
// threads.
#include <catch2/catch.hpp>

#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/random_fill.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/graph/graph_exec.hpp"
#include "bsrflow/graph/task_graph.hpp"
#include "bsrflow/ops/cublas_check.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "support/expect_error.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;

namespace {

__global__ void fill_index(int n, float scale, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale * static_cast<float>(i);
}
__global__ void axpby(int n, float a, const float* x, float b, const float* y, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + b * y[i];
}
__global__ void scale_by_device(int n, const float* alpha, const float* x, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = *alpha * x[i];
}
__global__ void add_one(unsigned* counter) { atomicAdd(counter, 1u); }

// One loop iteration: counts, then asks for another while the count is below `target`.
__global__ void count_step(unsigned* counter, unsigned step, unsigned target, LoopControl loop) {
  if (loop.stopped()) return;  // host-checked chunks run past the stop
  *counter += step;
  loop.end_iteration(*counter < target);
}
__global__ void start_loop(LoopControl loop, int run) { loop.start(run != 0); }

// Deterministic block sum of x[i] * y[i] (fixed tree order), appended to results[(*slot)++].
__global__ void dot_to_slot(int n, const float* x, const float* y, unsigned* slot, float* results) {
  __shared__ float partial[256];
  float sum = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) sum += x[i] * y[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int width = blockDim.x / 2; width > 0; width /= 2) {
    if (threadIdx.x < width) partial[threadIdx.x] += partial[threadIdx.x + width];
    __syncthreads();
  }
  if (threadIdx.x == 0) results[(*slot)++] = partial[0];
}

KernelLaunch fill_launch(int n, float scale, float* out) {
  return KernelLaunch(fill_index, dim3((n + 127) / 128), dim3(128), 0, n, scale, out);
}

template <class Fn>
void check_throws_containing(Fn&& fn, Errc code, const std::string& text) {
  try {
    fn();
    FAIL_CHECK("no bsrflow::Error");
  } catch (const Error& e) {
    CHECK(e.code() == code);
    CHECK_THAT(e.message(), Catch::Contains(text));
  }
}

}  // namespace

TEST_CASE("A diamond of kernel, memset and copy tasks replays correctly", "[graph][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const int n = 1000;
  DeviceBuffer<float> x(n, stream), y(n, stream), z(n, stream), w(n, stream), copy(n, stream);
  for (auto* b : {&x, &y, &z, &w, &copy}) b->fill_bytes(0xFF, stream);

  TaskGraph g("diamond");
  Task a = g.kernel("x = i", fill_launch(n, 1.f, x.data()));
  Task b = g.kernel("y = 2x", KernelLaunch(axpby, dim3(8), dim3(128), 0, n, 2.f, x.data(), 0.f, x.data(), y.data()));
  Task c = g.kernel("z = x + x", KernelLaunch(axpby, dim3(8), dim3(128), 0, n, 1.f, x.data(), 1.f, x.data(), z.data()));
  Task d = g.kernel("w = y + z", KernelLaunch(axpby, dim3(8), dim3(128), 0, n, 1.f, y.data(), 1.f, z.data(), w.data()));
  Task e = g.memset("poison copy", copy.data(), 0xFF, copy.bytes());
  Task f = g.copy("copy = w", copy.data(), w.data(), w.bytes());
  a.precede(b, c);
  d.succeed(b, c);
  f.succeed(d, e);
  for (Task t : {a, b, c, d}) t.uses(x, "x");
  GraphExec exec = g.instantiate(stream);
  for (int replay = 0; replay < 3; ++replay) exec.launch(stream);
  const std::vector<float> host = copy.to_host(stream);
  for (int i = 0; i < n; ++i) REQUIRE(host[i] == 4.f * static_cast<float>(i));
  CHECK(exec.stats().launches == 3);
  CHECK(exec.stats().instantiations == 1);
}

TEST_CASE("Kernel, memset and copy tasks update in place without re-instantiation", "[graph][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const int n = 300;
  DeviceBuffer<float> ping(n, stream), pong(n, stream), out(n, stream), alpha(1, stream);
  const float two = 2.f;
  alpha.copy_from_host({&two, 1}, stream);

  TaskGraph g("updates");
  Task fill = g.kernel("fill", fill_launch(n, 1.f, ping.data()));
  Task scale = g.kernel("scale", KernelLaunch(scale_by_device, dim3(3), dim3(128), 0, n, alpha.data(), ping.data(), out.data()));
  Task zero = g.memset("zero pong", pong.data(), 0, pong.bytes());
  fill.precede(scale);
  GraphExec exec = g.instantiate(stream);
  const cudaGraphExec_t native = exec.native();
  exec.launch(stream);
  std::vector<float> host = out.to_host(stream);
  for (int i = 0; i < n; ++i) REQUIRE(host[i] == 2.f * i);

  // Ping-pong: the fill writes pong and the scale reads it; the memset now targets ping.
  exec.update(fill, fill_launch(n, 3.f, pong.data()));
  exec.update(scale, KernelLaunch(scale_by_device, dim3(3), dim3(128), 0, n, alpha.data(), pong.data(), out.data()));
  exec.update_memset(zero, ping.data(), 0);
  // A scalar in device memory: new value between replays, no graph change at all.
  const float five = 5.f;
  alpha.copy_from_host({&five, 1}, stream);
  out.fill_bytes(0xFF, stream);
  exec.launch(stream);
  host = out.to_host(stream);
  for (int i = 0; i < n; ++i) REQUIRE(host[i] == 15.f * i);
  const std::vector<float> ping_host = ping.to_host(stream);
  for (int i = 0; i < n; ++i) REQUIRE(ping_host[i] == 0.f);

  const GraphExec::Stats s = exec.stats();
  CHECK(s.instantiations == 1);
  CHECK(s.node_updates + s.whole_graph_updates == 3);
  CHECK(exec.native() == native);  // the same executable graph, updated

  BSRFLOW_CHECK_ERROR(exec.update(zero, fill_launch(n, 1.f, ping.data())), Errc::invalid_argument,
                      "update: task 'zero pong' is a memset task, not a kernel task");
  BSRFLOW_CHECK_ERROR(exec.update(scale, fill_launch(n, 1.f, ping.data())), Errc::invalid_argument,
                      "update: task 'scale' was built with another kernel function; a different kernel needs a new graph");
  BSRFLOW_CHECK_ERROR(exec.update(fill, fill_launch(n, 3.f, pong.data()).cooperative()), Errc::invalid_argument,
                      "update: task 'fill' was built as a non-cooperative launch; the update must be one too");
  TaskGraph other("other");
  Task stranger = other.kernel("stranger", fill_launch(n, 1.f, ping.data()));
  BSRFLOW_CHECK_ERROR(exec.update(stranger, fill_launch(n, 1.f, ping.data())), Errc::invalid_argument,
                      "update: task 'stranger' is not part of this instantiated graph");
}

TEST_CASE("A captured cuBLAS call with graph-owned workspace replays and re-captures", "[graph][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const int n = 4096;
  DeviceBuffer<double> x(n, stream), y1(n, stream), y2(n, stream), alpha(1, stream);
  std::vector<double> ones(n, 1.0), idx(n);
  for (int i = 0; i < n; ++i) idx[i] = i;
  x.copy_from_host(idx, stream);
  y1.copy_from_host(ones, stream);
  y2.copy_from_host(ones, stream);
  const double three = 3.0;
  alpha.copy_from_host({&three, 1}, stream);
  cublasHandle_t handle = nullptr;
  BSRFLOW_CUBLAS(cublasCreate(&handle));
  BSRFLOW_CUBLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));

  double* target = y1.data();  // the closure reads this at every (re)capture
  TaskGraph g("cublas");
  Task axpy = g.capture("daxpy", [&](CaptureContext& ctx) {
    BSRFLOW_CUBLAS(cublasSetStream(handle, ctx.stream()));
    BSRFLOW_CUBLAS(cublasSetWorkspace(handle, ctx.workspace(1 << 20), 1 << 20));
    BSRFLOW_CUBLAS(cublasDaxpy(handle, n, alpha.data(), x.data(), 1, target, 1));
  });
  axpy.uses(x, "x").uses(alpha, "alpha");
  GraphExec exec = g.instantiate(stream);
  exec.launch(stream);
  exec.launch(stream);
  std::vector<double> h1 = y1.to_host(stream);
  for (int i = 0; i < n; ++i) REQUIRE(h1[i] == 1.0 + 6.0 * i);

  target = y2.data();
  exec.recapture(axpy);
  exec.launch(stream);
  const std::vector<double> h2 = y2.to_host(stream);
  h1 = y1.to_host(stream);
  for (int i = 0; i < n; ++i) {
    REQUIRE(h2[i] == 1.0 + 3.0 * i);
    REQUIRE(h1[i] == 1.0 + 6.0 * i);  // untouched after the recapture
  }
  CHECK(exec.stats().recaptures == 1);
  CHECK(exec.stats().instantiations == 1);
  BSRFLOW_CUBLAS(cublasDestroy(handle));
}

namespace {

// Two dependent skinny products, x1 = A x0 and x2 = A x1, on 1024 block rows of four 16 x 16
// blocks (columns r .. r + 3): more pieces than one wave of CTAs, so a plan with
// GemmOptions::programmatic_launch launches with PDL and a capture links the two programmatically.
struct SkinnyChain {
  static constexpr int kBlockRows = 1024, kN = 16;
  Stream stream;
  HostBsr<__half> h = pattern();
  Bsr<__half> A = Bsr<__half>::from_host(h, stream);
  std::size_t len = static_cast<std::size_t>(h.rows) * kN;
  DeviceBuffer<__half> x0{len, stream}, x1{len, stream}, x2{len, stream};
  GemmPlan plan;
  std::vector<__half> want;

  explicit SkinnyChain(bool pdl) {
    fill_random_nonzero(A.values().data(), static_cast<std::int64_t>(h.values.size()), 3, stream);
    fill_random_nonzero(x0.data(), static_cast<std::int64_t>(len), 4, stream);
    GemmOptions options;
    options.programmatic_launch = pdl;
    plan = plan_gemm(a(), describe(view(x0)), describe(view(x1)), options, stream);
    products(stream);
    want = x2.to_host(stream);
  }
  static HostBsr<__half> pattern() {
    HostBsr<__half> p;
    p.rows = p.cols = kBlockRows * 16;
    p.R = p.C = 16;
    for (int r = 0; r < kBlockRows; ++r) {
      p.row_ptr.push_back(static_cast<int>(p.col_idx.size()));
      for (int j = 0; j < 4; ++j) p.col_idx.push_back((r + j) % kBlockRows);
      std::sort(p.col_idx.end() - 4, p.col_idx.end());
    }
    p.row_ptr.push_back(static_cast<int>(p.col_idx.size()));
    p.values.assign(p.col_idx.size() * 256, __float2half(0.0f));
    return p;
  }
  BsrView<const __half> a() const { return std::as_const(A).view(); }
  DenseView<__half> view(DeviceBuffer<__half>& x) const { return {x.data(), h.rows, kN, kN, Layout::row_major}; }
  DenseView<const __half> cview(DeviceBuffer<__half>& x) const { return {x.data(), h.rows, kN, kN, Layout::row_major}; }
  void products(cudaStream_t s) {
    plan.run<__half, __half>(a(), cview(x0), view(x1), 0.25f, 0.0f, s);
    plan.run<__half, __half>(a(), cview(x1), view(x2), 0.25f, 0.0f, s);
  }
  void poison() {
    x1.fill_bytes(0xFF, stream);
    x2.fill_bytes(0xFF, stream);
  }
  // The products as the body of a device loop of three iterations (idempotent), launched once.
  void check_in_loop(LoopMode mode) {
    DeviceBuffer<unsigned> counter(1, stream);
    LoopState state(stream);
    TaskGraph g("pdl chain loop");
    Task reset = g.memset("reset", counter.data(), 0, sizeof(unsigned));
    Loop loop = g.loop("products", state, {10, mode, 2});
    Task go = g.kernel("start", KernelLaunch(start_loop, dim3(1), dim3(1), 0, loop.control(), 1));
    Task body = loop.body().capture("two products", [&](CaptureContext& ctx) { products(ctx.stream()); });
    Task step = loop.body().kernel(
        "step", KernelLaunch(count_step, dim3(1), dim3(1), 0, counter.data(), 1u, 3u, loop.control()));
    body.precede(step);
    reset.precede(go);
    go.precede(loop.task());
    GraphExec exec = g.instantiate(stream);
    poison();
    exec.launch(stream);
    CHECK(state.iterations(stream) == 3);
    CHECK(bsrflow::test::bitwise_equal(x2.to_host(stream), want));
  }
};

}  // namespace

TEST_CASE("Two dependent skinny products with programmatic dependent launch replay in a task and a host-checked loop",
          "[graph][gpu]") {
  BSRFLOW_REQUIRE_SM90_OR_NEWER();
  SkinnyChain chain(true);
  REQUIRE(chain.plan.programmatic_launch());
  TaskGraph g("pdl chain");
  g.capture("two products", [&](CaptureContext& ctx) { chain.products(ctx.stream()); });
  GraphExec exec = g.instantiate(chain.stream);
  for (int replay = 0; replay < 2; ++replay) {
    chain.poison();
    exec.launch(chain.stream);
    CHECK(bsrflow::test::bitwise_equal(chain.x2.to_host(chain.stream), chain.want));
  }
  chain.check_in_loop(LoopMode::host_checked);
}

// [conditional-loop]: real kernels in a conditional WHILE body, which synccheck and racecheck
// cannot follow (tests/gpu_machine.sh leaves these tests to memcheck).
TEST_CASE("Skinny products with and without programmatic dependent launch in a conditional-node loop",
          "[graph][gpu][conditional-loop]") {
  BSRFLOW_REQUIRE_SM90_OR_NEWER();
  const bool pdl = GENERATE(false, true);
  CAPTURE(pdl);
  SkinnyChain chain(pdl);
  CHECK(chain.plan.programmatic_launch() == pdl);
  chain.check_in_loop(LoopMode::conditional_node);
}

TEST_CASE("Captured tasks that allocate or synchronise are refused with the task named", "[graph][gpu][provokes-api-errors]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  DeviceBuffer<float> buffer(64, stream);
  LoopState state(stream);
  {
    TaskGraph g("g");
    g.capture("mallocs", [](CaptureContext&) {
      void* p = nullptr;
      BSRFLOW_CUDA(cudaMalloc(&p, 16));
    });
    check_throws_containing([&] { (void)g.instantiate(stream); }, Errc::capture,
                            "graph 'g': task 'mallocs' failed while captured: cudaMalloc(&p, 16) failed");
  }
  {
    TaskGraph g("g");
    g.capture("syncs", [](CaptureContext& ctx) { (void)cudaStreamSynchronize(ctx.stream()); });
    check_throws_containing([&] { (void)g.instantiate(stream); }, Errc::capture,
                            "graph 'g': task 'syncs' broke its stream capture");
  }
  {
    TaskGraph g("g");
    g.capture("async alloc", [](CaptureContext& ctx) {
      void* p = nullptr;
      BSRFLOW_CUDA(cudaMallocAsync(&p, 256, ctx.stream()));
      BSRFLOW_CUDA(cudaFreeAsync(p, ctx.stream()));
    });
    BSRFLOW_CHECK_ERROR((void)g.instantiate(stream), Errc::capture,
                        "graph 'g': task 'async alloc' allocates or frees device memory while captured (cudaMallocAsync "
                        "/ cudaFreeAsync); allocate before instantiating, or take memory from CaptureContext::workspace");
  }
  {
    TaskGraph g("g");
    Loop loop = g.loop("spin", state, {4});
    loop.body().capture("host call", [](CaptureContext& ctx) {
      BSRFLOW_CUDA(cudaLaunchHostFunc(ctx.stream(), [](void*) {}, nullptr));
    });
    BSRFLOW_CHECK_ERROR((void)g.instantiate(stream), Errc::capture,
                        "loop body 'spin' of graph 'g': task 'host call' produced a host function node; a loop body "
                        "may hold only kernel, memset, memcpy, child-graph and conditional nodes");
  }
  // After the failures the stream and the context still work.
  buffer.fill_bytes(0, stream);
  stream.synchronize();
}

TEST_CASE("Launching after a used buffer was freed is refused", "[graph][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  auto x = std::make_unique<DeviceBuffer<float>>(128, stream);
  TaskGraph g("g");
  g.kernel("fill", fill_launch(128, 1.f, x->data())).uses(*x, "buffer 'x'");
  GraphExec exec = g.instantiate(stream);
  exec.launch(stream);
  x.reset();
  BSRFLOW_CHECK_ERROR(exec.launch(stream), Errc::invalid_argument,
                      "launch of graph 'g': buffer 'x' used by task 'fill' was freed after the graph was built; keep it "
                      "alive or build a new graph");
}

TEST_CASE("Device loops stop on the device decision, the limit or start(false), in both modes", "[graph][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const LoopMode mode = GENERATE(LoopMode::conditional_node, LoopMode::host_checked);
  CAPTURE(static_cast<int>(mode));
  DeviceBuffer<unsigned> counter(1, stream);
  LoopState state(stream);

  auto run = [&](unsigned target, unsigned max_iterations, int start, unsigned step) {
    TaskGraph g("loop");
    Task reset = g.memset("reset", counter.data(), 0, sizeof(unsigned));
    Loop loop = g.loop("count", state, {max_iterations, mode, 3});
    Task go = g.kernel("start", KernelLaunch(start_loop, dim3(1), dim3(1), 0, loop.control(), start));
    Task body = loop.body().kernel("step", KernelLaunch(count_step, dim3(1), dim3(1), 0, counter.data(), step, target,
                                                        loop.control()));
    reset.precede(go);
    go.precede(loop.task());
    GraphExec exec = g.instantiate(stream);
    CHECK(exec.loop_mode() == mode);
    exec.launch(stream);
    const unsigned first = counter.to_host(stream)[0];
    const unsigned iterations = state.iterations(stream);
    exec.update(body, KernelLaunch(count_step, dim3(1), dim3(1), 0, counter.data(), 2u * step, target, loop.control()));
    exec.launch(stream);  // words and counter reset by the graph itself
    return std::tuple{first, iterations, counter.to_host(stream)[0], state.iterations(stream)};
  };
  {
    const auto [count, iterations, count2, iterations2] = run(13, 1000, 1, 1);
    CHECK(count == 13);
    CHECK(iterations == 13);
    CHECK(count2 == 14);  // step 2 after the update: 7 iterations reach 14
    CHECK(iterations2 == 7);
  }
  {
    const auto [count, iterations, count2, iterations2] = run(1000000, 10, 1, 1);  // the limit stops it
    CHECK(count == 10);
    CHECK(iterations == 10);
    CHECK(count2 == 20);
  }
  {
    const auto [count, iterations, count2, iterations2] = run(13, 1000, 0, 1);  // start(false): no iteration
    CHECK(count == 0);
    CHECK(iterations == 0);
    CHECK(count2 == 0);
  }
  {
    const auto [count, iterations, count2, iterations2] = run(13, 0, 1, 1);  // no iteration allowed
    CHECK(count == 0);
    CHECK(iterations == 0);
  }
}

TEST_CASE("Loop misuse is refused", "[graph][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  DeviceBuffer<unsigned> counter(1, stream);
  LoopState state(stream);
  TaskGraph g("g");
  Task outer = g.kernel("outer", KernelLaunch(add_one, dim3(1), dim3(1), 0, counter.data()));
  Loop loop = g.loop("cg", state, {5});
  Task inner = loop.body().kernel("inner", KernelLaunch(add_one, dim3(1), dim3(1), 0, counter.data()));
  BSRFLOW_CHECK_ERROR(outer.precede(inner), Errc::invalid_argument,
                      "task 'inner' belongs to loop body 'cg' of graph 'g', not to graph 'g' of task 'outer': "
                      "dependencies stay inside one graph (a loop body is a graph of its own)");
  BSRFLOW_CHECK_ERROR((void)loop.body().instantiate(stream), Errc::invalid_argument,
                      "loop body 'cg' of graph 'g' is instantiated with the graph that holds the loop, not alone");
  GraphExec first = g.instantiate(stream);
  BSRFLOW_CHECK_ERROR((void)g.instantiate(stream), Errc::invalid_argument,
                      "graph 'g': loop 'cg': its LoopState is bound to another live instantiated graph; give each "
                      "GraphExec its own TaskGraph and LoopState");
  first = GraphExec();
  GraphExec second = g.instantiate(stream);  // the first one is gone: the state is free again

  TaskGraph mixed("mixed");
  LoopState other(stream);
  mixed.loop("a", state, {5, LoopMode::host_checked});
  mixed.loop("b", other, {5, LoopMode::conditional_node});
  BSRFLOW_CHECK_ERROR((void)mixed.instantiate(stream), Errc::unsupported,
                      "graph 'mixed': loop 'a' asks for host-checked mode and loop 'b' for conditional nodes; one "
                      "graph runs all its loops one way");
  TaskGraph nested("nested");
  Loop outer_loop = nested.loop("outer", other, {5});
  outer_loop.body().loop("inner", state, {5});
  BSRFLOW_CHECK_ERROR((void)nested.instantiate(stream), Errc::unsupported,
                      "graph 'nested': loop 'inner' inside the body of loop 'outer': nested loops are not supported");
}

TEST_CASE("Soak: 100000 replays keep memory flat and every result bitwise identical", "[graph][gpu][soak]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const int n = 4096, replays = 100000;
  DeviceBuffer<float> x(n, stream), y(n, stream), results(replays, stream);
  DeviceBuffer<unsigned> slot(1, stream);
  slot.fill_bytes(0, stream);
  results.fill_bytes(0xFF, stream);
  TaskGraph g("soak");
  Task a = g.kernel("x", fill_launch(n, 0.001f, x.data()));
  Task b = g.kernel("y", fill_launch(n, 0.37f, y.data()));
  Task d = g.kernel("dot", KernelLaunch(dot_to_slot, dim3(1), dim3(256), 0, n, x.data(), y.data(), slot.data(),
                                        results.data()));
  d.succeed(a, b);
  GraphExec exec = g.instantiate(stream);
  exec.launch(stream);
  stream.synchronize();
  std::size_t free_before = 0, total = 0, free_after = 0;
  BSRFLOW_CUDA(cudaMemGetInfo(&free_before, &total));
  for (int r = 1; r < replays; ++r) exec.launch(stream);
  stream.synchronize();
  BSRFLOW_CUDA(cudaMemGetInfo(&free_after, &total));
  CHECK(free_after == free_before);
  const std::vector<float> host = results.to_host(stream);
  std::uint32_t first_bits = 0;
  std::memcpy(&first_bits, &host[0], 4);
  int differing = 0;
  for (int r = 0; r < replays; ++r) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &host[static_cast<std::size_t>(r)], 4);
    differing += bits != first_bits;
  }
  CHECK(differing == 0);
  CHECK(host[0] > 0.f);
  CHECK(exec.stats().launches == replays);
}

TEST_CASE("Replays from two host threads on two streams stay correct", "[graph][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream setup;
  DeviceBuffer<unsigned> shared_counter(1, setup), own_a(1, setup), own_b(1, setup);
  for (auto* b : {&shared_counter, &own_a, &own_b}) b->fill_bytes(0, setup);
  setup.synchronize();
  auto graph_for = [&](unsigned* counter) {
    TaskGraph g("counter");
    g.kernel("add", KernelLaunch(add_one, dim3(4), dim3(64), 0, counter));
    return g.instantiate(setup);
  };
  GraphExec shared_exec = graph_for(shared_counter.data());  // one exec, launched from both threads
  GraphExec exec_a = graph_for(own_a.data()), exec_b = graph_for(own_b.data());
  const int launches = 2000;
  auto worker = [&](GraphExec* own) {
    Stream s;
    for (int i = 0; i < launches; ++i) {
      shared_exec.launch(s);
      own->launch(s);
    }
    s.synchronize();
  };
  std::thread t1(worker, &exec_a), t2(worker, &exec_b);
  t1.join();
  t2.join();
  CHECK(shared_counter.to_host(setup)[0] == 2u * launches * 256u);
  CHECK(own_a.to_host(setup)[0] == launches * 256u);
  CHECK(own_b.to_host(setup)[0] == launches * 256u);
}
