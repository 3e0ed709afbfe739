// Helpers for the apps tests: argv from a list of strings, and the error check every hostile
// input gets (the Errc and the message text).
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "bsrflow/core/error.hpp"

// Checks that `expr` throws bsrflow::Error with code `errc` and a message containing `text`.
#define CHECK_APP_ERROR(expr, errc, text)                                        \
  do {                                                                           \
    CHECK_THROWS_WITH((expr), Catch::Contains(text));                            \
    try {                                                                        \
      (void)(expr);                                                              \
    } catch (const ::bsrflow::Error& app_error_) {                               \
      CHECK(app_error_.code() == (errc));                                        \
    }                                                                            \
  } while (0)

namespace bsrflow::test {

// argv for a CLI parser: program name first.
struct Args {
  explicit Args(std::vector<std::string> args) : strings(std::move(args)) {
    strings.insert(strings.begin(), "prog");
    for (auto& s : strings) pointers.push_back(s.c_str());
  }
  int argc() const { return static_cast<int>(pointers.size()); }
  const char* const* argv() const { return pointers.data(); }
  std::vector<std::string> strings;
  std::vector<const char*> pointers;
};

}  // namespace bsrflow::test
