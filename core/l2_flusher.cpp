#include "bsrflow/core/l2_flusher.hpp"

namespace bsrflow {

L2Flusher::L2Flusher(std::size_t l2_bytes, cudaStream_t stream) : scratch_(2 * l2_bytes, stream) {}

void L2Flusher::flush(cudaStream_t stream) {
  scratch_.fill_bytes(next_value_, stream);
  next_value_ = (next_value_ + 1) & 0xFF;
}

}  // namespace bsrflow
