// A small, strict JSON value with a reader and a writer: what bsrflow's own files need (the
// tuning cache, benchmark records), without a third-party dependency in the installed headers.
//
// Strict means: one value per text, no trailing commas, no comments, no duplicate keys in an
// object, no NaN/Infinity, nothing after the value. Errors are Error(parse) with the line and
// column of the first problem ("line 3, column 14: expected ',' or '}' in an object"). Every
// parsed value remembers where it started, so that a caller checking a file's shape can point
// at the offending value too.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace bsrflow {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;  // in text order; keys unique
  enum class Kind : std::uint8_t { null, boolean, integer, number, string, array, object };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool v) : value_(v) {}
  Json(int v) : value_(static_cast<std::int64_t>(v)) {}
  Json(std::int64_t v) : value_(v) {}
  Json(double v) : value_(v) {}
  Json(const char* v) : value_(std::string(v)) {}
  Json(std::string v) : value_(std::move(v)) {}
  Json(Array v) : value_(std::move(v)) {}
  Json(Object v) : value_(std::move(v)) {}

  Kind kind() const { return static_cast<Kind>(value_.index()); }
  bool is_null() const { return kind() == Kind::null; }
  bool is_bool() const { return kind() == Kind::boolean; }
  bool is_integer() const { return kind() == Kind::integer; }
  bool is_number() const { return kind() == Kind::integer || kind() == Kind::number; }  // either
  bool is_string() const { return kind() == Kind::string; }
  bool is_array() const { return kind() == Kind::array; }
  bool is_object() const { return kind() == Kind::object; }

  // Accessors throw Error(parse) "line L, column C: expected <what>, found <kind>" on a mismatch
  // (the position is where this value started in the parsed text; 0 for built values).
  bool as_bool() const;
  std::int64_t as_integer() const;
  double as_number() const;  // an integer or a double
  const std::string& as_string() const;
  const Array& as_array() const;
  const Object& as_object() const;

  // Object member `key`, or nullptr (also when this is not an object).
  const Json* find(std::string_view key) const;
  // Adds or replaces `key` of an object (a null value becomes an empty object first).
  Json& set(std::string_view key, Json value);
  // Appends to an array (a null value becomes an empty array first).
  Json& push_back(Json value);

  int line() const { return line_; }
  int column() const { return column_; }
  // "line L, column C: " for parsed values, "" for built ones: the prefix of a shape error.
  std::string where() const;

  // Structural equality (positions ignored).
  friend bool operator==(const Json& a, const Json& b) { return a.value_ == b.value_; }

 private:
  friend class JsonReader;
  std::variant<std::monostate, bool, std::int64_t, double, std::string, Array, Object> value_;
  int line_ = 0;
  int column_ = 0;
};

const char* json_kind_name(Json::Kind kind);

// Throws Error(parse) with line and column.
Json parse_json(std::string_view text);

// Compact on one line when indent < 0; otherwise objects and arrays nested at most `indent_depth`
// levels put each member on its own line indented by `indent` spaces. Doubles keep a '.' or an
// exponent so that they read back as doubles; non-finite doubles are written as null.
std::string to_json_text(const Json& value, int indent = 2, int indent_depth = 2);

// JSON string literal of `text`, quotes included.
std::string json_quote(std::string_view text);
// Shortest text that reads back to the same double ("2.0", not "2"); "null" when not finite.
void append_json_number(std::string& out, double v);

}  // namespace bsrflow
