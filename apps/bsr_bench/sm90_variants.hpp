// The Hopper kernel's configurations as bsr_bench systems (--sm90-configs all|LIST).
//
// A variant is what a user chooses per case: the swath, the orientation and the k-chunk; the
// stage count stays the planner's (as deep as fits). The valid variants of a case are the
// instantiated, non-copy-only kernels for its dtype, block height, block width (the k-chunk must
// divide it) and B layout: ops/gemm_tunables.hpp's tunable_variants, the autotuner's own
// enumeration. Each one runs as its own system, named by the plan (GemmPlan::name(), e.g.
// "bsr_sm90_f16_r64c64_swath256_s5"); its records also carry the variant's name
// ("swath256_direct") so that a chart can follow one variant across block shapes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bsrflow/apps/bsr_bench/bench_case.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/ops/gemm_plan.hpp"

namespace bsrflow::bench {

struct Sm90Variant {
  int swath = 0;
  GemmOrientation orientation = GemmOrientation::direct;
  int k_chunk = 0;  // 0 = the kernel's default for the block width, min(C, 64)
  int row_group = 1;  // block rows per tile (GemmOptions::row_group)
  int items_per_stage = 1;  // row-group items per ring stage (GemmOptions::items_per_stage)
  bool operator==(const Sm90Variant&) const = default;
};

// "swath256_direct", "swath512_swap", "swath256_direct_kc32" (the k-chunk only when set),
// "swath512_swap_g4" (row groups), "swath512_swap_g4x2" (two row-group items per stage).
std::string variant_name(const Sm90Variant& v);
// The inverse of variant_name. Error(invalid_argument) naming --sm90-configs for anything else.
Sm90Variant parse_variant(std::string_view name);

struct Sm90Request {
  bool all = false;                   // every valid variant of every case at the default k-chunk
  std::vector<Sm90Variant> variants;  // these, in each case where they are valid
  bool empty() const { return !all && variants.empty(); }
  bool operator==(const Sm90Request&) const = default;
};

// "all" or a comma-separated list of variant names (duplicates dropped).
Sm90Request parse_sm90_request(std::string_view text);

// The valid variants of `c`, k-chunk 0 where it is the default, ordered by swath, then direct
// before swap, then k-chunk.
std::vector<Sm90Variant> valid_variants(const BenchCase& c);

// What `request` runs for `c`: for `all` every valid variant at the default k-chunk (the others
// only by name, so that `all` stays one or two systems per case), else the listed ones that are
// valid for `c` (a listed k-chunk equal to the default counts as the default).
std::vector<Sm90Variant> requested_variants(const Sm90Request& request, const BenchCase& c);

// Error(invalid_argument) when a listed variant is valid for none of `cases`, or when `all`
// finds nothing to run.
void check_sm90_request(const Sm90Request& request, const std::vector<BenchCase>& cases);

// Every variant name some case can run (for --list-systems).
std::vector<std::string> all_variant_names();

// Options that force the Hopper kernel (no fallback) in `v`; {} gives the tuned configuration.
GemmOptions sm90_options(const Sm90Variant& v = {});

// sm90_options for variant `v` of case `c` with its k-chunk pinned: a variant named without one
// runs the block's default chunk (min(C, 64)), not the chunk the planner would tune
// (tuning_sm90.hpp tuned_k_chunk), so "swath256_direct" and "swath256_direct_kc32" stay different.
GemmOptions sm90_variant_options(const Sm90Variant& v, const BenchCase& c);

// The copy-only speed-of-light probe of a planned configuration: the same swath, orientation,
// k-chunk and stages, copy_only set, the Hopper kernel forced.
GemmOptions copy_probe_options(const Sm90Config& planned);

// The name plan_gemm gives the Hopper plan of `c` with `options` on `device` (pure host code, so
// CPU tests can use a fake device). Throws Error(unsupported) where plan_gemm would.
std::string sm90_plan_name(const BenchCase& c, const GemmOptions& options, const DeviceInfo& device);

}  // namespace bsrflow::bench
