// Throw-away probe (session 23's chain_probe.cu, perf_log entry 45, adapted in session 43, entry
// 65): how fast do skinny products (N = 16 and 64, the llm suite's weights) run when launched one
// after another on different weights, as an LLM decode step does, against bsr_bench's single cold
// launch? Calls 2-4 compared the experiment's BSRFLOW_EXP_PDL modes (patches/exp_skinny_pdl*.patch;
// 0 off, 1 PDL with every thread waiting after set-up, 2 PDL with each producer's first ring of A
// issued before the wait, 3 / 4 as 1 after an L2 prefetch of the first ring's / whole piece's A);
// since call 5 the library's own switch: "plain" plans with GemmOptions::programmatic_launch off,
// "auto" plans as the planner decides (the line says whether it took PDL). Each mode's C after a
// chain is compared bitwise with the first mode's.
// Usage: chain_probe L [modes...] (default L = 8, modes plain auto); BSRFLOW_PROBE_SHAPES=wide for
// every block shape.
// Build next to a bsrflow build tree (include dir build/include, static libs):
//   nvcc -O3 -std=c++20 -gencode=arch=compute_90a,code=sm_90a -Ibuild/include chain_probe.cu \
//     build/ops/libbsrflow_ops.a build/formats/libbsrflow_formats.a build/core/libbsrflow_core.a -lcuda
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdlib>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <cstdio>
#include <random>
#include <vector>

#include "bsrflow/core/l2_flusher.hpp"
#include "bsrflow/core/random_fill.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/ops/gemm_plan.hpp"

using namespace bsrflow;

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void read_kernel(const uint4* p, std::size_t n, unsigned* sink) {
  unsigned x = 0;
  for (std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < n; i += (std::size_t)gridDim.x * blockDim.x) {
    uint4 v = __ldcs(p + i);
    x ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (x == 0x12345678u) sink[0] = x;
}

template <class F>
double median_ms(F&& body, L2Flusher& flusher, cudaStream_t s, int iters = 15) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < iters + 2; ++i) {
    flusher.flush(s);
    CK(cudaEventRecord(a, s));
    body();
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (i >= 2) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  const int L = argc > 1 ? atoi(argv[1]) : 8;
  // The modes to time, each twice (call 5: plain auto).
  std::vector<const char*> modes;
  for (int round = 0; round < 2; ++round)
    for (int a = 2; a < argc; ++a) modes.push_back(argv[a]);
  if (modes.empty()) modes = {"plain", "auto", "plain", "auto"};
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const DeviceInfo dev = device_info();
  L2Flusher flusher(dev.l2_bytes, s);
  printf("device %s, L = %d launches per chain\n", dev.name.c_str(), L);
  unsigned* sink;
  CK(cudaMalloc(&sink, 4));
  {  // copy bandwidth, as bsr_bench's probe: one large D2D copy, bytes read + written
    const std::size_t bytes = std::size_t{1} << 30;
    void *x, *y;
    CK(cudaMalloc(&x, bytes));
    CK(cudaMalloc(&y, bytes));
    const double ms = median_ms([&] { CK(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, s)); }, flusher, s, 5);
    printf("copy 1 GiB: %.1f GB/s (read + written)\n", 2.0 * bytes / ms / 1e6);
    CK(cudaFree(x));
    CK(cudaFree(y));
  }
  struct Shape { int m, k, r, c; double d; };
  // Call 2 / 3: the first four (square blocks). Call 4 (BSRFLOW_PROBE_SHAPES=wide): every block
  // shape of the llm suite's weights at 25%, both orientations, and 32 x 32 / 64 x 64 at 50%.
  std::vector<Shape> shapes = {{4096, 11008, 32, 32, 0.25}, {4096, 11008, 64, 64, 0.5}, {11008, 4096, 32, 32, 0.5},
                               {11008, 4096, 64, 64, 0.25}};
  if (const char* e = getenv("BSRFLOW_PROBE_SHAPES"); e && std::string(e) == "wide") {
    shapes.clear();
    for (int mk = 0; mk < 2; ++mk)
      for (const auto& rc : {std::pair{16, 16}, {16, 32}, {32, 16}, {32, 32}, {32, 64}, {64, 32}, {64, 64}, {128, 128}})
        shapes.push_back({mk ? 11008 : 4096, mk ? 4096 : 11008, rc.first, rc.second, 0.25});
    for (int mk = 0; mk < 2; ++mk)
      for (int b : {32, 64}) shapes.push_back({mk ? 11008 : 4096, mk ? 4096 : 11008, b, b, 0.5});
  }
  for (const int n : {16, 64})
  for (const Shape& sh : shapes) {
    std::mt19937 rng(1234);
    HostBsr<__half> h;
    h.rows = sh.m; h.cols = sh.k; h.R = sh.r; h.C = sh.c;
    const int brows = sh.m / sh.r, bcols = sh.k / sh.c, per_row = static_cast<int>(sh.d * bcols + 0.5);
    h.row_ptr.push_back(0);
    std::vector<int> all(bcols);
    for (int i = 0; i < bcols; ++i) all[i] = i;
    for (int r = 0; r < brows; ++r) {
      std::shuffle(all.begin(), all.end(), rng);
      std::vector<int> cols(all.begin(), all.begin() + per_row);
      std::sort(cols.begin(), cols.end());
      h.col_idx.insert(h.col_idx.end(), cols.begin(), cols.end());
      h.row_ptr.push_back(static_cast<int>(h.col_idx.size()));
    }
    h.values.assign(h.col_idx.size() * sh.r * sh.c, __float2half(0.0f));
    Bsr<__half> A = Bsr<__half>::from_host(h, s);
    const std::size_t vals = h.values.size();
    std::vector<DeviceBuffer<__half>> copies;
    for (int i = 0; i < L; ++i) {
      copies.emplace_back(vals, s);
      fill_random_nonzero(copies.back().data(), static_cast<std::int64_t>(vals), 7 + i, s);
    }
    DeviceBuffer<__half> Bbuf(static_cast<std::size_t>(sh.k) * n, s), Cbuf(static_cast<std::size_t>(sh.m) * n, s);
    fill_random_nonzero(Bbuf.data(), sh.k * n, 99, s);
    DenseView<const __half> B{Bbuf.data(), sh.k, n, n, Layout::row_major};
    DenseView<__half> C{Cbuf.data(), sh.m, n, n, Layout::row_major};
    BsrView<const __half> Av = std::as_const(A).view();
    GemmOptions plain_options;
    plain_options.programmatic_launch = false;
    const GemmPlan plain = plan_gemm(Av, describe(B), describe(C), plain_options, s);
    const GemmPlan automatic = plan_gemm(Av, describe(B), describe(C), GemmOptions{}, s);
    const GemmPlan* plan = &plain;
    auto run_i = [&](int i) {
      BsrView<const __half> v = Av;
      v.values = copies[i].data();
      plan->run<__half, __half>(v, B, C, 1.0f, 0.0f, s);
    };
    const double bytes = vals * 2.0 + h.col_idx.size() * 4.0 + h.row_ptr.size() * 4.0 + sh.k * n * 2.0 + sh.m * n * 2.0;
    const std::size_t n16 = vals * 2 / 16;
    auto rd = [&](int i) { read_kernel<<<dev.sm_count * 4, 512, 0, s>>>(reinterpret_cast<const uint4*>(copies[i].data()), n16, sink); };
    const double rsingle = median_ms([&] { rd(0); }, flusher, s);
    const double rchain = median_ms([&] { for (int i = 0; i < L; ++i) rd(i); }, flusher, s) / L;
    char name[64];
    snprintf(name, sizeof name, "%dx%dx%d %dx%d %.0f%%", sh.m, n, sh.k, sh.r, sh.c, sh.d * 100);
    printf("%-26s %7.1f MB  plain read of A: single %.0f GB/s, chain %.0f GB/s   (%s, %d CTAs, auto: %s)\n", name,
           bytes / 1e6, vals * 2.0 / rsingle / 1e6, vals * 2.0 / rchain / 1e6, plain.name().c_str(), plain.ctas(),
           automatic.programmatic_launch() ? "PDL" : "plain");
    std::vector<__half> c_ref, c_got;
    auto c_after_chain = [&](std::vector<__half>& out) {
      CK(cudaMemsetAsync(Cbuf.data(), 0xFF, static_cast<std::size_t>(sh.m) * n * 2, s));  // poison: NaN
      for (int i = 0; i < L; ++i) run_i(i);
      out.resize(static_cast<std::size_t>(sh.m) * n);
      CK(cudaMemcpyAsync(out.data(), Cbuf.data(), out.size() * 2, cudaMemcpyDeviceToHost, s));
      CK(cudaStreamSynchronize(s));
    };
    for (const char* mode : modes) {
      plan = std::string(mode) == "auto" ? &automatic : &plain;
      if (c_ref.empty()) c_after_chain(c_ref);
      c_after_chain(c_got);
      const bool same = std::memcmp(c_ref.data(), c_got.data(), c_ref.size() * 2) == 0;
      const double single = median_ms([&] { run_i(0); }, flusher, s);
      const double chain = median_ms([&] { for (int i = 0; i < L; ++i) run_i(i); }, flusher, s) / L;
      cudaGraph_t g;
      cudaGraphExec_t ge;
      CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
      for (int i = 0; i < L; ++i) run_i(i);
      CK(cudaStreamEndCapture(s, &g));
      CK(cudaGraphInstantiate(&ge, g, 0));
      const double graph = median_ms([&] { CK(cudaGraphLaunch(ge, s)); }, flusher, s) / L;
      printf("    %s: us single %.2f chain %.2f graph %.2f | GB/s single %.0f chain %.0f graph %.0f | C %s\n", mode,
             single * 1e3, chain * 1e3, graph * 1e3, bytes / single / 1e6, bytes / chain / 1e6, bytes / graph / 1e6,
             same ? "identical" : "DIFFERS");
      CK(cudaGraphExecDestroy(ge));
      CK(cudaGraphDestroy(g));
    }
  }
  CK(cudaStreamSynchronize(s));
  return 0;
}
