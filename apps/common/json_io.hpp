// Benchmark results as JSON: a list of flat records, one object per (case, system).
//
//   [
//     {"system": "cublas_dense", "m": 8192, "ms": 1.25, "correct": true, ...},
//     ...
//   ]
//
// The reader (core/json.hpp's strict parser, then this shape check) accepts exactly that shape
// (what the writer and apps/bsr_bench/torch_peer.py produce) so that charts can be redrawn
// offline with --plot-from.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bsrflow/apps/common/record.hpp"
#include "bsrflow/core/json.hpp"

namespace bsrflow::bench {

// One record per line, fields in record order; non-finite numbers become null.
std::string to_json(const std::vector<Record>& records);

// Throws Error(parse) with the line and column of the first problem, e.g.
// "line 3, column 14: expected ',' or '}' in an object".
std::vector<Record> records_from_json(std::string_view text);

// File variants: Error(io) when the file cannot be opened, read or written.
void write_json_file(const std::string& path, const std::vector<Record>& records);
std::vector<Record> read_json_file(const std::string& path);

// JSON string literal of `text`, quotes included (also used by the CSV and gnuplot writers'
// tests as a reference escaping): core/json.hpp's.
using ::bsrflow::json_quote;

}  // namespace bsrflow::bench
