// GPU-test helpers. Catch2 2.13 has no SKIP(): a [gpu] test starts with BSRFLOW_REQUIRE_GPU(),
// which reports the skip with WARN and returns when no GPU is present. Nothing here touches CUDA
// in a static initialiser (catch_discover_tests runs the binary at build time).
#pragma once

#include <catch2/catch.hpp>

#include "bsrflow/core/device_info.hpp"

#define BSRFLOW_REQUIRE_GPU()                                                   \
  do {                                                                          \
    if (::bsrflow::gpu_count() == 0) {                                          \
      WARN("SKIPPED: no CUDA GPU available, [gpu] test not run");               \
      return;                                                                   \
    }                                                                           \
  } while (0)

// For tests of kernels that need sm_90 or newer (TMA, such as the skinny GEMM): also skips, with
// a line saying so, on an older GPU.
#define BSRFLOW_REQUIRE_SM90_OR_NEWER()                                                                    \
  do {                                                                                                     \
    BSRFLOW_REQUIRE_GPU();                                                                                 \
    if (::bsrflow::device_info().compute_capability() < 90) {                                              \
      WARN("SKIPPED: " << ::bsrflow::device_info().name << " is below sm_90, test not run");               \
      return;                                                                                              \
    }                                                                                                      \
  } while (0)

// For tests of the Hopper kernels: also skips (with a line saying so) on a GPU that is not sm_90,
// where the planner would pick another kernel and the test would test nothing new.
#define BSRFLOW_REQUIRE_HOPPER()                                                              \
  do {                                                                                        \
    BSRFLOW_REQUIRE_GPU();                                                                    \
    if (!::bsrflow::device_info().is_hopper()) {                                              \
      WARN("SKIPPED: " << ::bsrflow::device_info().name << " is not sm_90, sm90 test not run"); \
      return;                                                                                 \
    }                                                                                         \
  } while (0)
