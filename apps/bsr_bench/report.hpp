// bsr_bench's human-readable outputs, made from records only (so --plot-from can redraw a
// chart from a JSON file without a GPU).
#pragma once

#include <string>
#include <vector>

#include "bsrflow/apps/common/plot.hpp"
#include "bsrflow/apps/common/record.hpp"
#include "bsrflow/apps/common/timing.hpp"

namespace bsrflow::bench {

// The Markdown table (one row per record) and a footer that defines every column, names the
// device, date, commit and the probes of the run.
std::string bench_markdown(const std::vector<Record>& records, const TimingConfig& timing, int reference_iters);

// Effective TFLOPS per case (groups) and system (bars); systems that did not run correctly
// have no bar.
BarChart bench_chart(const std::vector<Record>& records);

}  // namespace bsrflow::bench
