// CPU tests of the autotuner's search space and sampling rule: the enumeration of tunable Hopper
// configurations (against the kernel registry and a fake H100), the options a configuration
// becomes, and tuning_sample's band / N rule. No GPU needed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "bsrflow/core/device_info.hpp"
#include "support/expect_error.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/gemm_tunables.hpp"
#include "bsrflow/ops/gemm_tuner.hpp"
#include "bsrflow/ops/sm90_choose.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"
#include "bsrflow/ops/sm90_kernels.hpp"
#include "bsrflow/ops/sm90_schedule_build.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"
#include "support/fake_device.hpp"

using namespace bsrflow;

namespace {

using test::fake_h100;

int g_storage[4];

}  // namespace

TEST_CASE("tunable variants are exactly the instantiated kernels of the problem", "[ops][tuning]") {
  for (const DType in : {DType::f16, DType::bf16})
    for (const Layout b : {Layout::row_major, Layout::col_major})
      for (const int R : {16, 32, 64, 128})
        for (const int C : {16, 32, 64, 128}) {
          CAPTURE(dtype_name(in), R, C, b == Layout::row_major);
          const std::vector<Sm90KernelVariant> vs = tunable_variants(in, R, C, b);
          // The heuristic's choice is always among them (the tuned table covers every shape).
          const sm90::Tuning t = sm90::tuned_for(R, C, b, 8192, false);
          CHECK(std::find(vs.begin(), vs.end(), Sm90KernelVariant{t.swath, t.orientation, std::min(C, 64)}) !=
                vs.end());
          // Each one is a real, non-probe kernel whose chunk divides C (row groups: is C, on their
          // own block shapes).
          for (const Sm90KernelVariant& v : vs) {
            CHECK(C % v.k_chunk == 0);
            if (v.row_group > 1) CHECK((v.k_chunk == C && sm90::row_group_shape(R, C)));
            if (v.items_per_stage > 1) CHECK(sm90::two_items_shape(R, C, v.row_group));
            const sm90::KernelKey key{in, R, v.k_chunk, v.swath, v.orientation == GemmOrientation::swap,
                                      b == Layout::col_major, false, v.row_group, v.items_per_stage};
            CHECK(sm90::find_kernel(key) != nullptr);
          }
          // ... and every such kernel is in the list.
          for (const sm90::KernelEntry& e : sm90::all_kernels())
            if (!e.key.copy_only && e.key.in == in && e.key.R == R && e.key.b_col_major == (b == Layout::col_major) &&
                C % e.key.k_chunk == 0 && (e.key.row_group == 1 || (e.key.k_chunk == C && sm90::row_group_shape(R, C))))
              CHECK(std::find(vs.begin(), vs.end(),
                              Sm90KernelVariant{e.key.swath,
                                                e.key.swap ? GemmOrientation::swap : GemmOrientation::direct,
                                                e.key.k_chunk, e.key.row_group, e.key.items_per_stage}) != vs.end());
        }
  CHECK(tunable_variants(DType::f32, 64, 64, Layout::row_major).empty());
  CHECK(tunable_variants(DType::f16, 8, 8, Layout::row_major).empty());
  // The alternatives of f16 row-major B: 64x64 has the tuned direct/256 and swap/256.
  const std::vector<Sm90KernelVariant> v64 = tunable_variants(DType::f16, 64, 64, Layout::row_major);
  CHECK(std::find(v64.begin(), v64.end(), Sm90KernelVariant{256, GemmOrientation::swap, 64}) != v64.end());
}

TEST_CASE("tunable configurations on a fake H100: variants x stages x split", "[ops][tuning]") {
  const DeviceInfo h100 = fake_h100();
  for (const int R : {16, 32, 64, 128}) {
    CAPTURE(R);
    const std::vector<GemmTunedConfig> cs = tunable_configs(DType::f16, R, R, Layout::row_major, h100);
    REQUIRE(!cs.empty());
    std::set<std::string> names;
    for (const GemmTunedConfig& c : cs) {
      CHECK(names.insert(c.name()).second);  // no duplicates
      CHECK(tunable_config_problem(DType::f16, R, R, Layout::row_major, c).empty());
      // Every stage count fits the device, and the planner accepts the configuration as given.
      const GemmBsrOperand A{8 * R, 8 * R, R, R, 1, &g_storage[0], &g_storage[1], &g_storage[2]};
      const DenseDesc B{8 * R, 1024, 1024, Layout::row_major, DType::f16};
      const DenseDesc C{8 * R, 1024, 1024, Layout::row_major, DType::f16};
      const sm90::Choice choice = sm90::choose(A, DType::f16, B, C, options_for(c), h100);
      REQUIRE(choice.use_sm90);
      CHECK(choice.config.swath == c.variant.swath);
      CHECK(choice.config.orientation == c.variant.orientation);
      CHECK(choice.config.k_chunk() == c.variant.k_chunk);
      CHECK(choice.config.row_group == c.variant.row_group);
      CHECK(choice.config.stages == c.stages);
    }
    // The heuristic's configuration (deepest ring, split rows) is one of them.
    const GemmBsrOperand A{8 * R, 8 * R, R, R, 1, &g_storage[0], &g_storage[1], &g_storage[2]};
    const DenseDesc B{8 * R, 1024, 1024, Layout::row_major, DType::f16};
    const sm90::Choice h = sm90::choose(A, DType::f16, B, B, GemmOptions{}, h100);
    const GemmTunedConfig hc{{h.config.swath, h.config.orientation, h.config.k_chunk(), h.config.row_group},
                             h.config.stages, true};
    CHECK(std::find(cs.begin(), cs.end(), hc) != cs.end());
    // A cached plan of the heuristic's configuration (options_for, as plan_gemm's cache hit does)
    // runs the same kernel, but its Sm90Config names the k-chunk (kc) where the heuristic's leaves
    // it 0 (except a tuned chunk, tuning_sm90.hpp tuned_k_chunk): plan configs must be compared with
    // kc resolved (the [gpu][tuning] round-trip test).
    const sm90::Choice again = sm90::choose(A, DType::f16, B, B, options_for(hc), h100);
    REQUIRE(again.use_sm90);
    CHECK(again.entry == h.entry);
    CHECK(h.config.kc == sm90::tuned_k_chunk(R, R, Layout::row_major, h.config.swath));
    CHECK(again.config.kc == h.config.k_chunk());
    Sm90Config resolved = h.config;
    resolved.kc = resolved.k_chunk();
    CHECK(again.config == resolved);
    // Two depths per variant (deepest and half), both split settings.
    CHECK(cs.size() == tunable_variants(DType::f16, R, R, Layout::row_major).size() * 2 * 2);
  }
  DeviceInfo a100 = h100;
  a100.cc_major = 8;
  CHECK(tunable_configs(DType::f16, 64, 64, Layout::row_major, a100).empty());
  DeviceInfo tiny = h100;
  tiny.smem_per_block_optin = 1024;  // nothing fits
  CHECK(tunable_configs(DType::f16, 64, 64, Layout::row_major, tiny).empty());
}

TEST_CASE("the GPU test's pattern splits its long row on an H100 and an H200", "[ops][tuning]") {
  // "every tunable configuration is exact" (test_sm90_gemm.cu): 10 block rows, one of 24 blocks
  // and one of 1, N = 1096 (3 swaths of 512); the split and no-split schedules must differ.
  for (const int sms : {132, 114, 144})
    for (const int R : {16, 32, 64, 128}) {
      const int limit = sm90::split_limit(25, 10, 3, sms, sm90::split_per_cta_fraction(R));
      CHECK(limit == 16);
      CHECK(sm90::pieces_for(24, limit) == 2);
    }
}

TEST_CASE("tunable configuration names and options", "[ops][tuning]") {
  const GemmTunedConfig c{{512, GemmOrientation::swap, 32}, 6, false};
  CHECK(c.name() == "swath512_swap_kc32_s6_nosplit");
  CHECK(GemmTunedConfig{{256, GemmOrientation::direct, 64}, 5, true}.name() == "swath256_direct_kc64_s5");
  GemmOptions base;
  base.max_ctas = 7;
  base.tma_store_epilogue = false;
  base.single_box_b = false;
  base.tuning = GemmTuning::exhaustive;
  const GemmOptions o = options_for(c, base);
  CHECK(o.kernel == GemmOptions::Choice::sm90);
  CHECK(o.swath == 512);
  CHECK(o.orientation == GemmOrientation::swap);
  CHECK(o.k_chunk == 32);
  CHECK(o.stages == 6);
  CHECK(!o.split_long_rows);
  CHECK(o.tuning == GemmTuning::off);  // a forced configuration is never re-tuned
  CHECK(o.max_ctas == 7);              // the caller's launch limits survive
  CHECK(!o.tma_store_epilogue);
  CHECK(!o.single_box_b);
  CHECK(tunable_config_problem(DType::f16, 64, 64, Layout::row_major, c) ==
        "configuration swath512_swap_kc32_s6_nosplit is not an instantiated kernel for f16 64x64 blocks with "
        "row-major B");
  CHECK(tunable_config_problem(DType::f16, 32, 64, Layout::row_major, {{512, GemmOrientation::swap, 32}, 9, true}) ==
        "configuration swath512_swap_kc32_s9 has 9 stages, outside [2, 8]");
}

TEST_CASE("tuning sample: the whole problem when it fits, else fewer columns and a centred band", "[ops][tuning]") {
  // 1000 block rows of 4 blocks each (R = C = 64), K = 8192, N = 8192, f16 in and out.
  std::vector<int> row_ptr(1001);
  for (int i = 0; i <= 1000; ++i) row_ptr[i] = 4 * i;
  const std::size_t a_bytes = 4000ull * 64 * 64 * 2;      // 32.8 MB
  const std::size_t b_bytes = 8192ull * 8192 * 2;         // 134 MB
  const std::size_t c_bytes = 1000ull * 64 * 8192 * 2;    // 1049 MB
  const std::size_t all = a_bytes + b_bytes + c_bytes;

  TuningSample s = tuning_sample(row_ptr, 64, 64, 8192, 8192, 2, 2, all, 132);
  CHECK(s.whole);
  CHECK(s.first_block_row == 0);
  CHECK(s.block_rows == 1000);
  CHECK(s.n == 8192);

  // 60% of the budget: B fits in half of it, so N stays; the band halves once (500 rows).
  s = tuning_sample(row_ptr, 64, 64, 8192, 8192, 2, 2, all * 6 / 10, 132);
  CHECK(!s.whole);
  CHECK(s.n == 8192);
  CHECK(s.block_rows == 500);
  CHECK(s.first_block_row == 250);  // centred

  // A budget below B's size: N halves (multiples of 512) until B takes at most half of it.
  s = tuning_sample(row_ptr, 64, 64, 8192, 8192, 2, 2, b_bytes / 2, 132);
  CHECK(s.n == 2048);
  CHECK(8192ull * s.n * 2 <= b_bytes / 4);
  CHECK(s.n % 512 == 0);

  // A tiny budget: never fewer than 4 waves of tiles (4 x 132 tiles at 1 swath of 512 -> 528 rows).
  s = tuning_sample(row_ptr, 64, 64, 8192, 8192, 2, 2, 1 << 20, 132);
  CHECK(s.n == 512);
  CHECK(s.block_rows >= 528);
  CHECK(s.block_rows / 2 < 528);
  CHECK(s.first_block_row == (1000 - s.block_rows) / 2);
}

TEST_CASE("plan_gemm says where its configuration came from and why tuning did not apply", "[ops][tuning]") {
  // The reference kernel needs no device at plan time, so this runs on the CPU.
  const GemmBsrOperand A{64, 64, 16, 16, 1, &g_storage[0], &g_storage[1], nullptr};
  const DenseDesc B{64, 32, 32, Layout::row_major, DType::f32};
  const DenseDesc C{64, 32, 32, Layout::row_major, DType::f32};
  GemmOptions o;
  o.kernel = GemmOptions::Choice::reference;
  const GemmPlan off = plan_gemm(A, DType::f32, B, C, o);
  CHECK(off.tuning_source() == TuningSource::options);
  CHECK(off.tuning_note().empty());
  for (const GemmTuning t : {GemmTuning::cached, GemmTuning::exhaustive}) {
    o.tuning = t;
    const GemmPlan p = plan_gemm(A, DType::f32, B, C, o);
    CHECK(p.kernel() == GemmKernel::reference);
    CHECK(p.tuning_source() == TuningSource::options);
    CHECK(p.tuning_note() ==
          "tuning not applied: the reference kernel runs (GemmOptions asked for the reference kernel)");
  }
  CHECK(std::string(tuning_source_name(TuningSource::heuristic)) == "heuristic");
  CHECK(std::string(tuning_source_name(TuningSource::options)) == "options");
  CHECK(std::string(tuning_source_name(TuningSource::cache)) == "cache");
  CHECK(std::string(tuning_source_name(TuningSource::tuned)) == "tuned");
}

TEST_CASE("the tuner's choice: the fastest candidate only when it beats the heuristic by the margin", "[ops][tuning]") {
  const GemmTunedConfig h{{256, GemmOrientation::direct, 64}, 5, true};
  const GemmTunedConfig a{{256, GemmOrientation::swap, 64}, 5, true};
  const GemmTunedConfig b{{256, GemmOrientation::direct, 32}, 8, true};
  const TimedConfig heuristic{h, 1.0};
  // Clearly faster: the fastest wins.
  TimedConfig w = pick_winner(heuristic, {{a, 0.95}, {b, 0.90}}, 0.01);
  CHECK(w.config == b);
  CHECK(w.ms == 0.90);
  // Faster, but within the margin: the heuristic stays.
  w = pick_winner(heuristic, {{a, 0.995}}, 0.01);
  CHECK(w.config == h);
  CHECK(w.ms == 1.0);
  // Exactly at the margin is not beyond it.
  w = pick_winner(heuristic, {{a, 0.99}}, 0.01);
  CHECK(w.config == h);
  // Slower candidates, or none: the heuristic.
  CHECK(pick_winner(heuristic, {{a, 1.5}, {b, 1.01}}, 0.01).config == h);
  CHECK(pick_winner(heuristic, {}, 0.01).config == h);
  // Ties between candidates: the first one measured.
  CHECK(pick_winner(heuristic, {{a, 0.5}, {b, 0.5}}, 0.01).config == a);
}

TEST_CASE("the tuner's confirmation round: the median pair gain must pass the margin", "[ops][tuning]") {
  CHECK(median_gain({1.2}) == 1.2);
  CHECK(median_gain({1.03, 0.9, 1.5}) == 1.03);                    // odd count: the middle one
  CHECK(median_gain({1.0, 1.04, 1.02, 2.0}) == Approx(1.03));      // even: the mean of the middle two
  CHECK(winner_confirmed({1.05, 1.04, 0.98, 1.06, 1.02}, 0.01));    // most pairs clearly faster
  CHECK_FALSE(winner_confirmed({1.2, 1.3, 0.99, 0.99, 0.995}, 0.01));  // a few large outliers do not carry it
  CHECK_FALSE(winner_confirmed({1.009, 1.009, 1.009}, 0.01));         // faster, but within the margin
  CHECK_FALSE(winner_confirmed({0.97, 0.98, 0.99}, 0.01));            // slower in pairs
  BSRFLOW_CHECK_ERROR(median_gain({}), Errc::invalid_argument, "median_gain: no pairs");
}
