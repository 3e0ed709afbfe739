#include "bsrflow/apps/common/json_io.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {

void append_number(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[32];
  // Shortest text that reads back to the same double.
  const auto res = std::to_chars(buf, buf + sizeof(buf), v);
  const std::string_view text(buf, static_cast<std::size_t>(res.ptr - buf));
  out += text;
  // Keep doubles recognisable as doubles ("2.0", not "2") so a file reads back as it was written.
  if (text.find_first_of(".eE") == std::string_view::npos) out += ".0";
}

void append_field(std::string& out, const Field& f) {
  if (std::holds_alternative<std::monostate>(f)) out += "null";
  else if (const auto* b = std::get_if<bool>(&f)) out += *b ? "true" : "false";
  else if (const auto* i = std::get_if<std::int64_t>(&f)) out += std::to_string(*i);
  else if (const auto* d = std::get_if<double>(&f)) append_number(out, *d);
  else out += json_quote(std::get<std::string>(f));
}

// Recursive-descent reader for the records shape; positions are tracked for messages.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  std::vector<Record> records() {
    std::vector<Record> out;
    skip_space();
    expect('[', "expected '[' to start the list of records");
    skip_space();
    if (peek() == ']') {
      ++pos_;
    } else {
      while (true) {
        skip_space();
        out.push_back(record(out.size()));
        skip_space();
        if (peek() == ',') { ++pos_; continue; }
        expect(']', "expected ',' or ']' after a record");
        break;
      }
    }
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the list of records");
    return out;
  }

 private:
  Record record(std::size_t index) {
    if (peek() != '{') fail("record " + std::to_string(index) + " is not an object");
    ++pos_;
    Record r;
    skip_space();
    if (peek() == '}') { ++pos_; return r; }
    while (true) {
      skip_space();
      if (peek() != '"') fail("expected a quoted field name");
      std::string key = string();
      skip_space();
      expect(':', "expected ':' after field name \"" + key + "\"");
      skip_space();
      const char c = peek();
      if (c == '{' || c == '[')
        fail("field \"" + key + "\" of record " + std::to_string(index) +
             " is nested; records hold only flat values");
      r.set(key, value());
      skip_space();
      if (peek() == ',') { ++pos_; continue; }
      expect('}', "expected ',' or '}' in an object");
      return r;
    }
  }

  Field value() {
    const char c = peek();
    if (c == '"') return string();
    if (match("true")) return true;
    if (match("false")) return false;
    if (match("null")) return std::monostate{};
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    fail("expected a value");
  }

  Field number() {
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
      if (res.ec == std::errc() && res.ptr == last) return i;
    }
    double d = 0;
    const auto res = std::from_chars(first, last, d);
    if (res.ec != std::errc() || res.ptr != last) {
      pos_ = start;
      fail("malformed number '" + std::string(first, last) + "'");
    }
    return d;
  }

  std::string string() {
    ++pos_;  // opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character inside a string");
      if (c != '\\') { out += c; continue; }
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
    if (peek() != c) fail(message);
    ++pos_;
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' ||
                                   text_[pos_] == '\t'))
      ++pos_;
  }
  [[noreturn]] void fail(const std::string& message) const {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') { ++line; column = 1; }
      else ++column;
    }
    BSRFLOW_FAIL(Errc::parse, "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

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

std::string to_json(const std::vector<Record>& records) {
  std::string out = "[\n";
  for (std::size_t i = 0; i < records.size(); ++i) {
    out += "  {";
    bool first = true;
    for (const auto& [key, value] : records[i].fields()) {
      if (!first) out += ", ";
      first = false;
      out += json_quote(key);
      out += ": ";
      append_field(out, value);
    }
    out += i + 1 < records.size() ? "},\n" : "}\n";
  }
  return out + "]\n";
}

std::vector<Record> records_from_json(std::string_view text) { return Reader(text).records(); }

void write_json_file(const std::string& path, const std::vector<Record>& records) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  BSRFLOW_REQUIRE(file.good(), Errc::io, "cannot open '" + path + "' for writing");
  file << to_json(records);
  file.close();
  BSRFLOW_REQUIRE(!file.fail(), Errc::io, "writing '" + path + "' failed");
}

std::vector<Record> read_json_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  BSRFLOW_REQUIRE(file.good(), Errc::io, "cannot open '" + path + "' for reading");
  std::ostringstream text;
  text << file.rdbuf();
  try {
    return records_from_json(text.str());
  } catch (const Error& e) {
    BSRFLOW_FAIL(e.code(), path + ": " + e.message());
  }
}

}  // namespace bsrflow::bench
