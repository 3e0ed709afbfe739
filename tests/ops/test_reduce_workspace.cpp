// ScalarArg and the reduce workspace's host side (sizes, carving, checks): no GPU needed, the
// workspace is carved out of made-up addresses that are never dereferenced.
#include <catch2/catch.hpp>

#include <cstdint>

#include "bsrflow/ops/reduce_workspace.hpp"
#include "bsrflow/ops/scalar_arg.hpp"
#include "support/expect_error.hpp"

using namespace bsrflow;

TEST_CASE("ScalarArg: host values and device pointers", "[ops]") {
  const ScalarArg<double> h = scalar(2.5);
  CHECK(h.device == nullptr);
  CHECK(h.get() == 2.5);
  const float stored = -3.0f;  // host memory stands in for device memory: get() just reads it
  const ScalarArg<float> d = scalar_at(&stored);
  CHECK(d.device == &stored);
  CHECK(d.get() == -3.0f);
  BSRFLOW_CHECK_ERROR(scalar_at(static_cast<const double*>(nullptr)), Errc::invalid_argument,
                      "scalar_at: the device pointer is null");
}

TEST_CASE("reduce_workspace_bytes: ticket slot + partials, 256-byte granules", "[ops]") {
  CHECK(reduce_workspace_bytes(1, 1, 8) == 512);
  CHECK(reduce_workspace_bytes(32, 1, 8) == 512);        // 256 bytes of partials exactly
  CHECK(reduce_workspace_bytes(33, 1, 8) == 256 + 512);  // 264 -> 512
  CHECK(reduce_workspace_bytes(1000, 4, 4) == 256 + 16128);
  CHECK(reduce_workspace_bytes(2'000'000'000, 4, 8) == 256 + std::size_t{64'000'000'000});  // no 32-bit overflow
  BSRFLOW_CHECK_ERROR(reduce_workspace_bytes(0, 1, 8), Errc::invalid_argument,
                      "reduce_workspace_bytes: max_blocks (0) must be at least 1");
  BSRFLOW_CHECK_ERROR(reduce_workspace_bytes(4, 5, 8), Errc::invalid_argument,
                      "reduce_workspace_bytes: width (5) must be in [1, 4]");
  BSRFLOW_CHECK_ERROR(reduce_workspace_bytes(4, 0, 8), Errc::invalid_argument,
                      "reduce_workspace_bytes: width (0) must be in [1, 4]");
  BSRFLOW_CHECK_ERROR(reduce_workspace_bytes(4, 1, 0), Errc::invalid_argument,
                      "reduce_workspace_bytes: value size must be positive");
}

TEST_CASE("make_reduce_workspace carves ticket and partials", "[ops]") {
  auto* base = reinterpret_cast<unsigned char*>(std::uintptr_t{1} << 20);  // never dereferenced
  const std::size_t bytes = reduce_workspace_bytes(100, 3, sizeof(double));
  const ReduceWorkspace<double> ws = make_reduce_workspace<double>(base, bytes, 100, 3);
  CHECK(reinterpret_cast<unsigned char*>(ws.ticket) == base);
  CHECK(reinterpret_cast<unsigned char*>(ws.partials) == base + 256);
  CHECK(ws.max_blocks == 100);
  CHECK(ws.width == 3);
  // The last partial (k = 2, block 99) ends inside the bytes asked for.
  CHECK(reinterpret_cast<unsigned char*>(ws.partials + 2 * 100 + 99 + 1) <= base + bytes);

  BSRFLOW_CHECK_ERROR(make_reduce_workspace<double>(nullptr, bytes, 100, 3), Errc::invalid_argument,
                      "make_reduce_workspace: memory is null");
  BSRFLOW_CHECK_ERROR(make_reduce_workspace<double>(base + 8, bytes, 100, 3), Errc::invalid_argument,
                      "make_reduce_workspace: memory is not 256-byte aligned");
  BSRFLOW_CHECK_ERROR(make_reduce_workspace<double>(base, bytes - 1, 100, 3), Errc::invalid_argument,
                      "make_reduce_workspace: 2815 bytes given, 2816 needed for 100 blocks x 3 values");
  BSRFLOW_CHECK_ERROR(make_reduce_workspace<float>(base, bytes, 0, 3), Errc::invalid_argument,
                      "make_reduce_workspace: max_blocks (0) must be at least 1");
  BSRFLOW_CHECK_ERROR(reduce_workspace_init(ReduceWorkspace<float>{}, nullptr), Errc::invalid_argument,
                      "reduce_workspace_init: the workspace has no ticket");
}

TEST_CASE("check_reduce_workspace names the operation and the shortfall", "[ops]") {
  auto* base = reinterpret_cast<unsigned char*>(std::uintptr_t{1} << 20);
  const ReduceWorkspace<float> ws = make_reduce_workspace<float>(base, reduce_workspace_bytes(32, 2, 4), 32, 2);
  check_reduce_workspace(ws, 32, 2, "dot");  // exactly full: fine
  check_reduce_workspace(ws, 1, 1, "dot");
  BSRFLOW_CHECK_ERROR(check_reduce_workspace(ReduceWorkspace<float>{}, 1, 1, "dot"), Errc::invalid_argument,
                      "dot: the reduce workspace is not set up (null partials or ticket)");
  ReduceWorkspace<float> zero_blocks = ws;
  zero_blocks.max_blocks = 0;
  BSRFLOW_CHECK_ERROR(check_reduce_workspace(zero_blocks, 1, 1, "nrm2"), Errc::invalid_argument,
                      "nrm2: the reduce workspace is not set up (max_blocks 0, width 2)");
  BSRFLOW_CHECK_ERROR(check_reduce_workspace(ws, 33, 1, "spmv"), Errc::invalid_argument,
                      "spmv: the grid has 33 blocks but the reduce workspace serves at most 32");
  BSRFLOW_CHECK_ERROR(check_reduce_workspace(ws, 8, 3, "cg"), Errc::invalid_argument,
                      "cg: the reduce workspace holds 2 value(s) per block, 3 needed");
}
