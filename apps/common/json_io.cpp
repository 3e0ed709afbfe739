#include "bsrflow/apps/common/json_io.hpp"

#include <fstream>
#include <sstream>

#include "bsrflow/core/error.hpp"
#include "bsrflow/core/json.hpp"

namespace bsrflow::bench {

namespace {

void append_field(std::string& out, const Field& f) {
  if (std::holds_alternative<std::monostate>(f)) out += "null";
  else if (const auto* b = std::get_if<bool>(&f)) out += *b ? "true" : "false";
  else if (const auto* i = std::get_if<std::int64_t>(&f)) out += std::to_string(*i);
  else if (const auto* d = std::get_if<double>(&f)) append_json_number(out, *d);
  else out += json_quote(std::get<std::string>(f));
}

// One flat JSON value as a record field; nested values are not records' business.
Field field_of(const Json& v, const std::string& key, std::size_t index) {
  switch (v.kind()) {
    case Json::Kind::null: return std::monostate{};
    case Json::Kind::boolean: return v.as_bool();
    case Json::Kind::integer: return v.as_integer();
    case Json::Kind::number: return v.as_number();
    case Json::Kind::string: return v.as_string();
    case Json::Kind::array:
    case Json::Kind::object: break;
  }
  BSRFLOW_FAIL(Errc::parse, v.where() + "field \"" + key + "\" of record " + std::to_string(index) +
                                " is nested; records hold only flat values");
}

}  // namespace

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

// The strict reader of core/json.hpp, then the records shape: a list of flat objects.
std::vector<Record> records_from_json(std::string_view text) {
  const Json doc = parse_json(text);
  if (!doc.is_array()) BSRFLOW_FAIL(Errc::parse, doc.where() + "expected '[' to start the list of records");
  std::vector<Record> out;
  for (const Json& item : doc.as_array()) {
    const std::size_t index = out.size();
    if (!item.is_object()) BSRFLOW_FAIL(Errc::parse, item.where() + "record " + std::to_string(index) + " is not an object");
    Record r;
    for (const auto& [key, value] : item.as_object()) r.set(key, field_of(value, key, index));
    out.push_back(std::move(r));
  }
  return out;
}

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
