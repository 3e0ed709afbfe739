// The team SpMV kernel's launch (spmv_team.cu instantiates it for every instantiated block shape
// and team size; spmv.cu calls it). Internal to ops/.
#pragma once

#include "bsrflow/core/kernel_launch.hpp"
#include "bsrflow/ops/spmv.hpp"

namespace bsrflow::spmv_detail {

// config.kernel == team, R == C in [1, spmv_tuning::kTeamMaxBlockDim], team in kTeamSizes,
// rows_in_flight == team_rows_in_flight(R, C) (what choose_spmv_config gives).
// fused_dot: the form with the fused dot, whose warps loop over the chunks (on at most the
// resident CTAs); else the plain form, one warp per chunk.
template <class T>
KernelLaunch team_launch(const Params<T>& p, const SpmvConfig& config, bool fused_dot, int ctas);

// CTAs of the fused-dot form the current device holds at once (occupancy x SMs).
template <class T>
int team_resident_ctas(const SpmvConfig& config);

}  // namespace bsrflow::spmv_detail
