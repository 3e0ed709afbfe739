#include <catch2/catch.hpp>

#include <regex>

#include "bsrflow/core/timestamp.hpp"

TEST_CASE("utc_timestamp is ISO 8601 UTC to the second", "[core]") {
  const std::string t = bsrflow::utc_timestamp();
  CHECK(std::regex_match(t, std::regex(R"(20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z)")));
}
