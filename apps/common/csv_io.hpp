// Benchmark results as CSV (RFC 4180): a header with the union of all record keys in first-seen
// order, one line per record; absent and null fields are empty cells.
#pragma once

#include <string>
#include <vector>

#include "bsrflow/apps/common/record.hpp"

namespace bsrflow::bench {

std::string to_csv(const std::vector<Record>& records);

// Error(io) when the file cannot be written.
void write_csv_file(const std::string& path, const std::vector<Record>& records);

}  // namespace bsrflow::bench
