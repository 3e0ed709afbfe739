#include "bsrflow/core/json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "bsrflow/core/error.hpp"

namespace bsrflow {

const char* json_kind_name(Json::Kind kind) {
  switch (kind) {
    case Json::Kind::null: return "null";
    case Json::Kind::boolean: return "a boolean";
    case Json::Kind::integer: return "an integer";
    case Json::Kind::number: return "a number";
    case Json::Kind::string: return "a string";
    case Json::Kind::array: return "an array";
    case Json::Kind::object: return "an object";
  }
  return "?";
}

std::string Json::where() const {
  if (line_ == 0) return {};
  return "line " + std::to_string(line_) + ", column " + std::to_string(column_) + ": ";
}

namespace {

[[noreturn]] void mismatch(const Json& v, const char* expected) {
  BSRFLOW_FAIL(Errc::parse, v.where() + "expected " + expected + ", found " + json_kind_name(v.kind()));
}

}  // namespace

bool Json::as_bool() const {
  if (!is_bool()) mismatch(*this, "a boolean");
  return std::get<bool>(value_);
}
std::int64_t Json::as_integer() const {
  if (!is_integer()) mismatch(*this, "an integer");
  return std::get<std::int64_t>(value_);
}
double Json::as_number() const {
  if (is_integer()) return static_cast<double>(std::get<std::int64_t>(value_));
  if (kind() != Kind::number) mismatch(*this, "a number");
  return std::get<double>(value_);
}
const std::string& Json::as_string() const {
  if (!is_string()) mismatch(*this, "a string");
  return std::get<std::string>(value_);
}
const Json::Array& Json::as_array() const {
  if (!is_array()) mismatch(*this, "an array");
  return std::get<Array>(value_);
}
const Json::Object& Json::as_object() const {
  if (!is_object()) mismatch(*this, "an object");
  return std::get<Object>(value_);
}

const Json* Json::find(std::string_view key) const {
  if (!is_object()) return nullptr;
  for (const auto& [k, v] : std::get<Object>(value_))
    if (k == key) return &v;
  return nullptr;
}

Json& Json::set(std::string_view key, Json value) {
  if (is_null()) value_ = Object{};
  if (!is_object()) mismatch(*this, "an object");
  Object& members = std::get<Object>(value_);
  for (auto& [k, v] : members)
    if (k == key) return v = std::move(value);
  members.emplace_back(std::string(key), std::move(value));
  return members.back().second;
}

Json& Json::push_back(Json value) {
  if (is_null()) value_ = Array{};
  if (!is_array()) mismatch(*this, "an array");
  Array& items = std::get<Array>(value_);
  items.push_back(std::move(value));
  return items.back();
}

// Recursive descent over the whole grammar, tracking positions for messages.
class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  Json document() {
    skip_space();
    if (pos_ >= text_.size()) fail("empty text: expected a JSON value");
    Json v = value(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 64;  // hostile nesting must not overflow the stack

  Json value(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    const auto [line, column] = position(pos_);
    Json v = bare_value(depth);
    v.line_ = line;
    v.column_ = column;
    return v;
  }

  Json bare_value(int depth) {
    const char c = peek();
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') return Json(string());
    if (match("true")) return Json(true);
    if (match("false")) return Json(false);
    if (match("null")) return Json();
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    if (pos_ >= text_.size()) fail("unexpected end of text: expected a value");
    fail("expected a value");
  }

  Json object(int depth) {
    ++pos_;
    Json::Object members;
    skip_space();
    if (peek() == '}') {
      ++pos_;
      return Json(std::move(members));
    }
    while (true) {
      skip_space();
      if (peek() != '"') fail("expected a quoted field name");
      const std::size_t key_pos = pos_;
      std::string key = string();
      for (const auto& m : members)
        if (m.first == key) {
          pos_ = key_pos;
          fail("duplicate field name \"" + key + "\"");
        }
      skip_space();
      expect(':', "expected ':' after field name \"" + key + "\"");
      skip_space();
      Json v = value(depth + 1);
      members.emplace_back(std::move(key), std::move(v));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}', "expected ',' or '}' in an object");
      return Json(std::move(members));
    }
  }

  Json array(int depth) {
    ++pos_;
    Json::Array items;
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return Json(std::move(items));
    }
    while (true) {
      skip_space();
      items.push_back(value(depth + 1));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect(']', "expected ',' or ']' in an array");
      return Json(std::move(items));
    }
  }

  Json number() {
    const std::size_t start = pos_;
    bool integral = true;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '.' || c == 'e' || c == 'E') integral = false;
      else if (!(c == '-' || c == '+' || (c >= '0' && c <= '9'))) break;
      ++pos_;
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + pos_;
    if (integral) {
      std::int64_t i = 0;
      const auto res = std::from_chars(first, last, i);
      if (res.ec == std::errc() && res.ptr == last) return Json(i);
    }
    double d = 0;
    const auto res = std::from_chars(first, last, d);
    if (res.ec != std::errc() || res.ptr != last || *first == '+') {
      pos_ = start;
      fail("malformed number '" + std::string(first, last) + "'");
    }
    return Json(d);
  }

  std::string string() {
    ++pos_;  // opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character inside a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated escape");
      const char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': append_utf8(out, code_point()); break;
        default: --pos_; fail(std::string("unknown escape '\\") + e + "'");
      }
    }
  }

  unsigned hex4() {
    if (pos_ + 4 > text_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f') v |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= static_cast<unsigned>(h - 'A' + 10);
      else fail("bad hex digit in \\u escape");
    }
    return v;
  }

  unsigned code_point() {
    unsigned cp = hex4();
    // A UTF-16 surrogate pair spells one code point above U+FFFF.
    if (cp >= 0xD800 && cp <= 0xDBFF && text_.substr(pos_, 2) == "\\u") {
      pos_ += 2;
      const unsigned low = hex4();
      if (low < 0xDC00 || low > 0xDFFF) fail("unpaired surrogate in \\u escape");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    return cp;
  }

  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool match(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  void expect(char c, const std::string& message) {
    if (peek() != c) fail(pos_ >= text_.size() ? "unexpected end of text: " + message : message);
    ++pos_;
  }
  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }
  std::pair<int, int> position(std::size_t at) const {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < at && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return {line, column};
  }
  [[noreturn]] void fail(const std::string& message) const {
    const auto [line, column] = position(pos_);
    BSRFLOW_FAIL(Errc::parse, "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

Json parse_json(std::string_view text) { return JsonReader(text).document(); }

std::string json_quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

void append_json_number(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v);
  const std::string_view text(buf, static_cast<std::size_t>(res.ptr - buf));
  out += text;
  // Keep doubles recognisable as doubles ("2.0", not "2") so a file reads back as it was written.
  if (text.find_first_of(".eE") == std::string_view::npos) out += ".0";
}

namespace {

void write(std::string& out, const Json& v, int indent, int depth_left, int level) {
  const bool spread = indent >= 0 && depth_left > 0;
  const auto newline = [&](int lvl) {
    out += '\n';
    out.append(static_cast<std::size_t>(indent * lvl), ' ');
  };
  switch (v.kind()) {
    case Json::Kind::null: out += "null"; break;
    case Json::Kind::boolean: out += v.as_bool() ? "true" : "false"; break;
    case Json::Kind::integer: out += std::to_string(v.as_integer()); break;
    case Json::Kind::number: append_json_number(out, v.as_number()); break;
    case Json::Kind::string: out += json_quote(v.as_string()); break;
    case Json::Kind::array: {
      const Json::Array& items = v.as_array();
      out += '[';
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += spread ? "," : ", ";
        if (spread) newline(level + 1);
        write(out, items[i], indent, depth_left - 1, level + 1);
      }
      if (spread && !items.empty()) newline(level);
      out += ']';
      break;
    }
    case Json::Kind::object: {
      const Json::Object& members = v.as_object();
      out += '{';
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (i > 0) out += spread ? "," : ", ";
        if (spread) newline(level + 1);
        out += json_quote(members[i].first);
        out += ": ";
        write(out, members[i].second, indent, depth_left - 1, level + 1);
      }
      if (spread && !members.empty()) newline(level);
      out += '}';
      break;
    }
  }
}

}  // namespace

std::string to_json_text(const Json& value, int indent, int indent_depth) {
  std::string out;
  write(out, value, indent, indent < 0 ? 0 : indent_depth, 0);
  return out + "\n";
}

}  // namespace bsrflow
