// A fresh directory under the system's temporary directory (mkdtemp: unique even across the
// processes a test forks), removed with everything in it at scope exit.
#pragma once

#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace bsrflow::test {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix = "bsrflow_test") {
    std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace bsrflow::test
