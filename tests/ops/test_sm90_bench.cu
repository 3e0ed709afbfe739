// Hidden benchmark of the Hopper BSR GEMM (tag [.sm90bench], not run in CI):
// M = N = K = 8192, f16 in, f16 out (f32 with BSRFLOW_SM90BENCH_OUT=f32), 12.5% of the blocks
// of every block row stored (uniform), for blocks 16, 32, 64, 128: the tuned plan, the measured
// alternatives and the copy-only probe, against cuBLAS dense f16 (f32 accumulate) in the same
// process.
//
// Method (DESIGN.md "Benchmarks"): CUDA events around each run, warm-up, median / min / max of
// 20 runs, L2 flushed before every timed run (core/l2_flusher.hpp, outside the timed region),
// random data, plan time reported apart. Effective TFLOPS count stored blocks only:
// 2 * nnzb * R * C * N / t. Set BSRFLOW_SM90BENCH_N to change the size (multiple of 128),
// BSRFLOW_SM90BENCH_BLOCKS to a comma list (e.g. "16,128") to run fewer block sizes,
// BSRFLOW_SM90BENCH_DENSITY to store another fraction of each block row (default 0.125),
// BSRFLOW_SM90BENCH_OUT=f32 for f32 output (twice the bytes written; perf_log entry 29),
// BSRFLOW_SM90BENCH_REPS to time fewer runs (1 with one warm-up: a profiler run), and
// BSRFLOW_SM90BENCH_ROW_GROUP_STAGES to run the row-group kernels and probes also with these ring
// depths (a comma list, e.g. "6,8,10").
#include <catch2/catch.hpp>

#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/dense.hpp"
#include "bsrflow/ops/cublas_check.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/sm90_choose.hpp"
#include "bsrflow/ops/sm90_kernels.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;

namespace {

__global__ void fill_uniform(__half* p, std::size_t n, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    std::uint32_t x = static_cast<std::uint32_t>(i) * 0x9E3779B9u ^ seed ^ static_cast<std::uint32_t>(i >> 32);
    x ^= x >> 16, x *= 0x7feb352du, x ^= x >> 15, x *= 0x846ca68bu, x ^= x >> 16;
    p[i] = __float2half(static_cast<float>(x) * (2.0f / 4294967296.0f) - 1.0f);  // [-1, 1)
  }
}

void fill(DeviceBuffer<__half>& b, std::uint32_t seed, cudaStream_t s) {
  if (b.empty()) return;
  fill_uniform<<<1024, 256, 0, s>>>(b.data(), b.size(), seed);
  BSRFLOW_CHECK_LAUNCH("fill_uniform");
}

struct Timing {
  double median_ms, min_ms, max_ms;
};

// `run` timed `reps` times after `warmup` untimed runs; `flush` runs before each, untimed.
Timing time_runs(const std::function<void()>& run, const std::function<void()>& flush, cudaStream_t s) {
  int reps = 20, warmup = 3;
  if (const char* env = std::getenv("BSRFLOW_SM90BENCH_REPS")) reps = std::max(1, std::atoi(env)), warmup = 1;
  for (int i = 0; i < warmup; ++i) run();
  Event start, stop;
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    flush();
    start.record(s);
    run();
    stop.record(s);
    ms.push_back(Event::elapsed_ms(start, stop));
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), ms.back()};
}

// The comma-separated integers of environment variable `name` ({} when unset).
std::vector<int> env_int_list(const char* name) {
  std::vector<int> out;
  if (const char* env = std::getenv(name))
    for (const char* c = env; *c != '\0';) {
      out.push_back(std::atoi(c));
      while (*c != '\0' && *c != ',') ++c;
      if (*c == ',') ++c;
    }
  return out;
}

}  // namespace

TEST_CASE("sm90 GEMM benchmark: 8192^3 f16, 12.5% blocks, vs cuBLAS dense and the copy-only probe",
          "[.sm90bench]") {
  BSRFLOW_REQUIRE_GPU();
  int n = 8192;
  if (const char* env = std::getenv("BSRFLOW_SM90BENCH_N")) n = std::atoi(env);
  double density = 0.125;
  if (const char* env = std::getenv("BSRFLOW_SM90BENCH_DENSITY")) density = std::atof(env);
  REQUIRE((density > 0.0 && density <= 1.0));
  std::printf("stored: %.4g of the block columns of every block row\n", density);
  const char* out_env = std::getenv("BSRFLOW_SM90BENCH_OUT");
  const bool out_f32 = out_env != nullptr && std::string(out_env) == "f32";
  REQUIRE((out_env == nullptr || out_f32 || std::string(out_env) == "f16"));
  std::printf("output: %s\n", out_f32 ? "f32" : "f16");
  const DeviceInfo dev = device_info();
  Stream stream;
  std::printf("device: %s (sm_%d, %d SMs, L2 %zu MiB)\n", dev.name.c_str(), dev.compute_capability(), dev.sm_count,
              dev.l2_bytes >> 20);

  DeviceBuffer<unsigned char> scrub(2 * dev.l2_bytes, stream);
  auto flush = [&] { scrub.fill_bytes(0x5A, stream); };

  // Dense operands shared by every case: B (K x N, row-major), C (M x N).
  DeviceBuffer<__half> B(static_cast<std::size_t>(n) * n, stream), C(static_cast<std::size_t>(n) * n, stream);
  fill(B, 2, stream);
  fill(C, 3, stream);
  DeviceBuffer<float> C32(out_f32 ? static_cast<std::size_t>(n) * n : 0, stream);  // f32 output

  // cuBLAS dense on the densified problem (any data: only the time matters).
  double cublas_tflops = 0.0;
  {
    DeviceBuffer<__half> A(static_cast<std::size_t>(n) * n, stream);
    fill(A, 1, stream);
    cublasHandle_t handle = nullptr;
    BSRFLOW_CUBLAS(cublasCreate(&handle));
    BSRFLOW_CUBLAS(cublasSetStream(handle, stream));
    const float one = 1.0f, zero = 0.0f;
    auto run = [&] {
      BSRFLOW_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B.data(), CUDA_R_16F, n, A.data(),
                                  CUDA_R_16F, n, &zero, C.data(), CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
                                  CUBLAS_GEMM_DEFAULT));
    };
    const Timing t = time_runs(run, flush, stream);
    cublas_tflops = 2.0 * n * n * static_cast<double>(n) / (t.median_ms * 1e-3) / 1e12;
    std::printf("cublas dense f16: %.3f ms (min %.3f max %.3f) = %.0f TFLOPS\n", t.median_ms, t.min_ms, t.max_ms,
                cublas_tflops);
    BSRFLOW_CUBLAS(cublasDestroy(handle));
  }

  std::vector<int> blocks = env_int_list("BSRFLOW_SM90BENCH_BLOCKS");
  if (blocks.empty()) blocks = {16, 32, 64, 128};
  const std::vector<int> row_group_stages = env_int_list("BSRFLOW_SM90BENCH_ROW_GROUP_STAGES");
  for (int b : blocks) {
    // The same number of block columns (density x, 1/8 by default) in every block row, at random
    // positions.
    const int block_rows = n / b, block_cols = n / b;
    const int per_row = std::max(1, static_cast<int>(block_cols * density + 0.5));
    std::mt19937 rng(static_cast<std::uint32_t>(b));
    std::vector<int> row_ptr(1, 0), col_idx, all(static_cast<std::size_t>(block_cols));
    std::iota(all.begin(), all.end(), 0);
    for (int i = 0; i < block_rows; ++i) {
      std::vector<int> pick;
      std::sample(all.begin(), all.end(), std::back_inserter(pick), per_row, rng);
      col_idx.insert(col_idx.end(), pick.begin(), pick.end());
      row_ptr.push_back(static_cast<int>(col_idx.size()));
    }
    const std::int64_t nnzb = static_cast<std::int64_t>(col_idx.size());
    DeviceBuffer<__half> values(static_cast<std::size_t>(nnzb) * b * b, stream);
    fill(values, 10 + static_cast<std::uint32_t>(b), stream);
    Bsr<__half> A(n, n, b, b, DeviceBuffer<int>::from_host(row_ptr, stream),
                  DeviceBuffer<int>::from_host(col_idx, stream), std::move(values));
    const DenseView<const __half> Bv{B.data(), n, n, n, Layout::row_major};
    const DenseView<__half> Cv{C.data(), n, n, n, Layout::row_major};
    const DenseView<float> Cv32{C32.data(), n, n, n, Layout::row_major};
    const double flops = 2.0 * static_cast<double>(nnzb) * b * b * n;

    // The tuned plan first, then its mechanics switched off one at a time, then the alternatives.
    std::vector<GemmOptions> variants(6);
    variants[1].tma_store_epilogue = false;
    variants[2].single_box_b = false;
    variants[3].cluster = 1;
    variants[4].cluster = 2;
    variants[5].l2_evict_last = false;
    for (const sm90::KernelEntry& e : sm90::all_kernels()) {
      if (e.key.in != DType::f16 || e.key.b_col_major || e.key.R != b || e.key.k_chunk != std::min(b, 64)) continue;
      const sm90::Tuning tuned = sm90::tuned_for(b, b, Layout::row_major, n, true);  // uniform rows
      if (!e.key.copy_only && e.key.row_group == 1 && e.key.swath == tuned.swath &&
          e.key.swap == (tuned.orientation == GemmOrientation::swap))
        continue;  // the tuned plan, already first
      GemmOptions o;
      o.kernel = GemmOptions::Choice::sm90;
      o.swath = e.key.swath;
      o.orientation = e.key.swap ? GemmOrientation::swap : GemmOrientation::direct;
      o.copy_only = e.key.copy_only;
      o.row_group = e.key.row_group;
      o.items_per_stage = e.key.items_per_stage;
      variants.push_back(o);
      if (o.row_group > 1)  // shallower rings than the deepest that fits (stage sensitivity)
        for (const int stages : row_group_stages)
          if (stages >= sm90::kMinStages && stages < sm90::max_stages(e, dev)) {
            o.stages = stages;
            variants.push_back(o);
          }
      if (o.copy_only && o.row_group == 1) {  // the probe of CTA pairs: fewer A bytes from L2
        o.cluster = 2;
        variants.push_back(o);
      }
    }
    // K depth of a stage against CTA pairs (direct orientation; perf_log entries 18-19), at the
    // swath a plan with an explicit k-chunk runs (the standard one: gemm_plan measures the rows
    // for R = 64's wide swath only when the k-chunk is the planner's).
    const int standard_swath = sm90::tuned_for(b, b, Layout::row_major, n, false).swath;
    if (b >= 64)
      for (const int kc : {64, 32, 16})
        for (const int cluster : {1, 2}) {
          const int tuned_kc = sm90::tuned_k_chunk(b, b, Layout::row_major, standard_swath);
          if (kc == (tuned_kc > 0 ? tuned_kc : std::min(b, 64))) continue;  // the [single CTAs] / [CTA pairs] row
          GemmOptions o;
          o.kernel = GemmOptions::Choice::sm90;
          o.k_chunk = kc;
          o.cluster = cluster;
          variants.push_back(o);
        }
    // The tuned plan once more, last: the first timing of a run can catch clocks still settling
    // after cuBLAS (perf_log entry 6).
    variants.push_back(variants[0]);
    double probe_tflops = 0.0, tuned_tflops = 0.0;
    for (const GemmOptions& o : variants) {
      const auto t0 = std::chrono::steady_clock::now();
      const GemmPlan plan =
          plan_gemm(std::as_const(A).view(), describe(Bv), out_f32 ? describe(Cv32) : describe(Cv), o, stream);
      const double plan_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      auto run = [&] {
        if (out_f32) plan.run<__half, float>(std::as_const(A).view(), Bv, Cv32, 1.0f, 0.0f, stream);
        else plan.run<__half, __half>(std::as_const(A).view(), Bv, Cv, 1.0f, 0.0f, stream);
      };
      const Timing t = time_runs(run, flush, stream);
      const double tflops = flops / (t.median_ms * 1e-3) / 1e12;
      if (o.copy_only) probe_tflops = std::max(probe_tflops, tflops);
      if (&o == &variants.front() || &o == &variants.back()) tuned_tflops = std::max(tuned_tflops, tflops);
      const char* note = &o == &variants[0]   ? "  [tuned]"
                         : &o == &variants[1] ? "  [no TMA-store epilogue]"
                         : &o == &variants[2] ? "  [per-panel B boxes]"
                         : &o == &variants[3] ? "  [single CTAs]"
                         : &o == &variants[4] ? "  [CTA pairs]"
                         : &o == &variants[5] ? "  [no L2 evict-last]"
                         : &o == &variants.back() ? "  [tuned, again]"
                                              : "";
      std::printf("block %3d  %-44s plan %7.1f ms  %3d CTAs  run %.4f ms (min %.4f max %.4f)  %6.1f TFLOPS  %.3f of "
                  "cuBLAS%s\n",
                  b, plan.name().c_str(), plan_ms, plan.ctas(), t.median_ms, t.min_ms, t.max_ms, tflops,
                  tflops / cublas_tflops, note);
    }
    if (probe_tflops > 0.0)
      std::printf("block %3d  tuned / copy-only probe = %.3f, tuned / min(cuBLAS, probe) = %.3f\n", b,
                  tuned_tflops / probe_tflops, tuned_tflops / std::min(cublas_tflops, probe_tflops));
  }
  std::fflush(stdout);
  SUCCEED("benchmark printed");
}
