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

// Effective TFLOPS against block shape: one panel per case family (BenchCase::panel_label: the
// same sizes, density, pattern and layouts; so one panel per density for the plain uniform
// cases), x = the block shapes of that family, smallest first ("16", "16x64"), one line per
// system and dtype (colour = system, dash = dtype; an --sm90-configs variant is one line
// "bsrflow_sm90[swath256_direct]" across block shapes). Systems that did not run correctly have
// no point.
PanelChart bench_chart(const std::vector<Record>& records);

}  // namespace bsrflow::bench
