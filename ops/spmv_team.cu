// Instantiations of the team SpMV kernel: f32 and f64 x square blocks 1..4 x teams of 8, 16, 32
// x one-chunk / persistent (48 kernels), each with the block rows in flight of tuning_spmv.hpp; its launch and its
// resident-CTA count.
#include "bsrflow/ops/spmv_team.hpp"

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/spmv_team_kernel.cuh"
#include "bsrflow/ops/tuning_spmv.hpp"

namespace bsrflow::spmv_detail {

namespace {

namespace tuning = spmv_tuning;

template <class T, int B, int kTeam, bool kPersistent>
constexpr auto kernel_of() {
  return spmv_team_kernel<T, tuning::kThreads, B, B, kTeam, tuning::team_rows_in_flight(B, B, sizeof(T), kPersistent),
                          kPersistent>;
}

template <class T, int B, bool kPersistent, class F>
auto visit_team(int team, F&& f) {
  switch (team) {
    case 8: return f(kernel_of<T, B, 8, kPersistent>());
    case 16: return f(kernel_of<T, B, 16, kPersistent>());
    default: return f(kernel_of<T, B, 32, kPersistent>());
  }
}

template <class T, bool kPersistent, class F>
auto visit_block(int R, int team, F&& f) {
  switch (R) {
    case 1: return visit_team<T, 1, kPersistent>(team, f);
    case 2: return visit_team<T, 2, kPersistent>(team, f);
    case 3: return visit_team<T, 3, kPersistent>(team, f);
    default: return visit_team<T, 4, kPersistent>(team, f);
  }
}

// f(kernel) for the team kernel of `config` (the persistent form or the one-chunk form).
template <class T, class F>
auto visit_team_kernel(const SpmvConfig& config, bool persistent, F&& f) {
  static_assert(tuning::kTeamMaxBlockDim == 4, "the switch below instantiates blocks 1..4");
  BSRFLOW_REQUIRE(config.R == config.C && config.R >= 1 && config.R <= tuning::kTeamMaxBlockDim &&
                      (config.team == 8 || config.team == 16 || config.team == 32) &&
                      config.rows_in_flight == tuning::team_rows_in_flight(config.R, config.C, dtype_size(config.dtype), false),
                  Errc::unsupported, "spmv: no team kernel is instantiated for " + spmv_kernel_name(config));
  return persistent ? visit_block<T, true>(config.R, config.team, f) : visit_block<T, false>(config.R, config.team, f);
}

}  // namespace

template <class T>
KernelLaunch team_launch(const Params<T>& p, const SpmvConfig& config, bool persistent, int ctas) {
  return visit_team_kernel<T>(config, persistent, [&](auto kernel) {
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
