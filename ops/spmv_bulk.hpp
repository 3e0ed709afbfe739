// The bulk SpMV kernel's launch (spmv_bulk.cu instantiates it for every instantiated block shape;
// spmv.cu calls it). Internal to ops/.
#pragma once

#include "bsrflow/core/kernel_launch.hpp"
#include "bsrflow/ops/spmv.hpp"

namespace bsrflow::spmv_detail {

// config.kernel == bulk, R == C in [1, spmv_tuning::kBulkMaxBlockDim] (what choose_spmv_config
// gives). p.groups tiles at p.tiles; ctas >= 1 persistent CTAs (bulk_resident_ctas caps them).
template <class T>
KernelLaunch bulk_launch(const Params<T>& p, const SpmvConfig& config, bool fused_dot, int ctas);

// Raises both forms' dynamic shared-memory limit to their ring (once per process and device is
// enough; plan_spmv calls it) and returns the CTAs the current device (sm_count SMs) holds at once.
template <class T>
int bulk_resident_ctas(const SpmvConfig& config, int sm_count);

}  // namespace bsrflow::spmv_detail
