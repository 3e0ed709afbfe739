#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/kernel_launch.hpp"
#include "bsrflow/core/stream.hpp"
#include "support/expect_error.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;

namespace {
__global__ void fill_affine(int n, int a, std::int64_t b, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<int>(a * i + b);
}
__global__ void no_params() {}
}  // namespace

TEST_CASE("KernelLaunch keeps its own converted copy of every argument", "[core]") {
  int a = 3;
  KernelLaunch k(fill_affine, dim3(4), dim3(32), 0, 100, a, 7, static_cast<int*>(nullptr));
  a = 99;  // the launch copied the value at construction
  REQUIRE(!k.empty());
  CHECK(*static_cast<int*>(k.args()[0]) == 100);
  CHECK(*static_cast<int*>(k.args()[1]) == 3);
  CHECK(*static_cast<std::int64_t*>(k.args()[2]) == 7);  // int 7 converted to the kernel's int64_t
  CHECK(*static_cast<int**>(k.args()[3]) == nullptr);
  const KernelLaunch copy = k;  // copies share the immutable storage
  CHECK(copy.args() == k.args());
  const cudaKernelNodeParams p = k.node_params();
  CHECK(p.gridDim.x == 4);
  CHECK(p.blockDim.x == 32);
  CHECK(p.kernelParams == k.args());
  KernelLaunch none(no_params, dim3(1), dim3(1), 0);
  CHECK(!none.empty());
  // cooperative(): a flagged copy sharing the arguments; the original stays a plain launch.
  CHECK_FALSE(k.is_cooperative());
  const KernelLaunch coop = k.cooperative();
  CHECK(coop.is_cooperative());
  CHECK_FALSE(k.is_cooperative());
  CHECK(coop.args() == k.args());
  CHECK(coop.func() == k.func());
}

TEST_CASE("KernelLaunch rejects an empty grid", "[core]") {
  BSRFLOW_CHECK_ERROR(KernelLaunch(no_params, dim3(0), dim3(32), 0), Errc::invalid_argument,
                      "KernelLaunch: empty grid (0x1x1); launch at least one block and let the kernel bound-check");
  BSRFLOW_CHECK_ERROR(KernelLaunch().launch(nullptr), Errc::invalid_argument,
                      "KernelLaunch: launching an empty launch");
}

TEST_CASE("DeviceBuffer lifetime tokens expire when the memory goes", "[core]") {
  DeviceBuffer<float> none;
  CHECK(none.lifetime().expired());
  DeviceBuffer<float> zero(0, nullptr);  // no memory, still a live buffer object
  auto token = zero.lifetime();
  CHECK(!token.expired());
  DeviceBuffer<float> moved = std::move(zero);
  CHECK(!token.expired());  // the token follows the memory
  CHECK(zero.lifetime().expired());
  moved = DeviceBuffer<float>();
  CHECK(token.expired());
}

TEST_CASE("KernelLaunch runs on a stream", "[core][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  DeviceBuffer<int> out(300, stream);
  out.fill_bytes(0xFF, stream);
  KernelLaunch(fill_affine, dim3(3), dim3(128), 0, 300, 2, -5, out.data()).launch(stream);
  const std::vector<int> host = out.to_host(stream);
  for (int i = 0; i < 300; ++i) REQUIRE(host[i] == 2 * i - 5);
}
