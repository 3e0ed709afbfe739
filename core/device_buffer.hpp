// Owning, stream-ordered device memory (cudaMallocAsync / cudaFreeAsync). Move-only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "bsrflow/core/error.hpp"

namespace bsrflow {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;

  // Allocates `count` elements on `stream` (uninitialised). A zero count holds no memory.
  DeviceBuffer(std::size_t count, cudaStream_t stream) : size_(count), stream_(stream) {
    if (count > 0) BSRFLOW_CUDA(cudaMallocAsync(reinterpret_cast<void**>(&ptr_), count * sizeof(T), stream));
    alive_ = std::make_shared<const char>(0);
  }

  // Allocates and copies `host` in (stream-ordered; the host memory must stay alive until the
  // stream reaches the copy, which for pageable memory is before this returns).
  static DeviceBuffer from_host(std::span<const T> host, cudaStream_t stream) {
    DeviceBuffer buffer(host.size(), stream);
    buffer.copy_from_host(host, stream);
    return buffer;
  }

  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      swap(other);
    }
    return *this;
  }
  ~DeviceBuffer() { release(); }

  T* data() noexcept { return ptr_; }
  const T* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  cudaStream_t stream() const noexcept { return stream_; }
  // Expires when this memory is freed (destruction, move-from, reassignment). A replayed CUDA
  // Graph holds these for the buffers its tasks use and refuses to launch once one has expired
  // (graph/). Empty for a default-constructed buffer.
  std::weak_ptr<const void> lifetime() const noexcept { return alive_; }

  void copy_from_host(std::span<const T> host, cudaStream_t stream) {
    BSRFLOW_REQUIRE(host.size() == size_, Errc::invalid_argument,
                    "copy_from_host: " + std::to_string(host.size()) + " elements into a buffer of " +
                        std::to_string(size_));
    if (size_ > 0)
      BSRFLOW_CUDA(cudaMemcpyAsync(ptr_, host.data(), bytes(), cudaMemcpyHostToDevice, stream));
  }

  // Copies to a host vector and synchronises `stream`.
  std::vector<T> to_host(cudaStream_t stream) const {
    std::vector<T> host(size_);
    if (size_ > 0) {
      BSRFLOW_CUDA(cudaMemcpyAsync(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost, stream));
      BSRFLOW_CUDA(cudaStreamSynchronize(stream));
    }
    return host;
  }

  // Sets every byte to `byte_value` (e.g. 0xFF to poison an output before a test).
  void fill_bytes(int byte_value, cudaStream_t stream) {
    if (size_ > 0) BSRFLOW_CUDA(cudaMemsetAsync(ptr_, byte_value, bytes(), stream));
  }

 private:
  void release() noexcept {
    // A destructor cannot throw; a failed free here means the context is already broken and
    // the next checked call reports it.
    if (ptr_ != nullptr) (void)cudaFreeAsync(ptr_, stream_);
    ptr_ = nullptr;
    size_ = 0;
    alive_.reset();
  }
  void swap(DeviceBuffer& other) noexcept {
    std::swap(ptr_, other.ptr_);
    std::swap(size_, other.size_);
    std::swap(stream_, other.stream_);
    std::swap(alive_, other.alive_);
  }

  T* ptr_ = nullptr;
  std::size_t size_ = 0;
  cudaStream_t stream_ = nullptr;
  std::shared_ptr<const char> alive_;  // see lifetime()
};

}  // namespace bsrflow
