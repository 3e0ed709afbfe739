// Device vectors for op tests: the data sits between poisoned guards (0xFF bytes, NaN for
// floating point), optionally shifted by one element so that 16-byte vector paths are skipped.
// After a run the whole storage comes back, so a write past either end or an unwritten element
// shows up in a bitwise comparison with expected_storage().
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/error.hpp"
#include "support/patterns.hpp"

namespace bsrflow::test {

template <class T>
class GuardedVector {
 public:
  // Guard of 8 elements: a multiple of 16 bytes for 4- and 8-byte types, so `misalign` = 0
  // leaves data() 16-byte aligned (DeviceBuffer memory is at least 256-byte aligned) and
  // misalign = 1 shifts it by one element.
  static constexpr std::size_t kGuard = 8;

  GuardedVector(const std::vector<T>& values, int misalign, cudaStream_t stream)
      : offset_(kGuard + static_cast<std::size_t>(misalign)), size_(values.size()),
        storage_(values.size() + 2 * kGuard + 1, stream) {
    storage_.fill_bytes(0xFF, stream);
    if (!values.empty())
      BSRFLOW_CUDA(cudaMemcpyAsync(data(), values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
  }

  T* data() { return storage_.data() + offset_; }
  std::size_t size() const { return size_; }
  // The whole storage, guards included (synchronises).
  std::vector<T> storage(cudaStream_t stream) const { return storage_.to_host(stream); }
  // Just the data (synchronises).
  std::vector<T> values(cudaStream_t stream) const {
    const std::vector<T> all = storage(stream);
    return std::vector<T>(all.begin() + static_cast<std::ptrdiff_t>(offset_),
                          all.begin() + static_cast<std::ptrdiff_t>(offset_ + size_));
  }
  // What storage() must be when the data equals `values` and nothing else was written.
  std::vector<T> expected_storage(const std::vector<T>& values) const {
    std::vector<T> all = poisoned<T>(storage_.size());
    std::copy(values.begin(), values.end(), all.begin() + static_cast<std::ptrdiff_t>(offset_));
    return all;
  }

 private:
  std::size_t offset_;
  std::size_t size_;
  DeviceBuffer<T> storage_;
};

}  // namespace bsrflow::test
