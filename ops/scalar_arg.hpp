// A scalar operand of an op, fixed at launch or read on the device at run time.
//
//   axpy(n, scalar(2.0), x, y, stream);          // value baked into the launch
//   axpy(n, scalar_at(d_alpha), x, y, stream);   // *d_alpha read by the kernel when it runs
//
// Solver scalars that change every iteration (CG's alpha and beta) live in device memory and are
// passed with scalar_at, so a captured CUDA Graph replays with the current values without any
// node update. ScalarArg is trivially copyable: it is a kernel parameter as it stands.
#pragma once

#include <type_traits>

#include "bsrflow/core/error.hpp"
#include "bsrflow/core/host_device.hpp"

namespace bsrflow {

template <class T>
struct ScalarArg {
  T value{};                  // used when `device` is null
  const T* device = nullptr;  // device pointer mode: read at run time (must stay valid until then)

  // On the device: the current value. On the host only for host values (or host-readable memory).
  BSRFLOW_HD T get() const { return device != nullptr ? *device : value; }
};

static_assert(std::is_trivially_copyable_v<ScalarArg<double>>);

// A host value.
template <class T>
ScalarArg<T> scalar(T v) {
  return ScalarArg<T>{v, nullptr};
}

// A value read from device memory `p` when the kernel runs. Throws Error(invalid_argument) for a
// null `p` (which would otherwise silently mean the host value 0).
template <class T>
ScalarArg<T> scalar_at(const T* p) {
  BSRFLOW_REQUIRE(p != nullptr, Errc::invalid_argument, "scalar_at: the device pointer is null");
  return ScalarArg<T>{T{}, p};
}

}  // namespace bsrflow
