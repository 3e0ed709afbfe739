#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/common/csv_io.hpp"
#include "bsrflow/apps/common/json_io.hpp"
#include "bsrflow/apps/common/markdown.hpp"
#include "bsrflow/apps/common/record.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

namespace {
std::vector<Record> sample_records() {
  Record a;
  a.set("system", "cublas_dense").set("m", 8192).set("ms", 1.25).set("correct", true).set("note", "");
  Record b;
  b.set("system", "cusparse_bsr").set("m", 8192).set("ms", std::numeric_limits<double>::quiet_NaN());
  b.set("correct", false).set("note", "says \"no\", then\ttab, comma").set("extra", Field{});
  return {a, b};
}
}  // namespace

TEST_CASE("Record keeps field order and types", "[apps]") {
  Record r;
  r.set("b", 1).set("a", 2.0).set("flag", true).set("text", "x");
  r.set("b", 3);  // replacing keeps the position
  REQUIRE(r.fields().size() == 4);
  CHECK(r.fields()[0].first == "b");
  CHECK(std::holds_alternative<std::int64_t>(*r.find("b")));
  CHECK(std::holds_alternative<double>(*r.find("a")));  // a double is never narrowed to int
  CHECK(std::holds_alternative<bool>(*r.find("flag")));  // nor a bool widened
  CHECK(r.number("b") == 3);
  CHECK(r.number("a") == 2.0);
  CHECK(std::isnan(r.number("text")));
  CHECK(std::isnan(r.number("missing")));
  CHECK(r.text("text") == "x");
  CHECK(r.text("b").empty());
  CHECK(r.flag("flag"));
  CHECK_FALSE(r.flag("missing"));
}

TEST_CASE("JSON writer: one record per line, null for NaN, escaped strings", "[apps]") {
  const std::string json = to_json(sample_records());
  CHECK(json ==
        "[\n"
        "  {\"system\": \"cublas_dense\", \"m\": 8192, \"ms\": 1.25, \"correct\": true, \"note\": \"\"},\n"
        "  {\"system\": \"cusparse_bsr\", \"m\": 8192, \"ms\": null, \"correct\": false, "
        "\"note\": \"says \\\"no\\\", then\\ttab, comma\", \"extra\": null}\n"
        "]\n");
  CHECK(to_json({}) == "[\n]\n");
  CHECK(json_quote(std::string("a\x01z")) == "\"a\\u0001z\"");
}

TEST_CASE("JSON round trip keeps values and types", "[apps]") {
  Record r;
  r.set("int", std::int64_t{-42}).set("whole_double", 2.0).set("double", 0.1).set("big", 1e300);
  r.set("s", "\u00e9\"\\/").set("t", true).set("nil", Field{});
  const std::vector<Record> back = records_from_json(to_json({r}));
  REQUIRE(back.size() == 1);
  CHECK(back[0] == r);
  // \u escapes, surrogate pairs and whitespace in the reader.
  const auto parsed = records_from_json(" [ { \"x\" : \"\\u00e9\\ud83d\\ude00\" , \"y\":-1.5e3 } ] ");
  REQUIRE(parsed.size() == 1);
  CHECK(parsed[0].text("x") == "\u00e9\U0001F600");
  CHECK(parsed[0].number("y") == -1500.0);
}

TEST_CASE("JSON reader rejects malformed input with line and column", "[apps]") {
  CHECK_APP_ERROR(records_from_json("{}"), Errc::parse, "line 1, column 1: expected '[' to start the list of records");
  CHECK_APP_ERROR(records_from_json("[1]"), Errc::parse, "line 1, column 2: record 0 is not an object");
  CHECK_APP_ERROR(records_from_json("[\n  {\"a\": 1,}\n]"), Errc::parse, "line 2, column 11: expected a quoted field name");
  CHECK_APP_ERROR(records_from_json("[{\"a\" 1}]"), Errc::parse, "expected ':' after field name \"a\"");
  CHECK_APP_ERROR(records_from_json("[{\"a\": [1]}]"), Errc::parse, "line 1, column 8: field \"a\" of record 0 is nested");
  CHECK_APP_ERROR(records_from_json("[{\"a\": 1}"), Errc::parse, "line 1, column 10: unexpected end of text: expected ',' or ']' in an array");
  CHECK_APP_ERROR(records_from_json("[{\"a\": \"open}]"), Errc::parse, "unterminated string");
  CHECK_APP_ERROR(records_from_json("[{\"a\": 1.2.3}]"), Errc::parse, "malformed number '1.2.3'");
  CHECK_APP_ERROR(records_from_json("[{\"a\": nope}]"), Errc::parse, "expected a value");
  CHECK_APP_ERROR(records_from_json("[{\"a\": \"\\q\"}]"), Errc::parse, "unknown escape '\\q'");
  CHECK_APP_ERROR(records_from_json("[] x"), Errc::parse, "line 1, column 4: unexpected text after the JSON value");
}

TEST_CASE("CSV writer: union header, empty cells for null and absent, RFC 4180 quoting", "[apps]") {
  CHECK(to_csv(sample_records()) ==
        "system,m,ms,correct,note,extra\n"
        "cublas_dense,8192,1.25,true,,\n"
        "cusparse_bsr,8192,,false,\"says \"\"no\"\", then\ttab, comma\",\n");
  CHECK(to_csv({}) == "\n");
}

TEST_CASE("JSON and CSV files: written, read back, and I/O errors", "[apps]") {
  const auto dir = std::filesystem::temp_directory_path() / "bsrflow_apps_test_io";
  std::filesystem::create_directories(dir);
  const std::string json = (dir / "r.json").string(), csv = (dir / "r.csv").string();
  write_json_file(json, sample_records());
  write_csv_file(csv, sample_records());
  const auto back = read_json_file(json);
  REQUIRE(back.size() == 2);
  CHECK(back[0].text("system") == "cublas_dense");
  CHECK(back[1].find("ms") != nullptr);
  CHECK(std::holds_alternative<std::monostate>(*back[1].find("ms")));
  std::ifstream in(csv);
  std::string header;
  std::getline(in, header);
  CHECK(header == "system,m,ms,correct,note,extra");

  const std::string missing = (dir / "no_such_dir" / "x.json").string();
  CHECK_APP_ERROR(read_json_file(missing), Errc::io, "cannot open '" + missing + "' for reading");
  CHECK_APP_ERROR(write_json_file(missing, {}), Errc::io, "cannot open '" + missing + "' for writing");
  CHECK_APP_ERROR(write_csv_file(missing, {}), Errc::io, "cannot open '" + missing + "' for writing");
  {
    std::ofstream bad(dir / "bad.json");
    bad << "[{\"a\": }]";
  }
  CHECK_APP_ERROR(read_json_file((dir / "bad.json").string()), Errc::parse, "bad.json: line 1, column 8: expected a value");
  std::filesystem::remove_all(dir);
}

TEST_CASE("Markdown tables are aligned and escaped", "[apps]") {
  const std::string md = markdown_table({"name", "ms"}, {{"a|b", "1.5"}, {"long name", "10"}}, {Align::left, Align::right});
  CHECK(md ==
        "| name      |  ms |\n"
        "| --------- | --: |\n"
        "| a\\|b      | 1.5 |\n"
        "| long name |  10 |\n");
  CHECK_APP_ERROR(markdown_table({"a", "b"}, {{"1"}}), Errc::invalid_argument, "table row 0 has 1 cells, the header has 2");
  CHECK(format_fixed(1.23456, 2) == "1.23");
  CHECK(format_fixed(std::nan(""), 2) == "-");
  CHECK(format_significant(0.012345) == "0.0123");
  CHECK(format_significant(12.345) == "12.3");
  CHECK(format_significant(1234.6) == "1235");
  CHECK(format_percent(0.256) == "25.6%");
}
