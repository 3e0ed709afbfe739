// A kernel launch as a value: function, grid, block, dynamic shared memory and a private copy of
// the arguments. Ops that are one kernel return one (`axpy_launch(...)`), so the same launch can
// run on a stream now (`launch(stream)`), become an explicit node of a CUDA Graph, or replace a
// node's parameters in an instantiated graph without re-instantiating it (graph/).
//
//   KernelLaunch k(my_kernel, grid, block, smem, n, x_ptr, y_ptr);   // args converted to the
//   k.launch(stream);                                                // kernel's parameter types
//
// The arguments are copied once into shared, immutable storage; copies of a KernelLaunch share it.
// A cooperative launch (`k.cooperative()`, for kernels that synchronise the whole grid with
// cooperative_groups) goes through cudaLaunchCooperativeKernel, and a graph node made from it
// carries the cooperative attribute: either way CUDA refuses a grid that cannot be co-resident.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "bsrflow/core/error.hpp"

namespace bsrflow {

class KernelLaunch {
 public:
  KernelLaunch() = default;

  template <class... Params, class... Args>
  KernelLaunch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem_bytes, Args&&... args)
      : func_(reinterpret_cast<const void*>(kernel)), grid_(grid), block_(block), smem_(smem_bytes) {
    static_assert(sizeof...(Params) == sizeof...(Args), "KernelLaunch: argument count differs from the kernel's");
    BSRFLOW_REQUIRE(grid.x >= 1 && grid.y >= 1 && grid.z >= 1, Errc::invalid_argument,
                    "KernelLaunch: empty grid (" + std::to_string(grid.x) + "x" + std::to_string(grid.y) + "x" +
                        std::to_string(grid.z) + "); launch at least one block and let the kernel bound-check");
    using Storage = Holder<std::remove_cvref_t<Params>...>;
    auto storage = std::make_shared<Storage>(static_cast<std::remove_cvref_t<Params>>(std::forward<Args>(args))...);
    pointers_ = std::shared_ptr<void* const>(storage, storage->pointers.data());
  }

  // This launch as a cooperative one (a copy; the arguments stay shared).
  KernelLaunch cooperative() const {
    KernelLaunch k = *this;
    k.cooperative_ = true;
    return k;
  }
  bool is_cooperative() const noexcept { return cooperative_; }

  bool empty() const noexcept { return func_ == nullptr; }
  const void* func() const noexcept { return func_; }
  dim3 grid() const noexcept { return grid_; }
  dim3 block() const noexcept { return block_; }
  std::size_t smem_bytes() const noexcept { return smem_; }
  // One pointer per kernel parameter, into this launch's own argument copy (cudaLaunchKernel's
  // and cudaKernelNodeParams' `args`).
  void** args() const noexcept { return const_cast<void**>(pointers_.get()); }

  cudaKernelNodeParams node_params() const noexcept {
    cudaKernelNodeParams p{};
    p.func = const_cast<void*>(func_);
    p.gridDim = grid_;
    p.blockDim = block_;
    p.sharedMemBytes = static_cast<unsigned>(smem_);
    p.kernelParams = args();
    p.extra = nullptr;
    return p;
  }

  void launch(cudaStream_t stream) const {
    BSRFLOW_REQUIRE(!empty(), Errc::invalid_argument, "KernelLaunch: launching an empty launch");
    if (cooperative_)
      BSRFLOW_CUDA(cudaLaunchCooperativeKernel(func_, grid_, block_, args(), smem_, stream));
    else
      BSRFLOW_CUDA(cudaLaunchKernel(func_, grid_, block_, args(), smem_, stream));
  }

 private:
  // The argument values and, beside them, a pointer to each (the layout CUDA wants).
  template <class... Ts>
  struct Holder {
    template <class... Us>
    explicit Holder(Us&&... values) : values(std::forward<Us>(values)...) {
      std::apply([this](auto&... v) { pointers = {static_cast<void*>(&v)...}; }, this->values);
    }
    Holder(const Holder&) = delete;
    Holder& operator=(const Holder&) = delete;
    std::tuple<Ts...> values;
    std::array<void*, sizeof...(Ts) == 0 ? 1 : sizeof...(Ts)> pointers{};
  };

  const void* func_ = nullptr;
  dim3 grid_{1, 1, 1};
  dim3 block_{1, 1, 1};
  std::size_t smem_ = 0;
  bool cooperative_ = false;
  std::shared_ptr<void* const> pointers_;
};

}  // namespace bsrflow
