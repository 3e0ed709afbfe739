#include "bsrflow/ops/gemm_tunables.hpp"

#include <algorithm>
#include <tuple>

#include "bsrflow/ops/sm90_choose.hpp"
#include "bsrflow/ops/sm90_kernels.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow {

std::string GemmTunedConfig::name() const {
  std::string s = "swath" + std::to_string(variant.swath) +
                  (variant.orientation == GemmOrientation::swap ? "_swap" : "_direct") + "_kc" +
                  std::to_string(variant.k_chunk);
  s += row_group_suffix(variant.row_group, variant.items_per_stage);
  s += "_s" + std::to_string(stages);
  if (!split_long_rows) s += "_nosplit";
  return s;
}

std::vector<Sm90KernelVariant> tunable_variants(DType in, int R, int C, Layout b_layout) {
  std::vector<Sm90KernelVariant> out;
  if (!sm90::supported_block_dim(R) || !sm90::supported_block_dim(C)) return out;
  for (const sm90::KernelEntry& e : sm90::all_kernels()) {
    const sm90::KernelKey& k = e.key;
    // Row-group kernels load whole blocks: only for their own block shape.
    if (k.row_group > 1 && (k.k_chunk != C || !sm90::row_group_shape(R, C))) continue;
    if (k.copy_only || k.in != in || k.R != R || k.b_col_major != (b_layout == Layout::col_major) || k.k_chunk > C ||
        C % k.k_chunk != 0)
      continue;
    const Sm90KernelVariant v{k.swath, k.swap ? GemmOrientation::swap : GemmOrientation::direct, k.k_chunk,
                              k.row_group, k.items_per_stage};
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  std::sort(out.begin(), out.end(), [](const Sm90KernelVariant& a, const Sm90KernelVariant& b) {
    return std::tuple(a.swath, a.orientation, a.k_chunk, a.row_group, a.items_per_stage) <
           std::tuple(b.swath, b.orientation, b.k_chunk, b.row_group, b.items_per_stage);
  });
  return out;
}

namespace {

const sm90::KernelEntry* entry_of(DType in, int R, int C, Layout b_layout, const Sm90KernelVariant& v) {
  Sm90Config cfg;
  cfg.in = in;
  cfg.R = R;
  cfg.C = C;
  cfg.swath = v.swath;
  cfg.orientation = v.orientation;
  cfg.b_layout = b_layout;
  cfg.kc = v.k_chunk;
  cfg.row_group = v.row_group;
  cfg.items_per_stage = v.items_per_stage;
  return sm90::find_kernel(sm90::key_of(cfg));
}

}  // namespace

std::vector<int> tunable_stages(DType in, int R, int C, Layout b_layout, const Sm90KernelVariant& variant,
                                const DeviceInfo& device) {
  const sm90::KernelEntry* entry = entry_of(in, R, C, b_layout, variant);
  if (entry == nullptr) return {};
  const int deepest = sm90::max_stages(*entry, device);
  if (deepest == 0) return {};
  const int half = std::max(sm90::kMinStages, deepest / 2);
  if (half == deepest) return {deepest};
  return {deepest, half};
}

std::vector<GemmTunedConfig> tunable_configs(DType in, int R, int C, Layout b_layout, const DeviceInfo& device) {
  std::vector<GemmTunedConfig> out;
  if (!device.is_hopper()) return out;
  for (const Sm90KernelVariant& v : tunable_variants(in, R, C, b_layout))
    for (const int s : tunable_stages(in, R, C, b_layout, v, device))
      for (const bool split : {true, false}) out.push_back({v, s, split});
  return out;
}

std::string tunable_config_problem(DType in, int R, int C, Layout b_layout, const GemmTunedConfig& config) {
  const std::vector<Sm90KernelVariant> variants = tunable_variants(in, R, C, b_layout);
  const std::string problem = std::string(dtype_name(in)) + " " + std::to_string(R) + "x" + std::to_string(C) +
                              " blocks with " + (b_layout == Layout::row_major ? "row" : "column") + "-major B";
  if (std::find(variants.begin(), variants.end(), config.variant) == variants.end())
    return "configuration " + config.name() + " is not an instantiated kernel for " + problem;
  const int deepest = entry_of(in, R, C, b_layout, config.variant)->max_stages;
  if (config.stages < sm90::kMinStages || config.stages > deepest)
    return "configuration " + config.name() + " has " + std::to_string(config.stages) + " stages, outside [" +
           std::to_string(sm90::kMinStages) + ", " + std::to_string(deepest) + "]";
  return {};
}

GemmOptions options_for(const GemmTunedConfig& config, GemmOptions base) {
  base.kernel = GemmOptions::Choice::sm90;
  base.swath = config.variant.swath;
  base.orientation = config.variant.orientation;
  base.k_chunk = config.variant.k_chunk;
  base.row_group = config.variant.row_group;
  base.items_per_stage = config.variant.items_per_stage;
  base.stages = config.stages;
  base.split_long_rows = config.split_long_rows;
  base.tuning = GemmTuning::off;
  return base;
}

}  // namespace bsrflow
