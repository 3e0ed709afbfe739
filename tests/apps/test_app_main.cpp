// The apps' shared main() behaviour and table cells (apps/common: app_main, markdown, timing).
#include <catch2/catch.hpp>

#include <stdexcept>

#include "bsrflow/apps/common/app_main.hpp"
#include "bsrflow/apps/common/gpu_guard.hpp"
#include "bsrflow/apps/common/markdown.hpp"
#include "bsrflow/apps/common/timing.hpp"
#include "bsrflow/core/error.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

TEST_CASE("run_app returns the body's code, or kExitUsage for an exception", "[apps]") {
  CHECK(run_app("t", [] { return 0; }) == 0);
  CHECK(run_app("t", [] { return kExitNoGpu; }) == kExitNoGpu);
  CHECK(run_app("t", []() -> int { throw Error(Errc::invalid_argument, "bad --x"); }) == kExitUsage);
  CHECK(run_app("t", []() -> int { throw Error(Errc::cuda, "boom"); }) == kExitUsage);
  CHECK(run_app("t", []() -> int { throw std::runtime_error("other"); }) == kExitUsage);
}

TEST_CASE("timing fields and the table cells made from them", "[apps]") {
  Summary s;
  s.count = 20;
  s.median = 0.5;
  s.min = 0.4;
  s.p10 = 0.45;
  s.p90 = 0.6;
  s.max = 0.7;
  Record r;
  CHECK(ms_spread_cell(r) == "-");
  set_timing_fields(r, s);
  CHECK(r.number("ms") == 0.5);
  CHECK(r.number("ms_min") == 0.4);
  CHECK(r.number("ms_max") == 0.7);
  CHECK(r.number("runs") == 20);
  CHECK(ms_spread_cell(r) == "0.500 (0.450-0.600)");
  CHECK(target_met_cell(r).empty());
  r.set("target", ">= 80%");
  CHECK(target_met_cell(r) == ">= 80%");
  r.set("target_met", true);
  CHECK(target_met_cell(r) == ">= 80%: met");
  r.set("target_met", false);
  CHECK(target_met_cell(r) == ">= 80%: MISSED");
}
