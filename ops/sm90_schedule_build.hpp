// Plan-time construction of the Hopper BSR GEMM's persistent schedule (see sm90_schedule.cuh for
// how the kernel walks it): the block rows sorted longest first, rows far longer than average
// cut into pieces whose f32 partial sums a fix-up kernel reduces in a fixed order.
//
// build_schedule runs on the device (sort and scans with CUB) and synchronises `stream` once to
// learn the piece counts; it allocates. A host twin with the same result serves as the test
// oracle and documents the rule.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/host_device.hpp"
#include "bsrflow/ops/sm90_gemm_params.hpp"

namespace bsrflow::sm90 {

struct Schedule {
  DeviceBuffer<Piece> pieces;
  DeviceBuffer<SplitRow> split_rows;
  int num_pieces = 0;
  int num_split_rows = 0;
  int num_slots = 0;  // pieces of split rows: one f32 (R x swath) workspace tile each per swath
};

struct HostSchedule {
  std::vector<Piece> pieces;
  std::vector<SplitRow> split_rows;
  int num_slots = 0;
};

// Longest piece allowed: max(kSplitMinBlocks, kSplitAverageFactor * average row length,
// nnzb * num_swaths / (kSplitPerCtaFraction * ctas)) blocks (tuning_sm90.hpp). A tile longer than
// that would leave one CTA working long after the others finished.
int split_limit(std::int64_t nnzb, int block_rows, int num_swaths, int ctas);

// Number of pieces a row of `length` blocks is cut into under `limit` (0: never split).
BSRFLOW_HD inline int pieces_for(int length, int limit) {
  return (limit > 0 && length > limit) ? (length + limit - 1) / limit : 1;
}

// `row_ptr` is a device pointer with block_rows + 1 entries. block_rows >= 1.
Schedule build_schedule(const int* row_ptr, int block_rows, int limit, cudaStream_t stream);

// Same result on the host from a host row_ptr.
HostSchedule build_schedule_host(const std::vector<int>& row_ptr, int limit);

}  // namespace bsrflow::sm90
