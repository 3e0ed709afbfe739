// cg_bench's measurements: per grid and preconditioner, one CG iteration of bsrflow's PcgSolver
// in three launch modes, and the textbook cuSPARSE + cuBLAS CG (cusparse_cublas_cg.hpp):
//
//   bsrflow_graph_loop           solve(): the whole solve is one graph launch (LoopMode::automatic,
//                                a conditional WHILE node where the driver has it)
//   bsrflow_graph_per_iteration  solve() with LoopMode::host_checked, unroll 1: one graph launch
//                                and one host check per iteration
//   bsrflow_eager                solve_eager(b, x, stream, 1): the same kernels launched one by one,
//                                host check every iteration
//   cusparse_cublas_eager        the peer (unless --no-peer)
//
// Every solve runs exactly K = --cg-iterations iterations (rtol = atol = 0, max_iterations = K)
// from x = 0 on the 7-point Poisson matrix (a BSR with 1 x 1 blocks: the CSR arrays as they are)
// with a random right-hand side (fixed seed, never zero). Timed region of every row: from the
// start event, cudaMemsetAsync(x, 0), the solve call (which returns after the result is on the
// host), the stop event; L2 flushed before the start event unless --no-cold-l2.
// us per iteration = median ms per solve * 1000 / K (so it carries the per-solve setup: the
// initial residual, and for bsrflow the result read).
//
// Checks: an untimed solve first must report K iterations and no breakdown (else the row is
// "wrong" and not timed; the peer must do K iterations); after timing, x of every bsrflow mode
// must be bitwise that of bsrflow_graph_loop (same kernels), bsrflow_persistent's and the peer's
// within 1e-6 (f64) / 1e-3 (f32) relative (their reductions differ). The true residual ||b - A x|| / ||b|| of each row's x is
// computed on the host (fp64).
//
// Byte model (GB/s, % of copy): per iteration the matrix once, (n + 1) * 4 + nnz * (4 + sizeof(T)),
// plus 11 vector passes of n * sizeof(T) (13 with Jacobi): SpMV reads p, writes q (2); the update
// reads x, p, r, q and writes x, r (6, +1 Jacobi's inverse diagonal); the direction update reads
// r, p and writes p (3, +1). The peer is rated on the same bytes (what CG must move), though it
// moves more (and so does bsrflow_persistent: it stores z and gathers z and p). Targets (the
// one-launch solves, bsrflow_graph_loop and bsrflow_persistent): <= 8 us per iteration at 32^3;
// >= 80% of the copy bandwidth at 128^3.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "bsrflow/apps/cg_bench/cg_cli.hpp"
#include "bsrflow/apps/common/probes.hpp"
#include "bsrflow/apps/common/record.hpp"
#include "bsrflow/apps/common/run_info.hpp"

namespace bsrflow::bench {

inline constexpr const char* kCgGraphLoop = "bsrflow_graph_loop";
inline constexpr const char* kCgPersistent = "bsrflow_persistent";
inline constexpr const char* kCgGraphPerIteration = "bsrflow_graph_per_iteration";
inline constexpr const char* kCgEager = "bsrflow_eager";
inline constexpr const char* kCgPeer = "cusparse_cublas_eager";

struct CgBenchRun {
  RunInfo info;
  BandwidthResult copy;  // device-to-device copy probe of this run
  std::vector<Record> records;
};

// Vector passes of n * sizeof(T) per iteration: 11, or 13 with Jacobi.
int cg_vector_passes(Preconditioner p);
// Bytes one CG iteration moves (the model above); n rows, nnz stored entries.
std::int64_t cg_iteration_bytes(std::int64_t n, std::int64_t nnz, int value_size, Preconditioner p);
// The same for the grid^3 Poisson matrix.
std::int64_t cg_iteration_bytes_for_grid(int grid, int value_size, Preconditioner p);

// Needs a GPU. Progress goes to `log` when not null.
CgBenchRun run_cg_bench(const CgBenchOptions& options, std::ostream* log);

// Adds speedup_vs_peer (peer us / row us, same grid, dtype, preconditioner) to timed rows, and to
// bsrflow_graph_loop rows at grid 32 / 128 the target text and, when the row is ok and timed,
// target_met.
void add_cg_comparisons(std::vector<Record>& records);

// Markdown table + footer (reference peer figures, byte model, timing).
std::string cg_markdown(const std::vector<Record>& records, const CgBenchOptions& options);

}  // namespace bsrflow::bench
