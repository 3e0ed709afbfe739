// RAII CUDA streams and events.
#pragma once

#include <cuda_runtime_api.h>

#include "bsrflow/core/error.hpp"

namespace bsrflow {

class Stream {
 public:
  // A non-blocking stream (does not synchronise with the legacy default stream).
  Stream() { BSRFLOW_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& other) noexcept : stream_(other.stream_) { other.stream_ = nullptr; }
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      reset();
      stream_ = other.stream_;
      other.stream_ = nullptr;
    }
    return *this;
  }
  ~Stream() { reset(); }

  cudaStream_t get() const noexcept { return stream_; }
  operator cudaStream_t() const noexcept { return stream_; }
  void synchronize() const { BSRFLOW_CUDA(cudaStreamSynchronize(stream_)); }

 private:
  void reset() noexcept {
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  explicit Event(unsigned flags = cudaEventDefault) { BSRFLOW_CUDA(cudaEventCreateWithFlags(&event_, flags)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& other) noexcept : event_(other.event_) { other.event_ = nullptr; }
  Event& operator=(Event&& other) noexcept {
    if (this != &other) {
      reset();
      event_ = other.event_;
      other.event_ = nullptr;
    }
    return *this;
  }
  ~Event() { reset(); }

  cudaEvent_t get() const noexcept { return event_; }
  operator cudaEvent_t() const noexcept { return event_; }
  void record(cudaStream_t stream) { BSRFLOW_CUDA(cudaEventRecord(event_, stream)); }
  void synchronize() const { BSRFLOW_CUDA(cudaEventSynchronize(event_)); }

  // Milliseconds between two recorded events (synchronises on `end`).
  static float elapsed_ms(const Event& start, const Event& end) {
    end.synchronize();
    float ms = 0.f;
    BSRFLOW_CUDA(cudaEventElapsedTime(&ms, start.event_, end.event_));
    return ms;
  }

 private:
  void reset() noexcept {
    if (event_ != nullptr) (void)cudaEventDestroy(event_);
    event_ = nullptr;
  }
  cudaEvent_t event_ = nullptr;
};

}  // namespace bsrflow
