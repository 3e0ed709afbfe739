// Every system bsr_bench knows, in report order. A new bsrflow GEMM path is one line in
// system_registry.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bsrflow/apps/bsr_bench/system.hpp"

namespace bsrflow::bench {

std::vector<std::unique_ptr<System>> make_all_systems();
std::vector<std::string> system_names();

// The factories (one file each).
std::unique_ptr<System> make_reference_system();
std::unique_ptr<System> make_sm90_system();
std::unique_ptr<System> make_cublas_dense_system();
std::unique_ptr<System> make_cusparse_bsr_system();
std::unique_ptr<System> make_cusparse_blocked_ell_system();

}  // namespace bsrflow::bench
