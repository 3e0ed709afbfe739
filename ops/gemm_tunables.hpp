// The tunable configurations of the Hopper BSR GEMM: one enumeration that the autotuner, its
// cache validation, the GPU tests and bsr_bench's --sm90-configs all use.
//
// A tunable configuration is what a plan may choose per pattern: the kernel variant (swath,
// orientation, k-chunk: a compile-time instantiation, sm90_instances.cuh), the ring depth, and
// whether long rows are split across CTAs. The variant must be instantiated for the dtype,
// block shape and B layout; the ring depth must fit the device's shared memory.
#pragma once

#include <string>
#include <vector>

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/formats/dense.hpp"
#include "bsrflow/ops/gemm_config.hpp"
#include "bsrflow/ops/gemm_plan.hpp"

namespace bsrflow {

// The compile-time part: one instantiated kernel (copy-only probes excluded).
struct Sm90KernelVariant {
  int swath = 0;
  GemmOrientation orientation = GemmOrientation::direct;
  int k_chunk = 0;  // explicit (never 0 in the enumeration)
  int row_group = 1;  // block rows per tile (Sm90Config::row_group)
  int items_per_stage = 1;  // row-group items per ring stage (Sm90Config::items_per_stage)
  friend bool operator==(const Sm90KernelVariant&, const Sm90KernelVariant&) = default;
};

struct GemmTunedConfig {
  Sm90KernelVariant variant;
  int stages = 0;
  bool split_long_rows = true;
  // "swath256_direct_kc64_s5", "swath512_swap_kc16_g4_s12", "swath512_swap_kc16_g4x2_s6", plus
  // "_nosplit" when rows are not split.
  std::string name() const;
  friend bool operator==(const GemmTunedConfig&, const GemmTunedConfig&) = default;
};

// Instantiated, non-probe variants for (in, R, C, B layout), ordered by swath, then direct
// before swap, then k-chunk, then row group, then items per stage. Empty where the Hopper kernel does not apply (dtype, block shape).
std::vector<Sm90KernelVariant> tunable_variants(DType in, int R, int C, Layout b_layout);

// Ring depths the tuner tries for `variant` on `device`: the deepest that fits (the heuristic's
// choice) and half of it (at least kMinStages). Empty when not even kMinStages fit.
// NOTES: two depths, not every depth in [kMinStages, deepest], to bound the search time (it grows
// linearly with the candidates). No stage sweep of this kernel is logged yet (perf_log.md); the
// copy-only probe found deeper rings no better (DESIGN.md: 24 stages worse than 8). Widen this
// if a measurement shows depth matters.
std::vector<int> tunable_stages(DType in, int R, int C, Layout b_layout, const Sm90KernelVariant& variant,
                                const DeviceInfo& device);

// Every tunable configuration on `device`: variants x stages x {split, no split}.
std::vector<GemmTunedConfig> tunable_configs(DType in, int R, int C, Layout b_layout, const DeviceInfo& device);

// Without a device (validating a cache file): the variant is instantiated for (in, R, C,
// b_layout) and stages lie in [kMinStages, its kernel's deepest ring]. "" when valid, else why not.
std::string tunable_config_problem(DType in, int R, int C, Layout b_layout, const GemmTunedConfig& config);

// `base` with the Hopper kernel forced into `config` (kernel = sm90, so that a configuration that
// cannot be honoured fails loudly instead of silently falling back).
GemmOptions options_for(const GemmTunedConfig& config, GemmOptions base = {});

}  // namespace bsrflow
