// One result row of a benchmark: an ordered list of named fields. Reports (JSON, CSV, Markdown,
// charts) are all made from lists of records, so every app shares one output path.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace bsrflow::bench {

// null (std::monostate) stands for "not measured / not applicable"; JSON writes it as null and
// CSV as an empty cell. Non-finite doubles are written as null too (JSON has no NaN).
using Field = std::variant<std::monostate, bool, std::int64_t, double, std::string>;

class Record {
 public:
  // Adds or replaces `key` (replacing keeps the original position).
  Record& set(std::string_view key, Field value);
  // NOTES: one overload per value type, so that a double never converts to int (a standard
  // conversion beats the user-defined one into Field) and a bool never becomes an integer.
  Record& set(std::string_view key, const char* text) { return set(key, Field(std::string(text))); }
  Record& set(std::string_view key, const std::string& text) { return set(key, Field(text)); }
  Record& set(std::string_view key, bool value) { return set(key, Field(value)); }
  Record& set(std::string_view key, int value) { return set(key, Field(static_cast<std::int64_t>(value))); }
  Record& set(std::string_view key, std::int64_t value) { return set(key, Field(value)); }
  Record& set(std::string_view key, double value) { return set(key, Field(value)); }

  bool has(std::string_view key) const { return find(key) != nullptr; }
  // nullptr when absent.
  const Field* find(std::string_view key) const;
  // The number stored under `key` (int or double), or NaN when absent, null or not a number.
  double number(std::string_view key) const;
  // The text stored under `key`, or "" when absent or not a string.
  std::string text(std::string_view key) const;
  // The bool stored under `key`, or `fallback`.
  bool flag(std::string_view key, bool fallback = false) const;

  const std::vector<std::pair<std::string, Field>>& fields() const { return fields_; }
  bool operator==(const Record&) const = default;

 private:
  std::vector<std::pair<std::string, Field>> fields_;
};

// Keys of all records in first-seen order (the CSV header).
std::vector<std::string> union_of_keys(const std::vector<Record>& records);

}  // namespace bsrflow::bench
