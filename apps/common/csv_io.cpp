#include "bsrflow/apps/common/csv_io.hpp"

#include <charconv>
#include <cmath>
#include <fstream>

#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {

// Quote only when needed, doubling inner quotes (RFC 4180).
std::string quote_if_needed(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos && (s.empty() || (s.front() != ' ' && s.back() != ' ')))
    return s;
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string cell(const Field* f) {
  if (f == nullptr || std::holds_alternative<std::monostate>(*f)) return {};
  if (const auto* b = std::get_if<bool>(f)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<std::int64_t>(f)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(f)) {
    if (!std::isfinite(*d)) return {};
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof(buf), *d);
    return std::string(buf, res.ptr);
  }
  return quote_if_needed(std::get<std::string>(*f));
}

}  // namespace

std::string to_csv(const std::vector<Record>& records) {
  const std::vector<std::string> keys = union_of_keys(records);
  std::string out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) out += ',';
    out += quote_if_needed(keys[i]);
  }
  out += '\n';
  for (const auto& r : records) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (i > 0) out += ',';
      out += cell(r.find(keys[i]));
    }
    out += '\n';
  }
  return out;
}

void write_csv_file(const std::string& path, const std::vector<Record>& records) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  BSRFLOW_REQUIRE(file.good(), Errc::io, "cannot open '" + path + "' for writing");
  file << to_csv(records);
  file.close();
  BSRFLOW_REQUIRE(!file.fail(), Errc::io, "writing '" + path + "' failed");
}

}  // namespace bsrflow::bench
