#include "bsrflow/apps/common/stats.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "bsrflow/core/error.hpp"

namespace bsrflow::bench {

namespace {
// p-th percentile of an already sorted, non-empty vector.
double sorted_percentile(const std::vector<double>& sorted, double p) {
  const double rank = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(rank);
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}
}  // namespace

double percentile(std::vector<double> samples, double p) {
  BSRFLOW_REQUIRE(!samples.empty(), Errc::invalid_argument, "percentile of no samples");
  BSRFLOW_REQUIRE(p >= 0.0 && p <= 100.0, Errc::invalid_argument,
                  "percentile " + std::to_string(p) + " is outside [0, 100]");
  std::sort(samples.begin(), samples.end());
  return sorted_percentile(samples, p);
}

Summary summarize(const std::vector<double>& samples) {
  BSRFLOW_REQUIRE(!samples.empty(), Errc::invalid_argument, "summary of no samples");
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  Summary s;
  s.count = static_cast<int>(sorted.size());
  s.median = sorted_percentile(sorted, 50.0);
  s.min = sorted.front();
  s.max = sorted.back();
  s.p10 = sorted_percentile(sorted, 10.0);
  s.p90 = sorted_percentile(sorted, 90.0);
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
  return s;
}

Summary scaled(const Summary& s, double factor) {
  BSRFLOW_REQUIRE(factor > 0.0, Errc::invalid_argument, "scale factor " + std::to_string(factor) + " is not positive");
  Summary out = s;
  for (double* v : {&out.median, &out.min, &out.max, &out.p10, &out.p90, &out.mean}) *v *= factor;
  return out;
}

}  // namespace bsrflow::bench
