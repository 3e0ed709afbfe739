// Markdown tables for stdout reports: columns padded so the table also reads as plain text.
#pragma once

#include <string>
#include <vector>

#include "bsrflow/apps/common/record.hpp"

namespace bsrflow::bench {

enum class Align { left, right };

// A GitHub-flavoured Markdown table. `align` may be shorter than `header` (missing columns are
// left-aligned). Throws Error(invalid_argument) when a row has a different number of cells than
// the header. '|' inside a cell is escaped.
std::string markdown_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                           const std::vector<Align>& align = {});

// `value` with `decimals` digits after the point; "-" for NaN/inf (not measured).
std::string format_fixed(double value, int decimals);
// `value` with 3 significant digits ("0.0123", "12.3", "1234"); "-" for NaN/inf.
std::string format_significant(double value);
// 100 * value with `decimals` digits and a '%'; "-" for NaN/inf.
std::string format_percent(double value, int decimals = 1);

// Cells shared by the benchmark tables, from a record's fields:
// "0.123 (0.120-0.131)": ms with its p10-p90 spread (format_significant); "-" when not timed.
std::string ms_spread_cell(const Record& r);
// The "target" text with ": met" / ": MISSED" appended when target_met is set.
std::string target_met_cell(const Record& r);

// The line under a benchmark table, from the first record's device, date, commit and copy_gbps:
// "Device: ...; date: ...; commit: .... Device-to-device copy of this run: N GB/s (read +
// written).\n\n"; "" when there are no records.
std::string run_context_footer(const std::vector<Record>& records);

}  // namespace bsrflow::bench
