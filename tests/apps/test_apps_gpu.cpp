// GPU tests of the apps: the quick bsr_bench suite end to end (every system cross-checked
// against bsrflow's reference result), convert_bench on a small grid, and the peer pieces the
// benchmarks rely on, on integer-valued data so results compare exactly.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <map>
#include <random>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/bsr_bench/runner.hpp"
#include "bsrflow/apps/bsr_bench/sm90_variants.hpp"
#include "bsrflow/apps/bsr_bench/suites.hpp"
#include "bsrflow/apps/bsr_bench/system_registry.hpp"
#include "bsrflow/apps/common/blocked_ell_pack.hpp"
#include "bsrflow/apps/common/cublas_dense_gemm.hpp"
#include "bsrflow/apps/common/densify.hpp"
#include "bsrflow/apps/common/gpu_monitor.hpp"
#include "bsrflow/apps/common/library_handles.hpp"
#include "bsrflow/apps/common/probes.hpp"
#include "bsrflow/apps/common/relative_error.hpp"
#include "bsrflow/apps/convert_bench/convert_runner.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/stream.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

TEST_CASE("bsr_bench quick suite: every system correct and timed, the copy-only probe as SOL", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  RunnerConfig config;
  config.timing.iters = 5;
  config.timing.warmup = 1;
  config.reference_iters = 2;
  config.sm90 = parse_sm90_request("all");  // plus every Hopper configuration, one system each
  const std::vector<BenchCase> cases = suite_cases("quick");
  const BenchRun run = run_bench(cases, config, nullptr);
  const bool monitored = GpuMonitor(device_info().ordinal).available();
  CHECK(run.copy.bytes_per_second() > 0);
  CHECK(run.l2.bytes_per_second() > run.copy.bytes_per_second() / 2);  // L2 is not slower than DRAM
  std::size_t expected = 0, expected_variants = 0;
  for (const BenchCase& c : cases) {
    expected += system_names().size() + requested_variants(config.sm90, c).size();
    expected_variants += requested_variants(config.sm90, c).size();
  }
  REQUIRE(run.records.size() == expected);
  std::size_t variants = 0, alternatives = 0, probes = 0, dense_random = 0;
  std::map<std::string, std::string> tuned_config;  // case -> bsrflow_sm90's plan name
  for (const Record& r : run.records)
    if (r.text("system") == "bsrflow_sm90") tuned_config[r.text("case")] = r.text("config");
  for (const Record& r : run.records) {
    CAPTURE(r.text("case"), r.text("system"), r.text("status"), r.text("note"), r.number("rel_error"));
    const std::string status = r.text("status"), kind = r.text("system_kind");
    const BenchCase c = case_from_record(r);
    // The copy-only kernels are instantiated for every tuned configuration, both B layouts (f16;
    // bf16 cases run the f16 probe on their bytes), so every case of the suite has its probe.
    const bool probe_runs = true;
    CHECK(r.text("sol_source") == (probe_runs ? "copy_only_probe" : "l2_probe"));
    CHECK(std::isfinite(r.number("sol_tflops")));
    if (kind == "sol_probe") {
      ++probes;
      CHECK(std::holds_alternative<std::monostate>(*r.find("correct")));  // not checked: writes nothing
      CHECK(status == (probe_runs ? "ok" : "unsupported"));
      if (status == "ok") {
        CHECK(r.number("eff_tflops") > 0);
        CHECK(r.number("runs") == 5);
        // bsrflow_sm90's configuration, copy-only (in f16 for a bf16 case).
        std::string same = tuned_config.at(r.text("case")) + "_copy";
        if (c.dtype == DType::bf16) same.replace(same.find("_bf16_"), 6, "_f16_");
        CHECK(r.text("config") == same);
        if (c.dtype == DType::bf16) CHECK_THAT(r.text("note"), Catch::Contains("the f16 probe on the bf16 bytes"));
      } else {
        CHECK_THAT(r.text("note"), Catch::Contains("no sm90 kernel is instantiated for"));
      }
      continue;
    }
    if (kind == "dense_random") {  // cuBLAS on random dense data of A's shape: timed, not checked
      ++dense_random;
      CHECK(status == "ok");
      CHECK(std::holds_alternative<std::monostate>(*r.find("correct")));
      CHECK(r.number("eff_tflops") > 0);
      CHECK(std::isfinite(r.number("ratio_to_dense")));
      CHECK(r.number("ratio_to_dense_random") == Approx(1.0));
      CHECK(std::isnan(r.number("pct_sol")));
      continue;
    }
    // 'unsupported' is tolerated for peers, and for the skinny kernel above its widest tile;
    // everything that ran must be correct.
    const bool skinny_too_wide = r.text("system") == "bsrflow_skinny" && r.number("n") > 64;
    CHECK((status == "ok" || (status == "unsupported" && (kind == "sparse_peer" || skinny_too_wide))));
    if (!r.text("sm90_variant").empty()) {
      ++variants;
      CHECK(r.text("system") == r.text("config"));  // named by the plan it got
      alternatives += r.text("config") != tuned_config.at(r.text("case"));
    }
    if (status != "ok") continue;
    CHECK(r.flag("correct"));
    CHECK(r.number("rel_error") <= r.number("tolerance"));
    CHECK(r.number("ms") > 0);
    CHECK(r.number("eff_tflops") > 0);
    CHECK(r.number("runs") == (r.text("system") == "bsrflow_reference" ? 2 : 5));
    CHECK(r.text("device") == run.info.device);
    CHECK_FALSE(r.text("commit").empty());
    if (monitored) {  // the SM clock over the timed series
      CHECK(r.number("monitor_samples") >= 1);
      CHECK(r.number("sm_mhz_min") <= r.number("sm_mhz"));
      CHECK(r.number("sm_mhz") <= r.number("sm_mhz_max"));
      CHECK(r.number("sm_mhz") > 100);
      CHECK_FALSE(r.text("clock_limits").empty());
      // The series only, not the 200 ms rest before it (a sample about every millisecond).
      if (r.text("system") == "bsrflow_sm90") CHECK(r.number("monitor_samples") < 150);
    }
    if (r.text("system") == "bsrflow_sm90_tuned") {
      // Compared with the heuristic's plan: in alternating pairs where the tuner chose another.
      CHECK(r.text("heuristic_config") == tuned_config.at(r.text("case")));
      if (r.flag("same_config_as_heuristic")) {
        CHECK(r.text("config") == r.text("heuristic_config"));
        CHECK(r.number("gain_vs_heuristic") == 1.0);
        CHECK(!r.has("paired_gain"));
      } else {
        CHECK(r.text("config") != r.text("heuristic_config"));
        CHECK(r.number("pairs") == 5);
        CHECK(r.number("gain_vs_heuristic") == r.number("paired_gain"));
        CHECK(r.number("paired_gain_p10") <= r.number("paired_gain"));
        CHECK(r.number("paired_gain") <= r.number("paired_gain_p90"));
        CHECK(r.number("paired_gain_p10") > 0);
      }
    }
    if (kind != "dense_baseline") {
      CHECK(std::isfinite(r.number("ratio_to_dense")));
      CHECK(std::isfinite(r.number("ratio_to_dense_random")));
      CHECK(r.number("pct_sol") > 0);
      CHECK(r.number("gbps") > 0);
    }
  }
  CHECK(probes == cases.size());
  CHECK(dense_random == cases.size());
  CHECK(variants == expected_variants);
  CHECK(alternatives >= 3);  // configurations other than the tuned one ran (e.g. swath 256 at 32x32)
  // Blocked-ELL cannot take the 16x64 case; it must say so rather than run.
  for (const Record& r : run.records)
    if (r.text("system") == "cusparse_blocked_ell" && r.number("block_r") != r.number("block_c"))
      CHECK(r.text("status") == "unsupported");
}

TEST_CASE("bsr_bench --chain: every system's chain ends on the case's own product, timed per product", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  RunnerConfig config;
  config.timing.iters = 5;
  config.timing.warmup = 1;
  config.reference_iters = 2;
  // A skinny case (the skinny kernel, with programmatic dependent launch where its plan takes it)
  // and a power-law one whose long rows the Hopper kernel splits (partial tiles, the fix-up kernel):
  // consecutive links write the same C, so a link that overlaps its predecessor wrongly shows.
  BenchCase skinny;
  skinny.m = 2048;
  skinny.n = 16;
  skinny.k = 4096;
  skinny.density = 0.25;
  skinny.chain = 3;
  BenchCase split = skinny;
  split.m = split.n = split.k = 2048;
  split.R = split.C = 64;
  split.pattern = Pattern::powerlaw;
  split.chain = 2;
  const BenchRun run = run_bench({skinny, split}, config, nullptr);
  REQUIRE(run.records.size() == 2 * system_names().size());
  std::size_t bsrflow_ok = 0;
  for (const Record& r : run.records) {
    CAPTURE(r.text("case"), r.text("system"), r.text("status"), r.text("note"), r.number("rel_error"));
    const BenchCase c = case_from_record(r);
    CHECK((c == skinny || c == split));
    CHECK_THAT(r.text("case"), Catch::EndsWith(" chain" + std::to_string(c.chain)));
    const std::string status = r.text("status"), kind = r.text("system_kind");
    const bool may_refuse = kind == "sparse_peer" || (r.text("system") == "bsrflow_skinny" && c.n > 64);
    CHECK((status == "ok" || (status == "unsupported" && may_refuse)));
    if (status != "ok") continue;
    if (r.flag("correct")) CHECK(r.number("rel_error") <= r.number("tolerance"));
    else CHECK(std::holds_alternative<std::monostate>(*r.find("correct")));  // the probe, cuBLAS on random data
    CHECK(r.number("ms") > 0);
    CHECK(r.number("ms_p10") <= r.number("ms"));
    CHECK(r.number("runs") == (r.text("system") == "bsrflow_reference" ? 2 : 5));
    bsrflow_ok += kind == "bsrflow";
  }
  CHECK(bsrflow_ok == 2 * 3 + 1);  // reference, sm90, tuned on both; skinny on the skinny case only
}

TEST_CASE("convert_bench on a small grid: bsrflow's BSR equals cuSPARSE's", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  ConvertOptions options;
  options.grid = 10;  // 1000 rows: not a multiple of 3, 16 or 32, so edge blocks are padded
  options.blocks = {3, 16, 32};
  options.timing.iters = 3;
  options.timing.warmup = 1;
  for (const DType t : {DType::f64, DType::f32}) {
    options.dtype = t;
    const ConvertRun run = run_convert_bench(options, nullptr);
    // per block: 3 phases (symbolic+numeric, pool kept, numeric) x (every numeric variant + cuSPARSE)
    REQUIRE(run.records.size() == 3 * 3 * (options.numeric_variants.size() + 1));
    for (const Record& r : run.records) {
      CAPTURE(dtype_name(t), r.number("block"), r.text("system"), r.text("phase"), r.text("note"));
      CHECK(r.text("status") == "ok");
      CHECK(r.flag("correct"));
      CHECK(r.number("ms") > 0);
      CHECK(r.text("note").find("differs") == std::string::npos);
    }
  }
  options.dtype = DType::f16;  // cuSPARSE has no half csr2bsr: bsrflow is checked by the host oracle
  options.blocks = {16};
  options.numeric_variants = {CsrToBsrNumeric::scatter};
  options.pool_kept = false;
  const ConvertRun half = run_convert_bench(options, nullptr);
  REQUIRE(half.records.size() == 4);
  CHECK(half.records[0].text("status") == "ok");
  CHECK(half.records[2].text("status") == "unsupported");
}

TEST_CASE("convert_bench: every numeric variant and the pool-kept rows, each checked and timed", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  ConvertOptions options;
  options.grid = 10;
  options.blocks = {3, 32};
  options.timing.iters = 2;
  options.timing.warmup = 1;
  options.pool_kept = true;
  for (const DType t : {DType::f64, DType::f16}) {
    options.dtype = t;
    const ConvertRun run = run_convert_bench(options, nullptr);
    // per block: 3 phases x (scatter, staged, staged-wide, cuSPARSE)
    REQUIRE(run.records.size() == 2 * 3 * 4);
    int scattered = 0, kept = 0;
    for (const Record& r : run.records) {
      CAPTURE(dtype_name(t), r.number("block"), r.text("system"), r.text("phase"), r.text("note"));
      if (r.text("system") == "cusparse" && t == DType::f16) {
        CHECK(r.text("status") == "unsupported");
        continue;
      }
      CHECK(r.text("status") == "ok");
      CHECK(r.flag("correct"));
      CHECK(r.number("ms") > 0);
      scattered += r.text("system") == "bsrflow-scatter";  // a non-default variant
      kept += r.text("phase") == kPoolKeptPhase;
    }
    CHECK(scattered == 6);
    CHECK(kept == (t == DType::f64 ? 8 : 6));
  }
}

TEST_CASE("relative_error measures the norm and catches unwritten (NaN) outputs", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const std::vector<float> ref = {3, 4, 0, 0};
  const std::vector<float> close = {3, 4, 0.05f, 0};
  auto d_ref = DeviceBuffer<float>::from_host(ref, stream);
  auto d_out = DeviceBuffer<float>::from_host(close, stream);
  const RelativeError e = relative_error(d_out.data(), d_ref.data(), 4, stream);
  CHECK(e.reference_norm == Approx(5.0));
  CHECK(e.relative() == Approx(0.01).epsilon(1e-4));
  CHECK(e.within(0.02));
  CHECK_FALSE(e.within(0.005));
  d_out.fill_bytes(0xFF, stream);  // poisoned = NaN everywhere
  const RelativeError poisoned = relative_error(d_out.data(), d_ref.data(), 4, stream);
  CHECK(poisoned.non_finite == 4);
  CHECK_FALSE(poisoned.within(1e9));
}

TEST_CASE("peer pieces: densify, Blocked-ELL packing and cuBLAS in every layout", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  // 4 x 3 blocks of 2 x 2, rows of different lengths (one empty) so ELL needs padding.
  HostBsr<__half> h;
  h.rows = 8;
  h.cols = 6;
  h.R = h.C = 2;
  h.row_ptr = {0, 2, 2, 5, 6};
  h.col_idx = {0, 2, 0, 1, 2, 1};
  std::mt19937 rng(3);
  for (int i = 0; i < 6 * 4; ++i) h.values.push_back(test::int_value<__half>(rng));
  const Bsr<__half> A = Bsr<__half>::from_host(h, stream);

  // Dense image on the host: the expected densify output (row-major 8 x 6).
  std::vector<double> dense(48, 0.0);
  for (int br = 0; br < 4; ++br)
    for (int k = h.row_ptr[br]; k < h.row_ptr[br + 1]; ++k)
      for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c) dense[(br * 2 + r) * 6 + h.col_idx[k] * 2 + c] = to_double(h.at(k, r, c));

  SECTION("densify, both layouts") {
    for (const Layout layout : {Layout::row_major, Layout::col_major}) {
      DeviceBuffer<__half> out(48, stream);
      out.fill_bytes(0xFF, stream);
      densify_bsr<__half>(A.view(), {out.data(), 8, 6, layout == Layout::row_major ? 6 : 8, layout}, stream);
      const std::vector<__half> got = out.to_host(stream);
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 6; ++j)
          CHECK(to_double(got[layout == Layout::row_major ? i * 6 + j : j * 8 + i]) == dense[i * 6 + j]);
    }
  }

  SECTION("Blocked-ELL packing: slot s of block row i at rows i*b.., columns s*b..") {
    const int slots = 3;  // longest row
    DeviceBuffer<int> cols(4 * slots, stream);
    DeviceBuffer<__half> vals(static_cast<std::size_t>(8 * slots * 2), stream);
    vals.fill_bytes(0xFF, stream);
    pack_blocked_ell<__half>(A.view(), slots, cols.data(), vals.data(), stream);
    CHECK(cols.to_host(stream) == std::vector<int>{0, 2, -1, -1, -1, -1, 0, 1, 2, 1, -1, -1});
    const std::vector<__half> v = vals.to_host(stream);
    for (int br = 0; br < 4; ++br)
      for (int s = 0; s < slots; ++s)
        for (int r = 0; r < 2; ++r)
          for (int c = 0; c < 2; ++c) {
            const double got = to_double(v[(br * 2 + r) * (slots * 2) + s * 2 + c]);
            const int k = h.row_ptr[br] + s;
            CHECK(got == (k < h.row_ptr[br + 1] ? to_double(h.at(k, r, c)) : 0.0));
          }
    CHECK_APP_ERROR(pack_blocked_ell<__half>({8, 6, 2, 3, 0, nullptr, nullptr, nullptr}, 1, nullptr, nullptr, stream),
                    Errc::invalid_argument, "Blocked-ELL needs square blocks, got 2x3");
  }

  SECTION("cuBLAS dense GEMM: exact on integers for every layout combination") {
    const int M = 8, K = 6, N = 5;
    DeviceBuffer<__half> a(M * K, stream);
    densify_bsr<__half>(A.view(), {a.data(), M, K, K, Layout::row_major}, stream);
    CublasHandle cublas(stream);
    for (const Layout lb : {Layout::row_major, Layout::col_major})
      for (const Layout lc : {Layout::row_major, Layout::col_major}) {
        const HostDense<__half> b = test::random_dense<__half>(K, N, lb, 7);
        auto d_b = DeviceBuffer<__half>::from_host(b.data, stream);
        DeviceBuffer<__half> d_c(M * N, stream);
        d_c.fill_bytes(0xFF, stream);
        const DenseView<__half> C{d_c.data(), M, N, lc == Layout::row_major ? N : M, lc};
        cublas_dense_gemm<__half>(cublas.get(), DenseView<const __half>{a.data(), M, K, K, Layout::row_major},
                                  DenseView<const __half>{d_b.data(), K, N, b.ld, lb}, C);
        const std::vector<__half> got = d_c.to_host(stream);
        for (int i = 0; i < M; ++i)
          for (int j = 0; j < N; ++j) {
            double expect = 0;
            for (int k = 0; k < K; ++k) expect += dense[i * K + k] * to_double(b(k, j));
            CHECK(to_double(got[C.offset(i, j)]) == expect);
          }
      }
    CHECK_APP_ERROR(cublas_dense_gemm<__half>(cublas.get(), DenseView<const __half>{a.data(), M, K, K, Layout::row_major},
                                              DenseView<const __half>{a.data(), K + 1, N, N, Layout::row_major},
                                              DenseView<__half>{a.data(), M, N, N, Layout::row_major}),
                    Errc::invalid_argument, "dense GEMM: B has 7 rows, expected A.cols = 6");
  }
}

TEST_CASE("bandwidth probes report positive rates", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  TimingConfig config;
  config.iters = 3;
  config.warmup = 1;
  const BandwidthResult copy = measure_copy_bandwidth(std::size_t{64} << 20, config, stream);
  CHECK(copy.bytes_per_run == 2 * (std::size_t{64} << 20));
  CHECK(copy.ms.count == 3);
  CHECK(copy.bytes_per_second() > 1e10);  // > 10 GB/s on any datacenter GPU
  const BandwidthResult l2 = measure_l2_read_bandwidth(4, config, stream);
  CHECK(l2.bytes_per_second() > 1e10);
}

TEST_CASE("time_runs: the rest before the warm-up, and a warm-up of warmup_ms of GPU time", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  DeviceBuffer<unsigned char> buffer(std::size_t{64} << 20, stream);
  L2Flusher flusher(std::size_t{64} << 20, stream);
  int calls = 0;
  const RunFn fill = [&](cudaStream_t s) {
    buffer.fill_bytes(5, s);
    ++calls;
  };
  TimingConfig config;
  config.warmup = 2;
  config.iters = 3;
  CHECK(time_runs(fill, config, &flusher, stream).size() == 3);
  CHECK(calls == 5);  // warmup_ms 0: the warm-up runs only
  // A 64 MiB fill takes well under 1 ms: 30 ms of warm-up needs dozens of runs (more than 30).
  calls = 0;
  config.warmup_ms = 30;
  const std::vector<double> ms = time_runs(fill, config, &flusher, stream);
  REQUIRE(ms.size() == 3);
  CHECK(ms[0] < 1.0);
  CHECK(calls > 30 + 3);
  config.warmup_ms = -1;
  CHECK_APP_ERROR(time_runs(fill, config, &flusher, stream), Errc::invalid_argument,
                  "the warm-up time must not be negative (got -1.00 ms)");
  // The rest: the GPU idles (the host sleeps) that long before the warm-up.
  config.warmup_ms = 0;
  config.rest_ms = 60;
  const auto before = std::chrono::steady_clock::now();
  CHECK(time_runs(fill, config, &flusher, stream).size() == 3);
  CHECK(std::chrono::steady_clock::now() - before >= std::chrono::milliseconds(60));
  config.rest_ms = -1;
  CHECK_APP_ERROR(time_runs(fill, config, &flusher, stream), Errc::invalid_argument,
                  "the rest before the warm-up must not be negative (got -1.00 ms)");
}

TEST_CASE("GpuMonitor samples the SM clock and power while the GPU works", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  GpuMonitor monitor(device_info().ordinal);
  INFO(monitor.unavailable_reason());
  REQUIRE(monitor.available());  // a machine with a GPU has the driver's NVML
  CHECK(monitor.unavailable_reason().empty());
  Stream stream;
  DeviceBuffer<unsigned char> buffer(std::size_t{256} << 20, stream);
  monitor.start();
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  while (std::chrono::steady_clock::now() < until) {
    buffer.fill_bytes(3, stream);
    BSRFLOW_CUDA(cudaStreamSynchronize(stream));
  }
  const GpuActivity a = monitor.stop();
  CHECK(a.samples >= 10);  // about one a millisecond
  CHECK(a.sm_mhz_min > 100);
  CHECK(a.sm_mhz_min <= a.sm_mhz_mean);
  CHECK(a.sm_mhz_mean <= a.sm_mhz_max);
  CHECK(a.sm_mhz_max < 5000);
  if (std::isfinite(a.power_w_mean)) CHECK(a.power_w_mean > 1);
  // A second series starts from scratch.
  monitor.start();
  const GpuActivity b = monitor.stop();
  CHECK(b.samples >= 1);
  CHECK(b.samples < a.samples);
}

TEST_CASE("time_pair_ratios: t(a) / t(b) per alternating pair, whichever runs first", "[apps][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  DeviceBuffer<unsigned char> big(std::size_t{256} << 20, stream), small(std::size_t{16} << 20, stream);
  L2Flusher flusher(std::size_t{64} << 20, stream);
  TimingConfig config;
  config.iters = 6;
  config.warmup = 1;
  const RunFn write_big = [&](cudaStream_t s) { big.fill_bytes(1, s); };
  const RunFn write_small = [&](cudaStream_t s) { small.fill_bytes(2, s); };
  const std::vector<double> slow_first = time_pair_ratios(write_big, write_small, config, &flusher, stream);
  const std::vector<double> fast_first = time_pair_ratios(write_small, write_big, config, &flusher, stream);
  REQUIRE(slow_first.size() == 6);
  REQUIRE(fast_first.size() == 6);
  for (int p = 0; p < 6; ++p) {  // 16x the bytes: several times slower in every pair and order
    CAPTURE(p, slow_first[p], fast_first[p]);
    CHECK(slow_first[p] > 2.0);
    CHECK(fast_first[p] < 0.5);
  }
  config.iters = 0;
  CHECK_APP_ERROR(time_pair_ratios(write_big, write_small, config, &flusher, stream), Errc::invalid_argument,
                  "timed runs must be at least 1 (got 0)");
}
