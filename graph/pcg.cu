// PcgSolver: owns the work vectors, the scalars, the preconditioner and the instantiated graph
// of one solve; solve() re-points b and x by updating kernel nodes in place.
#include "bsrflow/graph/pcg.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/graph/pcg_kernels.cuh"
#include "bsrflow/graph/pcg_persistent.cuh"
#include "bsrflow/ops/reduce_workspace.hpp"
#include "bsrflow/ops/spmv.hpp"
#include "bsrflow/ops/vector_ops.hpp"

namespace bsrflow {

using detail::PcgScalars;
using detail::PcgVectors;

const char* pcg_execution_name(PcgExecution execution) {
  switch (execution) {
    case PcgExecution::automatic: return "automatic";
    case PcgExecution::graph_loop: return "graph_loop";
    case PcgExecution::persistent: return "persistent";
  }
  return "unknown";
}

bool pcg_runs_persistent(PcgExecution requested, std::int64_t rows, std::int64_t matrix_bytes,
                         bool cooperative_launch_supported) {
  if (requested == PcgExecution::graph_loop || rows == 0) return false;
  BSRFLOW_REQUIRE(cooperative_launch_supported || requested != PcgExecution::persistent, Errc::unsupported,
                  "PCG: PcgExecution::persistent needs a device with cooperative launches");
  return cooperative_launch_supported &&
         (requested == PcgExecution::persistent || matrix_bytes <= kPcgPersistentMaxMatrixBytes);
}

namespace {

bool cooperative_launch_supported() {
  int device = 0, supported = 0;
  BSRFLOW_CUDA(cudaGetDevice(&device));
  BSRFLOW_CUDA(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, device));
  return supported != 0;
}

// The execution a BSR solver of A runs on this device.
template <class T>
bool resolve_persistent(PcgExecution requested, const BsrView<const T>& A) {
  if (requested == PcgExecution::graph_loop || A.rows == 0) return false;  // no device query needed
  const std::int64_t matrix_bytes = (static_cast<std::int64_t>(A.block_rows()) + 1) * 4 +
                                    A.nnzb * (4 + static_cast<std::int64_t>(A.R) * A.C * sizeof(T));
  return pcg_runs_persistent(requested, A.rows, matrix_bytes, cooperative_launch_supported());
}

// f(std::integral_constant<int, kB>{}) for the block size kb (1..8) of the fused and persistent
// kernels' instantiations.
template <class F>
decltype(auto) with_block_size(int kb, F&& f) {
  switch (kb) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 5: return f(std::integral_constant<int, 5>{});
    case 6: return f(std::integral_constant<int, 6>{});
    case 7: return f(std::integral_constant<int, 7>{});
    default: return f(std::integral_constant<int, 8>{});
  }
}

}  // namespace

template <class T>
struct PcgSolver<T>::Impl {
  PcgOptions options;
  std::int64_t n = 0;
  int kb = 1;                          // rows per thread block of the fused kernels (block-Jacobi: R)
  BsrView<const T> A{};                // BSR path
  std::unique_ptr<SpmvPlan> spmv;      // BSR path
  LinearOperator<T> op;                // operator path
  JacobiPreconditioner<T> jacobi;      // BSR path (owns the inverse)
  JacobiApply<T> m;
  DeviceBuffer<T> r, p, q, pq;
  DeviceBuffer<PcgScalars> scalars;
  ReduceScratch<double> reduce;        // the fused PCG kernels (one at a time)
  ReduceScratch<T> dot_reduce;         // p.q (SpMV's fused dot, or the operator path's dot kernel)
  LoopState state;
  LoopState eager_state;  // solve_eager: words without a graph handle (no graph runs them)
  TaskGraph graph{"pcg"};
  GraphExec exec;
  Task ax, init, apply_p, dot_pq, update, direction;
  // PcgExecution::persistent: the one kernel of the solve and its extra buffers.
  bool persistent = false;
  int persistent_grid = 0;  // CTAs of the cooperative launch (all co-resident)
  DeviceBuffer<T> work;  // (kPcgPersistentWorkVectors, n)
  DeviceBuffer<double> partials;
  Task whole_solve;
  const T* b = nullptr;
  T* x = nullptr;
  bool bound = false;  // b / x are the caller's (not the build placeholders)

  // The result of the last solve that ran `iterations` iterations (waits for `stream`).
  PcgResult read_result(unsigned iterations, cudaStream_t stream) const;

  Impl(const PcgOptions& o, std::int64_t rows, cudaStream_t stream)
      : options(o), n(rows), r(rows, stream), p(rows, stream), q(rows, stream), pq(1, stream), scalars(1, stream),
        reduce(reduce_grid_blocks(rows), 3, stream), state(stream), eager_state(stream) {
    BSRFLOW_REQUIRE(o.rtol >= 0 && o.atol >= 0, Errc::invalid_argument,
                    "PCG: rtol and atol must be non-negative (got " + std::to_string(o.rtol) + ", " +
                        std::to_string(o.atol) + ")");
    scalars.fill_bytes(0, stream);
  }

  PcgVectors<T> vectors(LoopControl control) {
    PcgVectors<T> v;
    v.n = n;
    v.b = b;
    v.x = x;
    v.r = r.data();
    v.p = p.data();
    v.q = q.data();
    v.pq = pq.data();
    v.s = scalars.data();
    v.m = m;
    v.ws = reduce.view();
    v.loop = control;
    v.rtol = options.rtol;
    v.atol = options.atol;
    return v;
  }

  template <int kB>
  static KernelLaunch fused(void (*kernel)(PcgVectors<T>), const PcgVectors<T>& v) {
    const std::int64_t blocks = (v.n + kB - 1) / kB;
    const int grid = std::min<std::int64_t>(std::max<std::int64_t>((blocks + detail::kPcgThreads - 1) / detail::kPcgThreads, 1),
                                            v.ws.max_blocks);
    return KernelLaunch(kernel, dim3(grid), dim3(detail::kPcgThreads), 0, v);
  }

  // The three fused kernels for the block size kb.
  struct FusedLaunches {
    KernelLaunch init, update, direction;
  };
  template <int kB>
  FusedLaunches launches_for(const PcgVectors<T>& v) {
    return {fused<kB>(detail::pcg_init<kB, T>, v), fused<kB>(detail::pcg_update<kB, T>, v),
            fused<kB>(detail::pcg_direction<kB, T>, v)};
  }
  FusedLaunches launches(LoopControl control) {
    const PcgVectors<T> v = vectors(control);
    return with_block_size(kb, [&](auto k) { return launches_for<decltype(k)::value>(v); });
  }

  // CTAs of the persistent kernel the device keeps co-resident (the cooperative launch's limit).
  int persistent_resident() const {
    return with_block_size(kb, [](auto k) {
      int per_sm = 0;
      BSRFLOW_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, detail::pcg_persistent<decltype(k)::value, T>,
                                                                 detail::kPcgThreads, 0));
      BSRFLOW_REQUIRE(per_sm >= 1, Errc::unsupported, "PCG: the persistent kernel cannot run a single CTA per SM");
      return per_sm * device_info().sm_count;
    });
  }

  // The persistent kernel (its grid, work vectors and partials are sized by the constructor).
  KernelLaunch persistent_launch() {
    const PcgVectors<T> v = vectors(LoopControl{nullptr, options.max_iterations});
    const detail::PcgPersistentBuffers<T> e{work.data(), partials.data(), persistent_grid};
    const auto a = spmv->params<T>(A, x, q.data(), scalar(T(1)), scalar(T(0)));
    return with_block_size(kb, [&](auto k) {
      return KernelLaunch(detail::pcg_persistent<decltype(k)::value, T>, dim3(persistent_grid),
                          dim3(detail::kPcgThreads), 0, v, e, a)
          .cooperative();
    });
  }

  KernelLaunch spmv_x() { return spmv->launch(A, x, q.data(), scalar(T(1)), scalar(T(0))); }
  KernelLaunch spmv_p() {
    return spmv->launch(A, p.data(), q.data(), scalar(T(1)), scalar(T(0)),
                        SpmvDot<T>{p.data(), pq.data(), dot_reduce.view()});
  }

  LoopControl loop_control{};

  // Builds the solve graph with placeholder b / x (internal vectors of the right length until the
  // first solve() binds the caller's: nothing runs before that). An empty system has no graph.
  void build(cudaStream_t stream) {
    if (n == 0) return;
    b = r.data();
    x = p.data();
    if (persistent) {
      whole_solve = graph.kernel("pcg (persistent)", persistent_launch());
      exec = graph.instantiate(stream);
      return;
    }
    Loop loop = graph.loop("pcg iterations", state,
                           LoopOptions{options.max_iterations, options.loop_mode, options.unroll});
    loop_control = loop.control();
    const FusedLaunches k = launches(loop_control);
    TaskGraph& body = loop.body();
    if (spmv) {
      ax = graph.kernel("q = A x", spmv_x());
      apply_p = body.kernel("q = A p, p.q", spmv_p());
      update = body.kernel("x, r update; r.z, r.r", k.update);
      apply_p.precede(update);
    } else {
      ax = graph.capture("q = A x", [this](CaptureContext& ctx) { op.apply(x, q.data(), ctx.stream()); });
      apply_p = body.capture("q = A p", [this](CaptureContext& ctx) { op.apply(p.data(), q.data(), ctx.stream()); });
      dot_pq = body.kernel("p.q", dot_launch<T>(n, p.data(), q.data(), pq.data(), dot_reduce.view()));
      update = body.kernel("x, r update; r.z, r.r", k.update);
      apply_p.precede(dot_pq);
      dot_pq.precede(update);
    }
    init = graph.kernel("r = b - q, p = M r, norms", k.init);
    direction = body.kernel("p = M r + beta p", k.direction);
    update.precede(direction);
    ax.precede(init);
    init.precede(loop.task());
    for (Task t : {ax, init}) t.uses(r, "r").uses(q, "q").uses(p, "p");
    exec = graph.instantiate(stream);
  }

  // Points the graph at b and x (kernel-node updates; the operator path re-captures q = A x).
  void bind(const T* new_b, T* new_x) {
    BSRFLOW_REQUIRE(n == 0 || (new_b != nullptr && new_x != nullptr), Errc::invalid_argument,
                    "PCG solve: b and x must be device pointers (got null)");
    if (n == 0 || (bound && new_b == b && new_x == x)) return;
    bound = true;
    b = new_b;
    x = new_x;
    if (persistent) {
      exec.update(whole_solve, persistent_launch());
      return;
    }
    const FusedLaunches k = launches(loop_control);
    exec.update(init, k.init);
    exec.update(update, k.update);
    if (spmv) {
      exec.update(ax, spmv_x());
    } else {
      exec.recapture(ax);
    }
  }
};

template <class T>
PcgSolver<T>::PcgSolver(BsrView<const T> A, const PcgOptions& options, cudaStream_t stream) {
  BSRFLOW_REQUIRE(A.rows == A.cols && A.R == A.C, Errc::invalid_argument,
                  "PCG: the matrix must be square with square blocks (got " + std::to_string(A.rows) + " x " +
                      std::to_string(A.cols) + ", blocks " + std::to_string(A.R) + " x " + std::to_string(A.C) + ")");
  impl_ = std::make_unique<Impl>(options, A.rows, stream);
  Impl& s = *impl_;
  s.A = A;
  s.persistent = resolve_persistent(options.execution, A);
  s.kb = options.preconditioner == Preconditioner::block_jacobi ? A.R : 1;
  // The persistent kernel runs the SpMV's group code with a fixed number of values per thread,
  // on groups of at most 256 rows, fewer where that leaves CTAs idle: at n / resident rows per
  // CTA every co-resident CTA gets a group and a thread streams fewer values (fewer dependent
  // load rounds per iteration). Its grid (sized once, here) is the co-resident CTAs capped by the
  // work (SpMV groups, 256-row vector blocks).
  SpmvOptions spmv_options;
  const std::int64_t resident = s.persistent ? s.persistent_resident() : 0;
  if (s.persistent) {
    int rows = 256;
    while (rows > 32 && static_cast<std::int64_t>(rows / 2) * resident >= s.n) rows /= 2;
    // The persistent kernel runs the stream kernel's group code over this plan's partition.
    spmv_options = SpmvOptions{detail::kPcgPersistentItems, std::max(rows, A.R), SpmvKernel::stream};
  }
  s.spmv = std::make_unique<SpmvPlan>(plan_spmv(A, stream, spmv_options));
  if (s.persistent) {
    const std::int64_t vector_ctas = ((s.n + s.kb - 1) / s.kb + detail::kPcgThreads - 1) / detail::kPcgThreads;
    const std::int64_t needed = std::max<std::int64_t>({s.spmv->grid_blocks(), vector_ctas, 1});
    s.persistent_grid = static_cast<int>(std::min(resident, needed));
    s.work = DeviceBuffer<T>(static_cast<std::size_t>(detail::kPcgPersistentWorkVectors) * static_cast<std::size_t>(s.n),
                             stream);
    s.partials =
        DeviceBuffer<double>(static_cast<std::size_t>(detail::kPcgPersistentPartialRows) * s.persistent_grid, stream);
  }
  s.dot_reduce = ReduceScratch<T>(s.spmv->grid_blocks(), 1, stream);
  s.jacobi = JacobiPreconditioner<T>(A, options.preconditioner, stream);
  s.m = s.jacobi.apply();
  s.build(stream);
}

template <class T>
PcgSolver<T>::PcgSolver(LinearOperator<T> op, const PcgOptions& options, cudaStream_t stream) {
  BSRFLOW_REQUIRE(op.n >= 0 && static_cast<bool>(op.apply), Errc::invalid_argument,
                  "PCG: the operator needs n >= 0 and an apply callable");
  BSRFLOW_REQUIRE(options.preconditioner != Preconditioner::block_jacobi, Errc::unsupported,
                  "PCG: block-Jacobi needs the BSR matrix; a LinearOperator takes jacobi or none");
  BSRFLOW_REQUIRE(options.preconditioner != Preconditioner::jacobi || op.inverse_diagonal != nullptr || op.n == 0,
                  Errc::invalid_argument, "PCG: jacobi with a LinearOperator needs its inverse_diagonal");
  BSRFLOW_REQUIRE(options.execution != PcgExecution::persistent, Errc::unsupported,
                  "PCG: PcgExecution::persistent needs the BSR matrix; a LinearOperator runs graph_loop");
  impl_ = std::make_unique<Impl>(options, op.n, stream);
  Impl& s = *impl_;
  s.op = std::move(op);
  s.dot_reduce = ReduceScratch<T>(reduce_grid_blocks(s.n), 1, stream);
  s.m = JacobiApply<T>{options.preconditioner, 1, s.op.inverse_diagonal};
  s.build(stream);
}

template <class T>
PcgSolver<T>::~PcgSolver() = default;
template <class T>
PcgSolver<T>::PcgSolver(PcgSolver&&) noexcept = default;
template <class T>
PcgSolver<T>& PcgSolver<T>::operator=(PcgSolver&&) noexcept = default;

template <class T>
void PcgSolver<T>::solve_async(const T* b, T* x, cudaStream_t stream) {
  impl_->bind(b, x);
  if (impl_->n > 0) impl_->exec.launch(stream);
}

template <class T>
PcgResult PcgSolver<T>::result(cudaStream_t stream) const {
  const Impl& s = *impl_;
  if (s.persistent) return s.read_result(0, stream);  // the kernel counts its iterations in the scalars
  return s.read_result(s.n == 0 ? 0 : s.state.iterations(stream), stream);
}

template <class T>
PcgResult PcgSolver<T>::Impl::read_result(unsigned iterations, cudaStream_t stream) const {
  PcgResult r;
  if (n == 0) {
    r.converged = true;
    return r;
  }
  const PcgScalars s = scalars.to_host(stream).at(0);
  BSRFLOW_REQUIRE(s.not_cooperative == 0, Errc::cuda,
                  "PCG: the persistent kernel ran without a cooperative launch (or on a larger grid than planned) "
                  "and did nothing");
  r.iterations = persistent ? s.iterations : iterations;
  r.residual_norm = std::sqrt(s.rr);
  r.rhs_norm = std::sqrt(s.bb);
  r.breakdown = s.breakdown != 0;
  r.converged = !r.breakdown && s.rr <= s.threshold2;
  return r;
}

template <class T>
PcgResult PcgSolver<T>::solve_eager(const T* b, T* x, cudaStream_t stream, unsigned check_every) {
  Impl& s = *impl_;
  BSRFLOW_REQUIRE(check_every >= 1, Errc::invalid_argument, "PCG solve_eager: check_every must be at least 1");
  s.bind(b, x);  // the graph stays in step with the caller's pointers
  if (s.n == 0) return s.read_result(0, stream);
  const LoopControl control{s.eager_state.words(), s.options.max_iterations};
  const typename Impl::FusedLaunches k = s.launches(control);
  // q = A in; with_dot: also p.q into pq (the same work as the graph's tasks).
  auto apply = [&](const T* in, bool with_dot) {
    if (s.spmv) {
      s.spmv->run(s.A, in, s.q.data(), scalar(T(1)), scalar(T(0)), stream,
                  with_dot ? SpmvDot<T>{s.p.data(), s.pq.data(), s.dot_reduce.view()} : SpmvDot<T>{});
    } else {
      s.op.apply(in, s.q.data(), stream);
      if (with_dot) dot<T>(s.n, s.p.data(), s.q.data(), s.pq.data(), s.dot_reduce.view(), stream);
    }
  };
  s.eager_state.reset(stream);
  apply(x, false);
  k.init.launch(stream);
  LoopWords words{};
  for (;;) {
    words = s.eager_state.read(stream);
    if (words.stop != 0 || words.iteration >= s.options.max_iterations) break;
    for (unsigned i = 0; i < check_every; ++i) {
      apply(s.p.data(), true);
      k.update.launch(stream);
      k.direction.launch(stream);
    }
  }
  return s.read_result(words.iteration, stream);  // the last read saw the loop's final words
}

template <class T>
PcgResult PcgSolver<T>::solve(const T* b, T* x, cudaStream_t stream) {
  solve_async(b, x, stream);
  return result(stream);
}

template <class T>
void PcgSolver<T>::refresh_preconditioner(BsrView<const T> A, cudaStream_t stream) {
  BSRFLOW_REQUIRE(impl_->spmv != nullptr, Errc::invalid_argument,
                  "PCG: refresh_preconditioner is for solvers made from a BSR matrix");
  impl_->jacobi.refresh(A, stream);
}

template <class T>
const GraphExec& PcgSolver<T>::graph() const {
  return impl_->exec;
}

template <class T>
PcgExecution PcgSolver<T>::execution() const {
  return impl_->persistent ? PcgExecution::persistent : PcgExecution::graph_loop;
}

template <class T>
std::string PcgSolver<T>::describe() const {
  const Impl& s = *impl_;
  const std::string how = s.n == 0        ? std::string("empty system")
                          : s.persistent ? "one persistent cooperative kernel of " + std::to_string(s.persistent_grid) +
                                               " CTAs per solve, " +
                                               (s.kb == 1 ? "one grid barrier per iteration (Chronopoulos-Gear)"
                                                          : "two grid barriers per iteration")
                                         : s.exec.loop_mode_reason();
  return "pcg " + std::string(dtype_name(dtype_of_v<T>)) + " n=" + std::to_string(s.n) + " " +
         preconditioner_name(s.options.preconditioner) + ", " + (s.spmv ? s.spmv->name() : std::string("operator")) +
         ", " + how;
}

template class PcgSolver<float>;
template class PcgSolver<double>;

}  // namespace bsrflow
