#include "bsrflow/apps/common/record.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bsrflow::bench {

Record& Record::set(std::string_view key, Field value) {
  for (auto& [k, v] : fields_)
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  fields_.emplace_back(std::string(key), std::move(value));
  return *this;
}

const Field* Record::find(std::string_view key) const {
  for (const auto& [k, v] : fields_)
    if (k == key) return &v;
  return nullptr;
}

double Record::number(std::string_view key) const {
  const Field* f = find(key);
  if (f == nullptr) return std::numeric_limits<double>::quiet_NaN();
  if (const auto* i = std::get_if<std::int64_t>(f)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(f)) return *d;
  return std::numeric_limits<double>::quiet_NaN();
}

std::string Record::text(std::string_view key) const {
  const Field* f = find(key);
  if (f == nullptr) return {};
  if (const auto* s = std::get_if<std::string>(f)) return *s;
  return {};
}

bool Record::flag(std::string_view key, bool fallback) const {
  const Field* f = find(key);
  if (f == nullptr) return fallback;
  if (const auto* b = std::get_if<bool>(f)) return *b;
  return fallback;
}

std::vector<std::string> union_of_keys(const std::vector<Record>& records) {
  std::vector<std::string> keys;
  for (const auto& r : records)
    for (const auto& [k, v] : r.fields())
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  return keys;
}

}  // namespace bsrflow::bench
