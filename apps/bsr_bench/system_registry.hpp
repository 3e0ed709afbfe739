// Every system bsr_bench knows, in report order. A new bsrflow GEMM path is one line in
// system_registry.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bsrflow/apps/bsr_bench/sm90_variants.hpp"
#include "bsrflow/apps/bsr_bench/system.hpp"

namespace bsrflow::bench {

std::vector<std::unique_ptr<System>> make_all_systems();
std::vector<std::string> system_names();

// The factories (one file each).
std::unique_ptr<System> make_reference_system();
std::unique_ptr<System> make_sm90_system();
std::unique_ptr<System> make_sm90_tuned_system();
std::unique_ptr<System> make_sm90_copy_probe_system();
std::unique_ptr<System> make_skinny_system();
std::unique_ptr<System> make_cublas_dense_system();
std::unique_ptr<System> make_cublas_dense_random_system();
std::unique_ptr<System> make_cusparse_bsr_system();
std::unique_ptr<System> make_cusparse_blocked_ell_system();

// One --sm90-configs system for case `c`: the Hopper kernel forced into `v`, named by the plan it
// gets on `device` ("bsrflow_sm90[<variant>]" when that plan is impossible; the record then says
// why).
std::unique_ptr<System> make_sm90_variant_system(const BenchCase& c, const Sm90Variant& v, const DeviceInfo& device);

}  // namespace bsrflow::bench
