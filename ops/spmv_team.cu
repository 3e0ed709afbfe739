// Instantiations of the team SpMV kernel: f32 and f64 x square blocks 1..4 x teams of 8, 16, 32
// x plain / fused dot (48 kernels), each with the block rows in flight of tuning_spmv.hpp; its launch and its
// resident-CTA count.
#include "bsrflow/ops/spmv_team.hpp"

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/spmv_team_kernel.cuh"
#include "bsrflow/ops/tuning_spmv.hpp"

namespace bsrflow::spmv_detail {

namespace {

namespace tuning = spmv_tuning;

template <class T, int B, int kTeam, bool kFusedDot>
constexpr auto kernel_of() {
  return spmv_team_kernel<T, tuning::kThreads, B, B, kTeam, tuning::team_rows_in_flight(B, B),
                          kFusedDot>;
}

template <class T, int B, bool kFusedDot, class F>
auto visit_team(int team, F&& f) {
  switch (team) {
    case 8: return f(kernel_of<T, B, 8, kFusedDot>());
    case 16: return f(kernel_of<T, B, 16, kFusedDot>());
    default: return f(kernel_of<T, B, 32, kFusedDot>());
  }
}

template <class T, bool kFusedDot, class F>
auto visit_block(int R, int team, F&& f) {
  switch (R) {
    case 1: return visit_team<T, 1, kFusedDot>(team, f);
    case 2: return visit_team<T, 2, kFusedDot>(team, f);
    case 3: return visit_team<T, 3, kFusedDot>(team, f);
    default: return visit_team<T, 4, kFusedDot>(team, f);
  }
}

// f(kernel) for the team kernel of `config` (the fused-dot form or the plain one).
template <class T, class F>
auto visit_team_kernel(const SpmvConfig& config, bool fused_dot, F&& f) {
  static_assert(tuning::kTeamMaxBlockDim == 4, "the switch below instantiates blocks 1..4");
  BSRFLOW_REQUIRE(config.R == config.C && config.R >= 1 && config.R <= tuning::kTeamMaxBlockDim &&
                      (config.team == 8 || config.team == 16 || config.team == 32) &&
                      config.rows_in_flight == tuning::team_rows_in_flight(config.R, config.C),
                  Errc::unsupported, "spmv: no team kernel is instantiated for " + spmv_kernel_name(config));
  return fused_dot ? visit_block<T, true>(config.R, config.team, f) : visit_block<T, false>(config.R, config.team, f);
}

}  // namespace

template <class T>
KernelLaunch team_launch(const Params<T>& p, const SpmvConfig& config, bool fused_dot, int ctas) {
  return visit_team_kernel<T>(config, fused_dot, [&](auto kernel) {
    return KernelLaunch(kernel, dim3(static_cast<unsigned>(ctas)), dim3(tuning::kThreads), 0, p);
  });
}

template <class T>
int team_resident_ctas(const SpmvConfig& config) {
  const int per_sm = visit_team_kernel<T>(config, true, [](auto kernel) {
    int n = 0;
    BSRFLOW_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, tuning::kThreads, 0));
    return n;
  });
  return per_sm * device_info().sm_count;
}

template KernelLaunch team_launch<float>(const Params<float>&, const SpmvConfig&, bool, int);
template KernelLaunch team_launch<double>(const Params<double>&, const SpmvConfig&, bool, int);
template int team_resident_ctas<float>(const SpmvConfig&);
template int team_resident_ctas<double>(const SpmvConfig&);

}  // namespace bsrflow::spmv_detail
