#include "bsrflow/ops/spmv_choose.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/tuning_spmv.hpp"

namespace bsrflow {

namespace tuning = spmv_tuning;

namespace {

bool has_team_kernel(int R, int C) { return R == C && R <= tuning::kTeamMaxBlockDim; }
bool has_bulk_kernel(int R, int C) { return R == C && R <= tuning::kBulkMaxBlockDim; }
bool has_bulk_copy(const DeviceInfo& device) { return device.cc_major >= 9; }
bool stream_settings(const SpmvOptions& options) { return options.items_per_thread != 0 || options.max_rows_per_cta != 0; }
std::string shape_text(int R, int C) { return std::to_string(R) + " x " + std::to_string(C); }

}  // namespace

void check_spmv_options(int R, int C, const SpmvOptions& options) {
  const int items = options.items_per_thread;
  BSRFLOW_REQUIRE(items == 0 || std::find(std::begin(tuning::kSupportedItems), std::end(tuning::kSupportedItems), items) !=
                                    std::end(tuning::kSupportedItems),
                  Errc::invalid_argument,
                  "SpmvOptions: items_per_thread " + std::to_string(items) + " is not one of 0 (default), 4, 8, 16");
  BSRFLOW_REQUIRE(options.max_rows_per_cta >= 0 && options.max_rows_per_cta <= tuning::kMaxRowsPerCta,
                  Errc::invalid_argument,
                  "SpmvOptions: max_rows_per_cta (" + std::to_string(options.max_rows_per_cta) + ") must be in [0, " +
                      std::to_string(tuning::kMaxRowsPerCta) + "]");
  BSRFLOW_REQUIRE(options.team == 0 || std::find(std::begin(tuning::kTeamSizes), std::end(tuning::kTeamSizes),
                                                 options.team) != std::end(tuning::kTeamSizes),
                  Errc::invalid_argument,
                  "SpmvOptions: team " + std::to_string(options.team) + " is not one of 0 (default), 8, 16, 32");
  // A forced team or bulk kernel: no stream settings, a shape it is instantiated for.
  const bool team = options.kernel == SpmvKernel::team, bulk = options.kernel == SpmvKernel::bulk;
  if (!team && !bulk) return;
  const std::string name = team ? "team" : "bulk";
  BSRFLOW_REQUIRE(!stream_settings(options), Errc::invalid_argument,
                  "SpmvOptions: items_per_thread and max_rows_per_cta configure the stream kernel; kernel = " + name +
                      " takes neither");
  BSRFLOW_REQUIRE(team || options.team == 0, Errc::invalid_argument,
                  "SpmvOptions: team configures the team kernel; kernel = bulk does not take it");
  BSRFLOW_REQUIRE(team ? has_team_kernel(R, C) : has_bulk_kernel(R, C), Errc::unsupported,
                  "spmv: the " + name + " kernel takes square blocks of 1 x 1 to 4 x 4, not " + shape_text(R, C) +
                      " (SpmvOptions::kernel = stream takes any)");
}

SpmvConfig choose_spmv_config(DType dtype, int R, int C, const SpmvRowStats& rows, const SpmvOptions& options,
                              const DeviceInfo& device) {
  check_spmv_options(R, C, options);
  const int items = options.items_per_thread;
  SpmvConfig config;
  config.dtype = dtype;
  config.R = R;
  config.C = C;
  config.threads = tuning::kThreads;
  config.items_per_thread = items > 0 ? items : tuning::default_items_per_thread(R, C);
  const int max_rows =
      options.max_rows_per_cta > 0 ? options.max_rows_per_cta : tuning::default_max_rows_per_cta(R, C);
  config.max_block_rows_per_cta = std::max(1, max_rows / R);
  config.team = options.team > 0 ? options.team : tuning::team_for_mean_blocks(rows.nnzb, rows.block_rows);
  config.rows_in_flight = tuning::team_rows_in_flight(R, C);

  const std::int64_t longest_values = rows.max_row_blocks * R * C;
  if (options.kernel == SpmvKernel::bulk) {
    BSRFLOW_REQUIRE(has_bulk_copy(device), Errc::unsupported,
                    "spmv: the bulk kernel needs cp.async.bulk (sm_90 or newer); GPU " + device.name + " is sm_" +
                        std::to_string(device.compute_capability()) +
                        " (SpmvOptions::kernel = team or stream runs there)");
    const int stage_values = tuning::bulk_values(R, C, dtype_size(dtype));
    BSRFLOW_REQUIRE(longest_values <= stage_values, Errc::unsupported,
                    "spmv: the bulk kernel takes block rows of at most " + std::to_string(stage_values) +
                        " values (one stage); the longest has " + std::to_string(longest_values) +
                        " (SpmvOptions::kernel = stream takes any)");
    config.kernel = SpmvKernel::bulk;
    return config;
  }
  if (options.kernel == SpmvKernel::automatic && !stream_settings(options) && options.team == 0 &&
      has_bulk_kernel(R, C) && has_bulk_copy(device) && tuning::bulk_rows_short(rows.max_row_blocks, C)) {
    // Every instantiated shape measured ahead of the team and stream kernels (tuning_spmv.hpp).
    config.kernel = SpmvKernel::bulk;
    return config;
  }
  bool team = options.kernel == SpmvKernel::team;
  if (options.kernel == SpmvKernel::automatic)
    team = has_team_kernel(R, C) && !stream_settings(options) &&
           static_cast<std::size_t>(R * C) * dtype_size(dtype) <= static_cast<std::size_t>(tuning::kTeamMaxBlockBytes) &&
           rows.max_row_blocks <= static_cast<std::int64_t>(tuning::kTeamMaxPasses) * config.team;
  config.kernel = team ? SpmvKernel::team : SpmvKernel::stream;
  return config;
}

}  // namespace bsrflow
