// Checks that an expression throws bsrflow::Error with a given Errc and exactly a given message
// (the user-facing text, without the "bsrflow: <kind>: " prefix and source location).
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "bsrflow/core/error.hpp"

#define BSRFLOW_CHECK_ERROR(expr, errc, text)                                    \
  do {                                                                           \
    try {                                                                        \
      (void)(expr);                                                              \
      FAIL_CHECK("no bsrflow::Error from " #expr);                               \
    } catch (const ::bsrflow::Error& bsrflow_error_) {                           \
      CHECK(bsrflow_error_.code() == (errc));                                    \
      CHECK(bsrflow_error_.message() == std::string(text));                      \
    }                                                                            \
  } while (0)
