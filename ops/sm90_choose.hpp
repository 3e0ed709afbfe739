// The planner's decision, as a pure host function of shapes, dtypes, options and device facts:
// does the Hopper kernel take this GEMM, in which configuration, and if not, why not. Kept apart
// from plan_gemm so that CPU tests can drive it with any (fake) device.
#pragma once

#include <string>

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/ops/gemm_config.hpp"
#include "bsrflow/ops/gemm_plan.hpp"
#include "bsrflow/ops/sm90_kernels.hpp"

namespace bsrflow::sm90 {

struct Choice {
  bool use_sm90 = false;
  std::string reason;  // why not (empty when use_sm90)
  Sm90Config config;
  const KernelEntry* entry = nullptr;
};

// Whether choose's configuration for these options depends on how equal A's block rows are:
// the options leave swath, orientation and k-chunk to the planner and the shape is one where the
// tuned swath reads the rows (tuning_sm90.hpp wide_swath_candidate). The planner measures the
// rows (one device pass) only then.
bool choice_reads_rows(const GemmBsrOperand& A, const DenseDesc& B, const GemmOptions& options);

// `A` supplies R, C and the shape; B and C are the planned descriptions; `near_equal_rows` is what
// the planner measured of A's rows (tuning_sm90.hpp wide_swath_rows; false where not measured),
// read only where choice_reads_rows holds.
// Throws Error(unsupported) only when options.kernel == sm90 and the answer is no.
Choice choose(const GemmBsrOperand& A, DType in, const DenseDesc& B, const DenseDesc& C, const GemmOptions& options,
              const DeviceInfo& device, bool near_equal_rows = false);

// Deepest ring that fits the device's opt-in shared memory, within [kMinStages, entry.max_stages];
// 0 if not even kMinStages fit.
int max_stages(const KernelEntry& entry, const DeviceInfo& device);

}  // namespace bsrflow::sm90
