#include "bsrflow/apps/common/markdown.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <variant>

#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {
std::string escape_cell(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '|') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

std::string pad(const std::string& s, std::size_t width, Align a) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return a == Align::right ? fill + s : s + fill;
}
}  // namespace

std::string markdown_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                           const std::vector<Align>& align) {
  const std::size_t cols = header.size();
  std::vector<std::size_t> width(cols, 3);  // "---" is the narrowest separator
  auto alignment = [&](std::size_t c) { return c < align.size() ? align[c] : Align::left; };
  for (std::size_t c = 0; c < cols; ++c) width[c] = std::max(width[c], escape_cell(header[c]).size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    BSRFLOW_REQUIRE(rows[r].size() == cols, Errc::invalid_argument,
                    "table row " + std::to_string(r) + " has " + std::to_string(rows[r].size()) +
                        " cells, the header has " + std::to_string(cols));
    for (std::size_t c = 0; c < cols; ++c) width[c] = std::max(width[c], escape_cell(rows[r][c]).size());
  }
  std::string out = "|";
  // NOTES: appends piece by piece; `" " + std::string(...)` trips GCC 12's -Wrestrict false positive.
  auto append_cell = [&](const std::string& text, std::size_t c) {
    out += ' ';
    out += pad(escape_cell(text), width[c], alignment(c));
    out += " |";
  };
  for (std::size_t c = 0; c < cols; ++c) append_cell(header[c], c);
  out += "\n|";
  for (std::size_t c = 0; c < cols; ++c) {
    const std::string dashes(width[c] - 1, '-');
    out += ' ';
    out += dashes;
    out += alignment(c) == Align::right ? ": |" : "- |";
  }
  out += "\n";
  for (const auto& row : rows) {
    out += "|";
    for (std::size_t c = 0; c < cols; ++c) append_cell(row[c], c);
    out += "\n";
  }
  return out;
}

std::string format_fixed(double value, int decimals) {
  if (!std::isfinite(value)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, value);
  return buf;
}

std::string format_significant(double value) {
  if (!std::isfinite(value)) return "-";
  const double mag = std::fabs(value);
  int decimals = 0;
  if (mag > 0 && mag < 100) decimals = std::min(6, 2 - static_cast<int>(std::floor(std::log10(mag))));
  return format_fixed(value, std::max(decimals, 0));
}

std::string format_percent(double value, int decimals) {
  if (!std::isfinite(value)) return "-";
  return format_fixed(100.0 * value, decimals) + "%";
}

std::string ms_spread_cell(const Record& r) {
  if (!std::isfinite(r.number("ms"))) return "-";
  return format_significant(r.number("ms")) + " (" + format_significant(r.number("ms_p10")) + "-" +
         format_significant(r.number("ms_p90")) + ")";
}

std::string target_met_cell(const Record& r) {
  std::string target = r.text("target");
  if (const Field* met = r.find("target_met"); met != nullptr && std::holds_alternative<bool>(*met))
    target += std::get<bool>(*met) ? ": met" : ": MISSED";
  return target;
}

std::string run_context_footer(const std::vector<Record>& records) {
  if (records.empty()) return {};
  const Record& first = records.front();
  return "Device: " + first.text("device") + "; date: " + first.text("date") + "; commit: " + first.text("commit") +
         ". Device-to-device copy of this run: " + format_fixed(first.number("copy_gbps"), 0) +
         " GB/s (read + written).\n\n";
}

}  // namespace bsrflow::bench
