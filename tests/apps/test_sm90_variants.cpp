// CPU tests of bsr_bench's Hopper configuration systems (--sm90-configs): names, parsing, which
// variants each case can run (from the kernel registry), and the plan names they get on a fake
// H100, including the copy-only probe of the tuned configuration.
#include <catch2/catch.hpp>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/bsr_bench/sm90_variants.hpp"
#include "support/fake_device.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {
BenchCase square(int b, DType t = DType::f16, Layout bl = Layout::row_major) {
  BenchCase c;
  c.m = c.n = c.k = 1024;
  c.R = c.C = b;
  c.dtype = t;
  c.b_layout = bl;
  return c;
}
std::vector<std::string> names(const std::vector<Sm90Variant>& vs) {
  std::vector<std::string> out;
  for (const auto& v : vs) out.push_back(variant_name(v));
  return out;
}
using test::fake_h100;
}  // namespace

TEST_CASE("sm90 variant names round-trip and bad names say what is wrong", "[apps]") {
  using V = Sm90Variant;
  for (const V& v : {V{256, GemmOrientation::direct, 0}, V{512, GemmOrientation::swap, 0},
                     V{256, GemmOrientation::direct, 32}, V{128, GemmOrientation::direct, 64},
                     V{1024, GemmOrientation::swap, 0}, V{512, GemmOrientation::swap, 0, 4},
                     V{512, GemmOrientation::swap, 16, 4}, V{512, GemmOrientation::swap, 0, 4, 2}})
    CHECK(parse_variant(variant_name(v)) == v);
  CHECK(variant_name({512, GemmOrientation::swap, 0, 4, 2}) == "swath512_swap_g4x2");
  CHECK_APP_ERROR(parse_variant("swath512_swap_g4x3"), Errc::invalid_argument,
                  "'swath512_swap_g4x3' has 3 items per stage; the row-group kernels take 1 or 2");
  CHECK_APP_ERROR(parse_variant("swath512_swap_g4x0"), Errc::invalid_argument, "has 0 items per stage");
  for (const char* bad : {"swath512_swap_g4x", "swath512_swap_g4xx2", "swath512_swap_gx2", "swath512_swap_x2"})
    CHECK_APP_ERROR(parse_variant(bad), Errc::invalid_argument, "is not a configuration name");
  CHECK(variant_name({512, GemmOrientation::swap, 0, 4}) == "swath512_swap_g4");
  CHECK(variant_name({512, GemmOrientation::swap, 16, 4}) == "swath512_swap_kc16_g4");
  CHECK_APP_ERROR(parse_variant("swath512_swap_g2"), Errc::invalid_argument,
                  "'swath512_swap_g2' has row group 2; the kernel's row groups hold 4 block rows");
  CHECK_APP_ERROR(parse_variant("swath512_swap_g4_kc16"), Errc::invalid_argument, "is not a configuration name");
  CHECK(variant_name({256, GemmOrientation::direct, 32}) == "swath256_direct_kc32");
  CHECK(variant_name({512, GemmOrientation::swap, 0}) == "swath512_swap");
  const std::string form = "is not a configuration name (expected all, or names like swath256_direct";
  for (const char* bad : {"swath256", "256_direct", "swath_direct", "swathX_swap", "swath256_direct_kc", "swath256_direct_32",
                          "swath256_direct_kc32_s4", ""})
    CHECK_APP_ERROR(parse_variant(bad), Errc::invalid_argument, "--sm90-configs: '" + std::string(bad) + "' " + form);
  CHECK_APP_ERROR(parse_variant("swath300_swap"), Errc::invalid_argument,
                  "--sm90-configs: 'swath300_swap' has swath 300; the kernel's swaths are 128, 256, 512 and 1024");
  CHECK_APP_ERROR(parse_variant("swath256_sideways"), Errc::invalid_argument,
                  "'swath256_sideways' has orientation 'sideways'; expected direct or swap");
  CHECK_APP_ERROR(parse_variant("swath256_direct_kc48"), Errc::invalid_argument,
                  "has k-chunk 48; the kernel's k-chunks are 16, 32 and 64");
}

TEST_CASE("sm90 configuration requests: all, or a list without duplicates", "[apps]") {
  CHECK(parse_sm90_request("all").all);
  CHECK(parse_sm90_request("all").variants.empty());
  const Sm90Request r = parse_sm90_request("swath256_swap,swath512_swap,swath256_swap");
  CHECK_FALSE(r.all);
  CHECK(names(r.variants) == std::vector<std::string>{"swath256_swap", "swath512_swap"});
  CHECK(Sm90Request{}.empty());
  CHECK_APP_ERROR(parse_sm90_request("all,swath256_swap"), Errc::invalid_argument,
                  "--sm90-configs: 'all' cannot be combined with named configurations");
  CHECK_APP_ERROR(parse_sm90_request("swath256_swap,"), Errc::invalid_argument, "--sm90-configs: empty name");
}

TEST_CASE("valid variants come from the instantiated kernels of the case's shape", "[apps]") {
  // f16, row-major B: the tuned configuration, the measured alternatives, and the tuned kernels
  // of narrower blocks whose k-chunk divides C.
  CHECK(names(valid_variants(square(16))) ==
        std::vector<std::string>{"swath256_swap", "swath512_swap", "swath512_swap_g4", "swath512_swap_g4x2",
                                 "swath1024_swap"});
  CHECK(names(valid_variants(square(32))) ==
        std::vector<std::string>{"swath256_swap", "swath256_swap_g4", "swath512_swap_kc16", "swath512_swap"});
  CHECK(names(valid_variants(square(64))) == std::vector<std::string>{"swath256_direct_kc16", "swath256_direct_kc32",
                                                                      "swath256_direct", "swath256_swap",
                                                                      "swath512_direct_kc32"});
  CHECK(names(valid_variants(square(128))) == std::vector<std::string>{"swath128_direct", "swath256_direct_kc16",
                                                                       "swath256_direct_kc32", "swath256_direct"});
  // bf16 and column-major B have the tuned configurations only (at R = 16 with 16-deep chunks
  // both swaths: 512, and 1024 for row-major B with N > 512; at R = 64 with row-major B the
  // 512-wide swath of near-equal rows).
  CHECK(names(valid_variants(square(64, DType::bf16))) ==
        std::vector<std::string>{"swath256_direct_kc16", "swath256_direct_kc32", "swath256_direct",
                                 "swath512_direct_kc32"});
  CHECK(names(valid_variants(square(64, DType::bf16, Layout::col_major))) ==
        std::vector<std::string>{"swath256_direct_kc16", "swath256_direct_kc32", "swath256_direct"});
  CHECK(names(valid_variants(square(16, DType::f16, Layout::col_major))) ==
        std::vector<std::string>{"swath512_swap", "swath512_swap_g4", "swath512_swap_g4x2", "swath1024_swap"});
  BenchCase odd = square(16);
  odd.R = odd.C = 8;
  CHECK(valid_variants(odd).empty());

  // `all` keeps the default k-chunk; a list picks what each case has (kc64 on C = 64 is the default).
  CHECK(names(requested_variants(parse_sm90_request("all"), square(64))) ==
        std::vector<std::string>{"swath256_direct", "swath256_swap"});
  const Sm90Request list = parse_sm90_request("swath256_swap,swath256_direct_kc64,swath128_direct");
  CHECK(names(requested_variants(list, square(64))) == std::vector<std::string>{"swath256_swap", "swath256_direct"});
  CHECK(names(requested_variants(list, square(128))) ==
        std::vector<std::string>{"swath256_direct", "swath128_direct"});
  CHECK(requested_variants(Sm90Request{}, square(64)).empty());
}

TEST_CASE("sm90 configuration requests are checked: a listed variant must fit some case of the run", "[apps]") {
  CHECK_NOTHROW(check_sm90_request(parse_sm90_request("swath128_direct"), {square(64), square(128)}));
  CHECK_APP_ERROR(check_sm90_request(parse_sm90_request("swath128_direct"), {square(64)}), Errc::invalid_argument,
                  "--sm90-configs: swath128_direct is not instantiated for any case of this run (the case 1024^3 "
                  "64x64 12.5% uniform f16 has: swath256_direct_kc16, swath256_direct_kc32, swath256_direct, "
                  "swath256_swap, swath512_direct_kc32)");
  CHECK_APP_ERROR(check_sm90_request(parse_sm90_request("swath128_swap"), {square(64), square(128)}),
                  Errc::invalid_argument, "swath128_swap is not instantiated for any case of this run (bsr_bench --list-systems");
  BenchCase odd = square(16);
  odd.R = odd.C = 8;
  CHECK_APP_ERROR(check_sm90_request(parse_sm90_request("all"), {odd}), Errc::invalid_argument,
                  "--sm90-configs all: no Hopper configuration is instantiated for any case of this run (the case "
                  "1024^3 8x8 12.5% uniform f16 has: none)");
  CHECK_NOTHROW(check_sm90_request(Sm90Request{}, {odd}));
  const std::vector<std::string> all = all_variant_names();
  CHECK(std::find(all.begin(), all.end(), "swath512_swap_kc16") != all.end());
  CHECK(std::find(all.begin(), all.end(), "swath128_direct_kc64") != all.end());
  CHECK(std::find(all.begin(), all.end(), "swath512_swap_g4") != all.end());  // 16 x 16 row groups
  CHECK(std::find(all.begin(), all.end(), "swath256_swap_g4") != all.end());  // 32 x 32
  CHECK(std::find(all.begin(), all.end(), "swath512_swap_g4x2") != all.end());  // 16 x 16, two items per stage
  CHECK(std::find(all.begin(), all.end(), "swath256_swap_g4x2") == all.end());
}

TEST_CASE("plan names of the variant systems and of the copy-only probe (fake H100)", "[apps]") {
  const DeviceInfo h100 = fake_h100();
  // 64- and 128-row blocks run as CTA pairs (tuning_sm90.hpp tuned_cluster).
  CHECK(sm90_plan_name(square(64), sm90_options(), h100) == "bsr_sm90_f16_r64c64_swath256_s5_pair");
  // 16 x 16 with row-major B: row groups (tuned_row_group), and its probe loads the same way.
  Sm90Config grouped;
  grouped.R = grouped.C = 16;
  grouped.swath = 512;
  grouped.stages = 12;
  grouped.orientation = GemmOrientation::swap;
  grouped.row_group = 4;
  CHECK(sm90_plan_name(square(16), sm90_options(), h100) == "bsr_sm90_f16_r16c16_swath512_s12_swap_g4");
  CHECK(sm90_plan_name(square(16), copy_probe_options(grouped), h100) == "bsr_sm90_f16_r16c16_swath512_s12_swap_g4_copy");
  CHECK(sm90_plan_name(square(16), sm90_options({512, GemmOrientation::swap, 0}), h100) ==
        "bsr_sm90_f16_r16c16_swath512_s8_swap");  // a named one-row variant stays one row
  // Two items per stage: the H200's tuned form (its memory moves 4.8 TB/s), six 36 KiB stages; on
  // the H100 by name only, and a named one-item variant stays one item on the H200.
  const DeviceInfo h200 = test::fake_h200();
  CHECK(sm90_plan_name(square(16), sm90_options(), h200) == "bsr_sm90_f16_r16c16_swath512_s6_swap_g4x2");
  CHECK(sm90_plan_name(square(16), sm90_options({512, GemmOrientation::swap, 0, 4, 2}), h100) ==
        "bsr_sm90_f16_r16c16_swath512_s6_swap_g4x2");
  CHECK(sm90_plan_name(square(16), sm90_options({512, GemmOrientation::swap, 0, 4}), h200) ==
        "bsr_sm90_f16_r16c16_swath512_s12_swap_g4");
  grouped.items_per_stage = 2;
  grouped.stages = 6;
  CHECK(sm90_plan_name(square(16), copy_probe_options(grouped), h200) == "bsr_sm90_f16_r16c16_swath512_s6_swap_g4x2_copy");
  CHECK(sm90_plan_name(square(32), sm90_options(), h200) == "bsr_sm90_f16_r32c32_swath256_s8_swap_g4");  // 12.5%: row groups
  BenchCase dense32 = square(32);
  dense32.density = 0.25;
  CHECK(sm90_plan_name(dense32, sm90_options(), h200) == "bsr_sm90_f16_r32c32_swath256_s8_swap_g4");
  CHECK(sm90_plan_name(square(16), sm90_options({256, GemmOrientation::swap, 0}), h100) ==
        "bsr_sm90_f16_r16c16_swath256_s8_swap");
  CHECK(sm90_plan_name(square(128), sm90_options({256, GemmOrientation::direct, 32}), h100) ==
        "bsr_sm90_f16_r128c128_swath256_s8_kc32_pair");
  // A variant named without a k-chunk runs the block's default chunk, not the tuned one.
  BenchCase narrow = square(16);
  narrow.C = 64;
  CHECK(sm90_plan_name(narrow, sm90_options(), h100) == "bsr_sm90_f16_r16c64_swath512_s6_kc32_swap");
  CHECK(sm90_plan_name(narrow, sm90_variant_options({512, GemmOrientation::swap, 0}, narrow), h100) ==
        "bsr_sm90_f16_r16c64_swath512_s3_swap");
  // At R = 128 the tuned chunk is the default one (perf_log entry 54).
  CHECK(sm90_plan_name(square(128), sm90_options(), h100) == "bsr_sm90_f16_r128c128_swath256_s4_pair");
  CHECK(sm90_plan_name(square(128), sm90_variant_options({256, GemmOrientation::direct, 0}, square(128)), h100) ==
        "bsr_sm90_f16_r128c128_swath256_s4_pair");
  CHECK(sm90_plan_name(square(64, DType::bf16, Layout::col_major), sm90_options(), h100) ==
        "bsr_sm90_bf16_r64c64_swath256_s5_bcol_pair");
  CHECK_APP_ERROR(sm90_plan_name(square(64), sm90_options({512, GemmOrientation::swap, 0}), h100), Errc::unsupported,
                  "no sm90 kernel is instantiated for bsr_sm90_f16_r64c64_swath512");
  DeviceInfo a100 = h100;
  a100.cc_major = 8;
  CHECK_APP_ERROR(sm90_plan_name(square(64), sm90_options(), a100), Errc::unsupported, "the sm90 kernel needs sm_90");

  // The probe: the tuned configuration (stages included) with copy_only.
  Sm90Config tuned;
  tuned.R = tuned.C = 64;
  tuned.swath = 256;
  tuned.stages = 5;
  const GemmOptions probe = copy_probe_options(tuned);
  CHECK(probe.copy_only);
  CHECK(probe.kernel == GemmOptions::Choice::sm90);
  CHECK(probe.stages == 5);
  CHECK(sm90_plan_name(square(64), probe, h100) == "bsr_sm90_f16_r64c64_swath256_s5_pair_copy");
  Sm90Config small = tuned;
  small.R = small.C = 16;
  small.swath = 512;
  small.stages = 8;
  small.orientation = GemmOrientation::swap;
  CHECK(sm90_plan_name(square(16), copy_probe_options(small), h100) == "bsr_sm90_f16_r16c16_swath512_s8_swap_copy");
  // Non-square blocks have their probe too (every tuned configuration has one).
  BenchCase wide = square(16);
  wide.C = 64;
  Sm90Config wide_tuned = small;
  wide_tuned.C = 64;
  wide_tuned.stages = 3;
  CHECK(sm90_plan_name(wide, copy_probe_options(wide_tuned), h100) == "bsr_sm90_f16_r16c64_swath512_s3_swap_copy");
  // A configuration outside the tuned list has none: that case would fall back to the L2 model.
  Sm90Config untuned = tuned;
  untuned.swath = 128;
  untuned.stages = 4;
  CHECK_APP_ERROR(sm90_plan_name(square(64), copy_probe_options(untuned), h100), Errc::unsupported,
                  "no sm90 kernel is instantiated for bsr_sm90_f16_r64c64_swath128_s4_pair_copy");
}
