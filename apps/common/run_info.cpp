#include "bsrflow/apps/common/run_info.hpp"

#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/timestamp.hpp"
#include "bsrflow_build_commit.hpp"  // generated in the build dir on every build (apps/CMakeLists.txt)

namespace bsrflow::bench {

std::string build_commit() { return BSRFLOW_GIT_COMMIT; }

RunInfo collect_run_info() { return {device_info().name, utc_timestamp(), build_commit()}; }

void stamp(Record& record, const RunInfo& info) {
  record.set("device", info.device).set("date", info.date).set("commit", info.commit);
}

}  // namespace bsrflow::bench
