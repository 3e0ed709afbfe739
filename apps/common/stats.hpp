// Summary statistics of repeated timings: the median is what reports quote, the spread
// (min, p10, p90, max) says how much to trust it.
#pragma once

#include <vector>

namespace bsrflow::bench {

struct Summary {
  int count = 0;
  double median = 0;
  double min = 0;
  double max = 0;
  double p10 = 0;  // 10th percentile
  double p90 = 0;  // 90th percentile
  double mean = 0;
};

// Percentile p in [0, 100] of `samples` by linear interpolation between closest ranks (the
// "R-7" definition numpy uses by default). Throws Error(invalid_argument) if empty or p is out
// of range.
double percentile(std::vector<double> samples, double p);

// Throws Error(invalid_argument) if `samples` is empty.
Summary summarize(const std::vector<double>& samples);

// Every statistic times `factor` (count unchanged): e.g. a chain of L runs' times as per-run
// times, factor 1 / L. Throws Error(invalid_argument) unless factor > 0.
Summary scaled(const Summary& s, double factor);

}  // namespace bsrflow::bench
