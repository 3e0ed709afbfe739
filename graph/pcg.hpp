// Preconditioned conjugate gradients as one CUDA Graph launch per solve.
//
//   PcgSolver<double> cg(A.view(), {.rtol = 1e-8, .preconditioner = Preconditioner::jacobi}, stream);
//   PcgResult r = cg.solve(b, x, stream);   // x: initial guess in, solution out
//
// The solve is a TaskGraph: q = A x and the initial residual / norms (two kernels), then a device
// loop whose body is three fused kernels - q = A p with p.q fused into the SpMV; x += alpha p,
// r -= alpha q with r.z and r.r fused (its last block decides whether another iteration runs);
// p = z + beta p - so convergence is decided on the device and the host waits once per solve.
// Scalars (alpha, beta, r.z) live in device memory. Dot products are deterministic (fixed-order
// grid reductions), so a solve repeated on the same data gives bitwise the same x.
//
// For BSR matrices the whole solve can instead be one persistent cooperative kernel
// (PcgExecution::persistent, graph/pcg_persistent.cuh: two grid barriers per iteration in place
// of three kernel nodes); `automatic` takes it for systems small enough that node latency, not
// memory traffic, bounds an iteration. describe() says which one a solver runs.
//
// The operator is a BSR matrix (square blocks up to 8x8, SpMV with the fused dot) or any
// capturable "y = A x" callable (LinearOperator: captured into the graph, with a separate dot).
// solve() may get new b / x pointers each call: the affected graph nodes are updated in place,
// never re-instantiated. Matrix values may change between solves (same pattern and pointer);
// call refresh_preconditioner() after they do.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/graph/graph_exec.hpp"
#include "bsrflow/graph/task_graph.hpp"
#include "bsrflow/ops/jacobi.hpp"

namespace bsrflow {

// How solve() runs.
enum class PcgExecution : std::uint8_t {
  automatic,   // persistent for BSR matrices of at most kPcgPersistentMaxMatrixBytes (and a device
               // with cooperative launches), graph_loop otherwise
  graph_loop,  // three fused kernels per iteration in a device-side graph loop (loop_mode)
  persistent,  // one cooperative kernel per solve (BSR matrices only; loop_mode and unroll unused)
};
const char* pcg_execution_name(PcgExecution execution);

// automatic's limit on the matrix's bytes (row_ptr, col_idx, values): the persistent kernel saves
// ~8 us of node latency per iteration but streams the matrix at 2 CTAs per SM, so it wins only
// while the SpMV is short. H100, cg_bench and fem_solve (docs/perf_log_pcg.md, entry 4): 1.8x at
// 2.8 MB (Poisson 32^3), 1.2x at 9.5 MB (48^3), even at 23 MB (64^3), 0.6-0.7x at 66-83 MB.
inline constexpr std::int64_t kPcgPersistentMaxMatrixBytes = std::int64_t{16} << 20;

// PcgExecution's rule for a BSR matrix of `rows` rows and `matrix_bytes` bytes on a device that
// does (or does not) support cooperative launches: true = the persistent kernel. graph_loop and
// an empty matrix never run it; persistent needs cooperative launches (Error(unsupported)
// otherwise); automatic takes it up to kPcgPersistentMaxMatrixBytes where the device allows.
bool pcg_runs_persistent(PcgExecution requested, std::int64_t rows, std::int64_t matrix_bytes,
                         bool cooperative_launch_supported);

struct PcgOptions {
  double rtol = 1e-8;  // stop when ||r|| <= rtol * ||b|| + atol (recurrence residual)
  double atol = 0.0;
  unsigned max_iterations = 1000;
  Preconditioner preconditioner = Preconditioner::jacobi;
  LoopMode loop_mode = LoopMode::automatic;
  int unroll = 8;  // host-checked loop mode: iterations per launch
  PcgExecution execution = PcgExecution::automatic;
};

struct PcgResult {
  unsigned iterations = 0;
  double residual_norm = 0;  // ||r|| of the CG recurrence at the end
  double rhs_norm = 0;       // ||b||
  bool converged = false;
  bool breakdown = false;    // p.Ap <= 0 or not finite: the operator is not SPD (or lost precision)
  double relative_residual() const { return rhs_norm > 0 ? residual_norm / rhs_norm : residual_norm; }
};

// An SPD operator given as a capturable callable: enqueue y = A x on the stream, no allocation,
// no synchronisation. For Jacobi, pass A's inverse diagonal (n values, device memory).
template <class T>
struct LinearOperator {
  std::int64_t n = 0;
  std::function<void(const T* x, T* y, cudaStream_t stream)> apply;
  const T* inverse_diagonal = nullptr;
};

template <class T>
class PcgSolver {
 public:
  // A: square, square blocks R = C <= 8; jacobi uses A's diagonal, block_jacobi its diagonal
  // blocks. Plans, allocates, instantiates and synchronises `stream`.
  PcgSolver(BsrView<const T> A, const PcgOptions& options, cudaStream_t stream);
  // Any operator; Preconditioner::jacobi needs op.inverse_diagonal, block_jacobi is refused.
  PcgSolver(LinearOperator<T> op, const PcgOptions& options, cudaStream_t stream);
  ~PcgSolver();
  PcgSolver(PcgSolver&&) noexcept;
  PcgSolver& operator=(PcgSolver&&) noexcept;

  // Solves A x = b (x holds the initial guess) and waits for the result.
  PcgResult solve(const T* b, T* x, cudaStream_t stream);
  // The same without waiting; result() waits and reads it.
  void solve_async(const T* b, T* x, cudaStream_t stream);
  PcgResult result(cudaStream_t stream) const;

  // The graph loop's three kernels (whatever the execution) launched one by one from the host,
  // with a host check of convergence every `check_every` iterations (iterations past the stop
  // inside one check interval return at entry). For comparison with the graph modes; waits for
  // the result.
  PcgResult solve_eager(const T* b, T* x, cudaStream_t stream, unsigned check_every = 1);

  // Recomputes the preconditioner from A's current values (BSR solvers; synchronises).
  void refresh_preconditioner(BsrView<const T> A, cudaStream_t stream);

  const GraphExec& graph() const;
  PcgExecution execution() const;  // graph_loop or persistent, as resolved
  // e.g. "pcg f64 n=2097152 jacobi, spmv_f64_r1c1_..., conditional WHILE nodes (driver 13.0)"
  std::string describe() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace bsrflow
