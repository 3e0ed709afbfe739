#include <catch2/catch.hpp>

#include <regex>

#include "bsrflow/apps/common/run_info.hpp"

using namespace bsrflow::bench;

// The stamp is written at build time by apps/common/write_build_commit.cmake: git's short hash of
// HEAD (7 to 40 hex digits), "-dirty.<7 hex digits of the diff's SHA-1>" when tracked files had
// uncommitted changes ("-dirty" alone if git gave no diff), or "unknown" where git could not tell.
// Anything else in a report's "commit" field would be a wrong answer.
TEST_CASE("build_commit is a short git hash, optionally -dirty with the diff's hash, or unknown", "[apps]") {
  const std::string commit = build_commit();
  INFO("build_commit() = '" << commit << "'");
  CHECK((commit == "unknown" || std::regex_match(commit, std::regex("^[0-9a-f]{7,40}(-dirty(\\.[0-9a-f]{7})?)?$"))));
}

TEST_CASE("stamp adds the run info's device, date and commit to a record", "[apps]") {
  Record record;
  record.set("system", "bsrflow");
  stamp(record, RunInfo{"NVIDIA H200", "2025-11-22T03:08:00Z", "abc1234-dirty"});
  std::vector<std::string> keys;
  for (const auto& [key, value] : record.fields()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"system", "device", "date", "commit"});
  CHECK(record.text("device") == "NVIDIA H200");
  CHECK(record.text("date") == "2025-11-22T03:08:00Z");
  CHECK(record.text("commit") == "abc1234-dirty");
}
