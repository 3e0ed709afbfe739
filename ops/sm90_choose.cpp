#include "bsrflow/ops/sm90_choose.hpp"

#include <algorithm>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow::sm90 {
namespace {

std::string str(int v) { return std::to_string(v); }
std::string str(std::int64_t v) { return std::to_string(v); }

// The first reason the Hopper kernel cannot take this GEMM, or "" if it can.
std::string rejection(const GemmBsrOperand& A, DType in, const DenseDesc& B, const DenseDesc& C,
                      const DeviceInfo& device) {
  if (in != DType::f16 && in != DType::bf16)
    return "the sm90 kernel takes f16/bf16 inputs, not " + std::string(dtype_name(in));
  if (!device.is_hopper())
    return "GPU " + device.name + " is sm_" + str(device.compute_capability()) + "; the sm90 kernel needs sm_90";
  if (!supported_block_dim(A.R) || !supported_block_dim(A.C))
    return "block shape " + str(A.R) + " x " + str(A.C) + ": the sm90 kernel takes R, C in {16, 32, 64, 128}";
  if (B.cols % 8 != 0) return "N (" + str(B.cols) + ") is not a multiple of 8";
  if (B.ld % 8 != 0)
    return "ldb (" + str(B.ld) + ") is not a multiple of 8 (TMA needs 16-byte aligned rows)";
  if (C.ld % 8 != 0) return "ldc (" + str(C.ld) + ") is not a multiple of 8 (vector stores need it)";
  return {};
}

}  // namespace

int max_stages(const KernelEntry& entry, const DeviceInfo& device) {
  const auto fits = [&](int s) { return static_cast<std::size_t>(entry.smem_bytes(s)) <= device.smem_per_block_optin; };
  int s = entry.max_stages;
  while (s >= kMinStages && !fits(s)) --s;
  return s >= kMinStages ? s : 0;
}

namespace {

// The options leave swath, k-chunk and orientation to the planner. The tuned geometries that
// depend on the pattern (the wide swath at R = 64, row groups) exist with their own tuned values
// only, so any of the three fixed by the caller names the standard kernel (an explicit k-chunk must
// not meet a missing kernel).
bool geometry_left_to_planner(const GemmOptions& options) {
  return options.swath == 0 && options.k_chunk == 0 && !options.orientation;
}

}  // namespace

bool choice_reads_rows(const GemmBsrOperand& A, const DenseDesc& B, const GemmOptions& options) {
  return geometry_left_to_planner(options) && wide_swath_candidate(A.R, A.C, B.layout, B.cols);
}

Choice choose(const GemmBsrOperand& A, DType in, const DenseDesc& B, const DenseDesc& C, const GemmOptions& options,
              const DeviceInfo& device, bool near_equal_rows) {
  Choice choice;
  auto refuse = [&](std::string why) {
    BSRFLOW_REQUIRE(options.kernel != GemmOptions::Choice::sm90, Errc::unsupported,
                    "GemmOptions asked for the sm90 kernel, but " + why);
    choice.use_sm90 = false;
    choice.reason = std::move(why);
    return choice;
  };
  if (options.kernel == GemmOptions::Choice::reference) return refuse("GemmOptions asked for the reference kernel");
  if (std::string why = rejection(A, in, B, C, device); !why.empty()) return refuse(std::move(why));

  Sm90Config& cfg = choice.config;
  const Tuning tuned = tuned_for(A.R, A.C, B.layout, B.cols, near_equal_rows && choice_reads_rows(A, B, options));
  cfg.in = in;
  cfg.R = A.R;
  cfg.C = A.C;
  cfg.swath = options.swath > 0 ? options.swath : tuned.swath;
  cfg.orientation = options.orientation.value_or(tuned.orientation);
  cfg.b_layout = B.layout;
  cfg.copy_only = options.copy_only;
  BSRFLOW_REQUIRE(options.cluster >= 0 && options.cluster <= 2, Errc::invalid_argument,
                  "GemmOptions::cluster (" + str(options.cluster) + ") must be 0 (tuned), 1 or 2");
  cfg.cluster = options.cluster > 0 ? options.cluster : tuned_cluster(A.R);
  cfg.stages = 0;
  BSRFLOW_REQUIRE(options.row_group == 0 || options.row_group == 1 || options.row_group == kRowGroupRows,
                  Errc::invalid_argument,
                  "GemmOptions::row_group (" + str(options.row_group) + ") must be 0 (tuned), 1 or " +
                      str(kRowGroupRows));
  // The tuned row group only where the options leave the kernel's geometry to the planner (a
  // caller's swath, k-chunk, orientation or CTA pairs name a one-row kernel).
  if (options.row_group > 0) {
    cfg.row_group = options.row_group;
  } else if (geometry_left_to_planner(options) && options.cluster != 2) {
    const double blocks = static_cast<double>(ceil_div(A.rows, A.R)) * static_cast<double>(ceil_div(A.cols, A.C));
    cfg.row_group = tuned_row_group(A.R, A.C, B.layout, blocks > 0 ? static_cast<double>(A.nnzb) / blocks : 0.0);
  }
  if (cfg.row_group > 1) {
    // One kernel geometry per shape: explicit options must agree with it (no silent fallback).
    BSRFLOW_REQUIRE(row_group_shape(A.R, A.C), Errc::unsupported,
                    "GemmOptions::row_group = " + str(cfg.row_group) + ": row-group kernels exist for 16 x 16 and " +
                        "32 x 32 blocks, not " + str(A.R) + " x " + str(A.C));
    BSRFLOW_REQUIRE(options.cluster != 2, Errc::invalid_argument,
                    "GemmOptions::row_group = " + str(cfg.row_group) + " runs single CTAs; cluster must be 0 or 1");
    BSRFLOW_REQUIRE(options.orientation.value_or(GemmOrientation::swap) == GemmOrientation::swap,
                    Errc::invalid_argument, "GemmOptions::row_group > 1 computes in the swap-AB orientation");
    BSRFLOW_REQUIRE(options.k_chunk == 0 || options.k_chunk == A.C, Errc::invalid_argument,
                    "GemmOptions::row_group > 1 loads whole blocks: k_chunk must be 0 or C (" + str(A.C) + ")");
    cfg.cluster = 1;
    cfg.orientation = GemmOrientation::swap;
    if (options.swath == 0) cfg.swath = row_group_swath(A.R);
  }
  BSRFLOW_REQUIRE(options.items_per_stage >= 0 && options.items_per_stage <= kMaxItemsPerStage,
                  Errc::invalid_argument,
                  "GemmOptions::items_per_stage (" + str(options.items_per_stage) + ") must be 0 (tuned), 1 or " +
                      str(kMaxItemsPerStage));
  if (options.items_per_stage > 1) {
    BSRFLOW_REQUIRE(two_items_shape(A.R, A.C, cfg.row_group), Errc::unsupported,
                    "GemmOptions::items_per_stage = " + str(options.items_per_stage) +
                        " is a form of the 16 x 16 row-group kernel; this plan has " + str(A.R) + " x " + str(A.C) +
                        " blocks and row_group " + str(cfg.row_group) + " (row_group = " + str(kRowGroupRows) +
                        " asks for row groups)");
    cfg.items_per_stage = options.items_per_stage;
  } else if (options.items_per_stage == 0) {
    cfg.items_per_stage = tuned_items_per_stage(A.R, A.C, cfg.row_group, device.memory_bandwidth);
  }
  if (options.k_chunk > 0) {
    BSRFLOW_REQUIRE((options.k_chunk == 16 || options.k_chunk == 32 || options.k_chunk == 64) &&
                        options.k_chunk <= A.C && A.C % options.k_chunk == 0,
                    Errc::invalid_argument,
                    "GemmOptions::k_chunk (" + str(options.k_chunk) + ") must be 16, 32 or 64 and divide C (" +
                        str(A.C) + ")");
    cfg.kc = options.k_chunk;
  } else if (const int kc = tuned_k_chunk(A.R, A.C, B.layout, cfg.swath); kc > 0 && cfg.row_group == 1) {
    // Only where that kernel exists (the tuned swath and orientation); else the default chunk.
    Sm90Config tuned_chunk = cfg;
    tuned_chunk.kc = kc;
    if (find_kernel(key_of(tuned_chunk)) != nullptr) cfg.kc = kc;
  }

  choice.entry = find_kernel(key_of(cfg));
  if (choice.entry == nullptr) {
    cfg.stages = options.stages;
    return refuse("no sm90 kernel is instantiated for " + cfg.name() +
                  " (sm90_instances.cuh lists the configurations; the tuned ones cover every block shape)");
  }
  const int deepest = max_stages(*choice.entry, device);
  if (deepest == 0)
    return refuse(cfg.name() + " needs " + str(choice.entry->smem_bytes(kMinStages)) +
                  " bytes of shared memory for " + str(kMinStages) + " stages; the GPU allows " +
                  str(static_cast<std::int64_t>(device.smem_per_block_optin)));
  if (options.stages > 0) {
    BSRFLOW_REQUIRE(options.stages >= kMinStages && options.stages <= deepest, Errc::invalid_argument,
                    "GemmOptions::stages (" + str(options.stages) + ") must be in [" + str(kMinStages) + ", " +
                        str(deepest) + "] for this configuration on this GPU");
    cfg.stages = options.stages;
  } else {
    cfg.stages = deepest;
  }
  choice.use_sm90 = true;
  return choice;
}

}  // namespace bsrflow::sm90
