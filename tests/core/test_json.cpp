// The strict JSON reader/writer of core/json.hpp: round trips, positions, and each kind of
// malformed text with its message.
#include <catch2/catch.hpp>

#include <string>

#include "bsrflow/core/error.hpp"
#include "bsrflow/core/json.hpp"
#include "support/expect_error.hpp"

using namespace bsrflow;

TEST_CASE("JSON: values round-trip through text", "[core][json]") {
  Json doc;
  doc.set("format", 1);
  doc.set("name", "a \"quoted\"\nline\t\x01");
  doc.set("pi", 3.25);
  doc.set("two", 2.0);
  doc.set("big", std::int64_t{1} << 53);
  doc.set("neg", -7);
  doc.set("yes", true);
  doc.set("none", Json());
  Json& list = doc.set("list", Json(Json::Array{}));
  list.push_back(Json(Json::Object{{"x", Json(1)}}));
  list.push_back(Json(Json::Array{Json(1), Json("b")}));
  for (const int indent : {-1, 0, 2}) {
    CAPTURE(indent);
    const std::string text = to_json_text(doc, indent);
    const Json back = parse_json(text);
    CHECK(back == doc);
    CHECK(back.find("two")->kind() == Json::Kind::number);  // 2.0 stays a double
    CHECK(back.find("big")->as_integer() == (std::int64_t{1} << 53));
    CHECK(back.find("name")->as_string() == "a \"quoted\"\nline\t\x01");
  }
  CHECK(to_json_text(Json(Json::Array{Json(1), Json(2)}), -1) == "[1, 2]\n");
  CHECK(to_json_text(doc, 2, 1).find("\n  \"list\": [{\"x\": 1}, [1, \"b\"]]") != std::string::npos);
  CHECK(parse_json("\"\\u00e9\\ud83d\\ude00\"").as_string() == "\xc3\xa9\xf0\x9f\x98\x80");
}

TEST_CASE("JSON: parsed values know where they started", "[core][json]") {
  const Json doc = parse_json("{\n  \"a\": [1,\n    true]\n}");
  CHECK(doc.line() == 1);
  CHECK(doc.column() == 1);
  const Json& t = doc.find("a")->as_array()[1];
  CHECK(t.line() == 3);
  CHECK(t.column() == 5);
  BSRFLOW_CHECK_ERROR(t.as_string(), Errc::parse, "line 3, column 5: expected a string, found a boolean");
  BSRFLOW_CHECK_ERROR(Json(1.5).as_integer(), Errc::parse, "expected an integer, found a number");
  CHECK(Json(3).as_number() == 3.0);
  CHECK(doc.find("missing") == nullptr);
  CHECK(Json(1).find("a") == nullptr);
}

TEST_CASE("JSON: malformed text is rejected with line, column and what was wrong", "[core][json]") {
  BSRFLOW_CHECK_ERROR(parse_json(""), Errc::parse, "line 1, column 1: empty text: expected a JSON value");
  BSRFLOW_CHECK_ERROR(parse_json("  \n "), Errc::parse, "line 2, column 2: empty text: expected a JSON value");
  BSRFLOW_CHECK_ERROR(parse_json("{\"a\": 1,}"), Errc::parse, "line 1, column 9: expected a quoted field name");
  BSRFLOW_CHECK_ERROR(parse_json("[1, 2"), Errc::parse,
                      "line 1, column 6: unexpected end of text: expected ',' or ']' in an array");
  BSRFLOW_CHECK_ERROR(parse_json("{\"a\": 1"), Errc::parse,
                      "line 1, column 8: unexpected end of text: expected ',' or '}' in an object");
  BSRFLOW_CHECK_ERROR(parse_json("{\"a\": "), Errc::parse, "line 1, column 7: unexpected end of text: expected a value");
  BSRFLOW_CHECK_ERROR(parse_json("{\"a\": 1, \"a\": 2}"), Errc::parse, "line 1, column 10: duplicate field name \"a\"");
  BSRFLOW_CHECK_ERROR(parse_json("[1] x"), Errc::parse, "line 1, column 5: unexpected text after the JSON value");
  BSRFLOW_CHECK_ERROR(parse_json("[NaN]"), Errc::parse, "line 1, column 2: expected a value");
  BSRFLOW_CHECK_ERROR(parse_json("[1.2.3]"), Errc::parse, "line 1, column 2: malformed number '1.2.3'");
  BSRFLOW_CHECK_ERROR(parse_json("[+1]"), Errc::parse, "line 1, column 2: expected a value");
  BSRFLOW_CHECK_ERROR(parse_json("\"abc"), Errc::parse, "line 1, column 5: unterminated string");
  BSRFLOW_CHECK_ERROR(parse_json("\"a\nb\""), Errc::parse, "line 2, column 1: control character inside a string");
  BSRFLOW_CHECK_ERROR(parse_json("\"\\x\""), Errc::parse, "line 1, column 3: unknown escape '\\x'");
  BSRFLOW_CHECK_ERROR(parse_json(std::string(100, '[') + std::string(100, ']')), Errc::parse,
                      "line 1, column 66: nesting deeper than 64 levels");
}
