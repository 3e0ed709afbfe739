#include <catch2/catch.hpp>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/common/stats.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

TEST_CASE("summarize gives median, spread and mean of timings", "[apps]") {
  // Unsorted on purpose; 10 samples 1..10.
  const Summary s = summarize({7, 3, 10, 1, 5, 2, 9, 4, 8, 6});
  CHECK(s.count == 10);
  CHECK(s.median == Approx(5.5));
  CHECK(s.min == 1);
  CHECK(s.max == 10);
  CHECK(s.p10 == Approx(1.9));  // rank 0.9 between 1 and 2
  CHECK(s.p90 == Approx(9.1));
  CHECK(s.mean == Approx(5.5));

  const Summary one = summarize({2.5});
  CHECK(one.median == 2.5);
  CHECK(one.p10 == 2.5);
  CHECK(one.p90 == 2.5);
}

TEST_CASE("percentile interpolates between closest ranks", "[apps]") {
  CHECK(percentile({10, 20, 30}, 50) == 20);
  CHECK(percentile({10, 20, 30}, 25) == 15);
  CHECK(percentile({10, 20, 30}, 0) == 10);
  CHECK(percentile({10, 20, 30}, 100) == 30);
}

TEST_CASE("scaled: every statistic times a factor, the count kept (a chain's times per product)", "[apps]") {
  const Summary s = scaled(summarize({7, 3, 10, 1, 5, 2, 9, 4, 8, 6}), 0.25);
  CHECK(s.count == 10);
  CHECK(s.median == Approx(5.5 / 4));
  CHECK(s.min == Approx(0.25));
  CHECK(s.max == Approx(2.5));
  CHECK(s.p10 == Approx(1.9 / 4));
  CHECK(s.p90 == Approx(9.1 / 4));
  CHECK(s.mean == Approx(5.5 / 4));
  CHECK_APP_ERROR(scaled(s, 0.0), Errc::invalid_argument, "is not positive");
  CHECK_APP_ERROR(scaled(s, -1.0), Errc::invalid_argument, "is not positive");
}

TEST_CASE("statistics of nothing are errors", "[apps]") {
  CHECK_APP_ERROR(summarize({}), Errc::invalid_argument, "summary of no samples");
  CHECK_APP_ERROR(percentile({}, 50), Errc::invalid_argument, "percentile of no samples");
  CHECK_APP_ERROR(percentile({1.0}, 101), Errc::invalid_argument, "outside [0, 100]");
}
