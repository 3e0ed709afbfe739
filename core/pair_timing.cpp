#include "bsrflow/core/pair_timing.hpp"

#include <string>

#include "bsrflow/core/error.hpp"
#include "bsrflow/core/stream.hpp"

namespace bsrflow {

std::vector<double> time_pair_ratios(const StreamWork& a, const StreamWork& b, int pairs, int warmup,
                                     L2Flusher* flusher, cudaStream_t stream) {
  BSRFLOW_REQUIRE(pairs >= 1, Errc::invalid_argument, "timed runs must be at least 1 (got " + std::to_string(pairs) + ")");
  BSRFLOW_REQUIRE(warmup >= 0, Errc::invalid_argument,
                  "warm-up runs must not be negative (got " + std::to_string(warmup) + ")");
  for (int i = 0; i < warmup; ++i) {
    a(stream);
    b(stream);
  }
  // Run i of the sequence belongs to pair i / 2: a first in even pairs, b first in odd ones. All
  // runs are enqueued before any event is read, so the GPU does not idle between them.
  const int runs = 2 * pairs;
  std::vector<Event> start(static_cast<std::size_t>(runs)), stop(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    const bool a_turn = ((i / 2) % 2 == 0) == (i % 2 == 0);
    if (flusher != nullptr) flusher->flush(stream);
    start[i].record(stream);
    (a_turn ? a : b)(stream);
    stop[i].record(stream);
  }
  std::vector<double> ratio(static_cast<std::size_t>(pairs));
  for (int p = 0; p < pairs; ++p) {
    const double first = Event::elapsed_ms(start[2 * p], stop[2 * p]);
    const double second = Event::elapsed_ms(start[2 * p + 1], stop[2 * p + 1]);
    ratio[p] = p % 2 == 0 ? first / second : second / first;
  }
  return ratio;
}

}  // namespace bsrflow
