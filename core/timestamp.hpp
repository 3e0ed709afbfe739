// Wall-clock stamps for what bsrflow writes down (benchmark reports, tuning-cache entries).
#pragma once

#include <string>

namespace bsrflow {

// The current UTC time in ISO 8601 to the second, e.g. "2026-11-23T12:00:00Z".
std::string utc_timestamp();

}  // namespace bsrflow
