#include "bsrflow/apps/common/run_info.hpp"

#include <ctime>

#include "bsrflow/core/device_info.hpp"

#ifndef BSRFLOW_GIT_COMMIT
#define BSRFLOW_GIT_COMMIT "unknown"
#endif

namespace bsrflow::bench {

std::string build_commit() { return BSRFLOW_GIT_COMMIT; }

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

RunInfo collect_run_info() { return {device_info().name, utc_timestamp(), build_commit()}; }

void stamp(Record& record, const RunInfo& info) {
  record.set("device", info.device).set("date", info.date).set("commit", info.commit);
}

}  // namespace bsrflow::bench
