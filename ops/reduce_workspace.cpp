#include "bsrflow/ops/reduce_workspace.hpp"

#include <cstdint>
#include <string>

namespace bsrflow {

namespace {

std::size_t round_up(std::size_t v, std::size_t unit) { return (v + unit - 1) / unit * unit; }

void check_shape(int max_blocks, int width, std::size_t value_size, std::string_view op) {
  const std::string prefix(op);
  BSRFLOW_REQUIRE(max_blocks >= 1, Errc::invalid_argument,
                  prefix + ": max_blocks (" + std::to_string(max_blocks) + ") must be at least 1");
  BSRFLOW_REQUIRE(width >= 1 && width <= kMaxReduceWidth, Errc::invalid_argument,
                  prefix + ": width (" + std::to_string(width) + ") must be in [1, " +
                      std::to_string(kMaxReduceWidth) + "]");
  BSRFLOW_REQUIRE(value_size > 0, Errc::invalid_argument, prefix + ": value size must be positive");
}

}  // namespace

std::size_t reduce_workspace_bytes(int max_blocks, int width, std::size_t value_size) {
  check_shape(max_blocks, width, value_size, "reduce_workspace_bytes");
  // max_blocks < 2^31, width <= 4, value_size of a scalar: no overflow in 64 bits.
  const std::size_t partials = static_cast<std::size_t>(max_blocks) * static_cast<std::size_t>(width) * value_size;
  return kReduceWorkspaceAlignment + round_up(partials, kReduceWorkspaceAlignment);
}

namespace detail {

void* carve_reduce_workspace(void* memory, std::size_t bytes, int max_blocks, int width, std::size_t value_size) {
  check_shape(max_blocks, width, value_size, "make_reduce_workspace");
  BSRFLOW_REQUIRE(memory != nullptr, Errc::invalid_argument, "make_reduce_workspace: memory is null");
  BSRFLOW_REQUIRE(reinterpret_cast<std::uintptr_t>(memory) % kReduceWorkspaceAlignment == 0, Errc::invalid_argument,
                  "make_reduce_workspace: memory is not 256-byte aligned");
  const std::size_t needed = reduce_workspace_bytes(max_blocks, width, value_size);
  BSRFLOW_REQUIRE(bytes >= needed, Errc::invalid_argument,
                  "make_reduce_workspace: " + std::to_string(bytes) + " bytes given, " + std::to_string(needed) +
                      " needed for " + std::to_string(max_blocks) + " blocks x " + std::to_string(width) +
                      " values");
  return static_cast<unsigned char*>(memory) + kReduceWorkspaceAlignment;
}

void check_reduce_workspace(const void* partials, const void* ticket, int ws_max_blocks, int ws_width,
                            std::int64_t grid_blocks, int width, std::string_view op) {
  const std::string prefix(op);
  BSRFLOW_REQUIRE(partials != nullptr && ticket != nullptr, Errc::invalid_argument,
                  prefix + ": the reduce workspace is not set up (null partials or ticket)");
  BSRFLOW_REQUIRE(ws_max_blocks >= 1 && ws_width >= 1, Errc::invalid_argument,
                  prefix + ": the reduce workspace is not set up (max_blocks " + std::to_string(ws_max_blocks) +
                      ", width " + std::to_string(ws_width) + ")");
  BSRFLOW_REQUIRE(grid_blocks <= ws_max_blocks, Errc::invalid_argument,
                  prefix + ": the grid has " + std::to_string(grid_blocks) +
                      " blocks but the reduce workspace serves at most " + std::to_string(ws_max_blocks));
  BSRFLOW_REQUIRE(width <= ws_width, Errc::invalid_argument,
                  prefix + ": the reduce workspace holds " + std::to_string(ws_width) + " value(s) per block, " +
                      std::to_string(width) + " needed");
}

}  // namespace detail
}  // namespace bsrflow
