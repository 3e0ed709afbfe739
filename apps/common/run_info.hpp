// What every report says about where and when it was made: device, date, commit.
#pragma once

#include <string>

#include "bsrflow/apps/common/record.hpp"

namespace bsrflow::bench {

struct RunInfo {
  std::string device;  // e.g. "NVIDIA H200"
  std::string date;    // UTC, ISO 8601: "2025-11-22T03:08:00Z"
  std::string commit;  // short git hash the binaries were built from (+ "-dirty.<diff hash>"), or "unknown"
};

// The commit the binaries were built from: git's short hash of HEAD, with "-dirty.<d>" when
// tracked files had uncommitted changes (d: the first 7 hex digits of the SHA-1 of `git diff HEAD`,
// so an experiment build names its patch; "-dirty" alone if git could not give the diff), or
// "unknown" where git could not tell (no git, no checkout).
std::string build_commit();
// Device name of the current GPU (needs a GPU) + date + commit.
RunInfo collect_run_info();

// Adds device, date and commit fields to `record`.
void stamp(Record& record, const RunInfo& info);

}  // namespace bsrflow::bench
