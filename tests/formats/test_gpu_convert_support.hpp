// Shared pieces of the GPU conversion tests (test_gpu_*.cu): the value-type list, device copies
// of host matrices, bitwise comparisons that say where they differ, and a CUDA Graph captured
// in global mode (so an illegal call inside a numeric phase fails the capture) whose node types
// can be inspected (so an allocation, which cudaMallocAsync would turn into a legal memory node,
// is caught too).
#pragma once

#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <cstring>
#include <string>
#include <vector>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/dtype.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/csr.hpp"
#include "bsrflow/formats/host_convert.hpp"
#include "support/patterns.hpp"

#define BSRFLOW_TEST_VALUE_TYPES __half, __nv_bfloat16, float, double

namespace bsrflow::test {

// Index of the first differing element (bitwise), or -1.
template <class T>
long first_difference(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return static_cast<long>(i);
  return -1;
}

#define BSRFLOW_CHECK_SAME_BITS(got, expected)                                                  \
  do {                                                                                          \
    const long bsrflow_diff_ = ::bsrflow::test::first_difference((got), (expected));             \
    INFO(#got " vs " #expected ": sizes " << (got).size() << " / " << (expected).size()         \
                                        << ", first difference at " << bsrflow_diff_);          \
    CHECK(bsrflow_diff_ == -1);                                                                 \
  } while (0)

template <class T>
void check_same(const HostBsr<T>& got, const HostBsr<T>& expected) {
  CHECK(got.rows == expected.rows);
  CHECK(got.cols == expected.cols);
  CHECK(got.R == expected.R);
  CHECK(got.C == expected.C);
  CHECK(got.row_ptr == expected.row_ptr);
  CHECK(got.col_idx == expected.col_idx);
  BSRFLOW_CHECK_SAME_BITS(got.values, expected.values);
}

template <class T>
void check_same(const HostCsr<T>& got, const HostCsr<T>& expected) {
  CHECK(got.rows == expected.rows);
  CHECK(got.cols == expected.cols);
  CHECK(got.row_ptr == expected.row_ptr);
  CHECK(got.col_idx == expected.col_idx);
  BSRFLOW_CHECK_SAME_BITS(got.values, expected.values);
}

// The same pattern with new integer values (for replays: a refresh must not reuse old values).
template <class T>
std::vector<T> fresh_values(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = int_value<T>(rng, 7);
  return v;
}

// A device pointer whose memory the caller frees: the conversions must not keep pointers into
// their input, so tests free the input structure before the numeric phase.
inline void free_now(DeviceBuffer<int>& buffer, cudaStream_t stream) {
  buffer = DeviceBuffer<int>();
  BSRFLOW_CUDA(cudaStreamSynchronize(stream));
}

// `enqueue(stream)` captured in cudaStreamCaptureModeGlobal and instantiated.
class CapturedGraph {
 public:
  template <class F>
  CapturedGraph(cudaStream_t stream, F&& enqueue) {
    BSRFLOW_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    try {
      enqueue(stream);
    } catch (...) {
      cudaGraph_t broken = nullptr;
      (void)cudaStreamEndCapture(stream, &broken);
      if (broken != nullptr) (void)cudaGraphDestroy(broken);
      throw;
    }
    BSRFLOW_CUDA(cudaStreamEndCapture(stream, &graph_));
    BSRFLOW_CUDA(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;
  ~CapturedGraph() {
    if (exec_ != nullptr) (void)cudaGraphExecDestroy(exec_);
    if (graph_ != nullptr) (void)cudaGraphDestroy(graph_);
  }

  void launch(cudaStream_t stream) const { BSRFLOW_CUDA(cudaGraphLaunch(exec_, stream)); }

  // Names of the nodes that are neither kernels nor memsets (allocations, frees, copies, host
  // callbacks...): a numeric phase must have none.
  std::vector<std::string> foreign_nodes() const {
    std::size_t count = 0;
    BSRFLOW_CUDA(cudaGraphGetNodes(graph_, nullptr, &count));
    std::vector<cudaGraphNode_t> nodes(count);
    if (count > 0) BSRFLOW_CUDA(cudaGraphGetNodes(graph_, nodes.data(), &count));
    std::vector<std::string> foreign;
    for (cudaGraphNode_t node : nodes) {
      cudaGraphNodeType type{};
      BSRFLOW_CUDA(cudaGraphNodeGetType(node, &type));
      if (type != cudaGraphNodeTypeKernel && type != cudaGraphNodeTypeMemset)
        foreign.push_back("node type " + std::to_string(static_cast<int>(type)));
    }
    return foreign;
  }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// The numeric phase of a conversion whose symbolic phase is done (`conversion.numeric(in, stream)`
// fills `conversion.output()`): captured in a CUDA Graph with no allocation, copy or host node, then
// replayed three times, each with new input values (`refill(replay)` writes them into the host
// input, `in` gets them, `expected()` converts it on the host) into a poisoned output; then two
// eager runs on the last values, which must give the same bits.
template <class Conversion, class T, class Refill, class Expected>
void check_numeric_replays(Conversion& conversion, DeviceBuffer<T>& in, const std::vector<T>& host_values,
                           Refill&& refill, Expected&& expected, cudaStream_t stream) {
  const CapturedGraph graph(stream, [&](cudaStream_t s) { conversion.numeric(in.data(), s); });
  CHECK(graph.foreign_nodes().empty());
  for (int replay = 0; replay < 3; ++replay) {
    refill(replay);
    in.copy_from_host(host_values, stream);
    conversion.output().values().fill_bytes(0xFF, stream);
    graph.launch(stream);
    check_same(conversion.output().to_host(stream), expected());
  }
  auto eager = [&] {
    conversion.output().values().fill_bytes(0xFF, stream);
    conversion.numeric(in.data(), stream);
    return conversion.output().values().to_host(stream);
  };
  const std::vector<T> first = eager();
  const std::vector<T> second = eager();
  BSRFLOW_CHECK_SAME_BITS(second, first);
}

// ---- BSR inputs ----------------------------------------------------------------------------

template <class T>
struct NamedBsr {
  std::string name;
  HostBsr<T> bsr;
};

// Integer values (never zero) in every in-range entry of every stored block, zero padding.
template <class T>
void refill_blocks(HostBsr<T>& bsr, std::uint32_t seed) {
  std::mt19937 rng(seed);
  for (int br = 0; br < bsr.block_rows(); ++br)
    for (int k = bsr.row_ptr[br]; k < bsr.row_ptr[br + 1]; ++k)
      for (int i = 0; i < bsr.R; ++i)
        for (int j = 0; j < bsr.C; ++j) {
          const bool inside = br * bsr.R + i < bsr.rows && bsr.col_idx[k] * bsr.C + j < bsr.cols;
          bsr.at(k, i, j) = inside ? int_value<T>(rng) : from_double<T>(0.0);
        }
}

// The blocks a CSR pattern touches, with fresh values.
template <class T>
HostBsr<T> bsr_of_pattern(const HostCsr<T>& csr, int R, int C, std::uint32_t seed) {
  HostBsr<T> bsr = host::csr_to_bsr(csr, R, C, Padding::zero_fill);
  refill_blocks(bsr, seed);
  return bsr;
}

// `bsr` without the blocks of every third block row (0, 3, 6, ...).
template <class T>
HostBsr<T> drop_every_third_block_row(const HostBsr<T>& bsr) {
  HostBsr<T> out{bsr.rows, bsr.cols, bsr.R, bsr.C, {0}, {}, {}};
  const std::size_t block = static_cast<std::size_t>(bsr.R) * bsr.C;
  for (int br = 0; br < bsr.block_rows(); ++br) {
    if (br % 3 != 0)
      for (int k = bsr.row_ptr[br]; k < bsr.row_ptr[br + 1]; ++k) {
        out.col_idx.push_back(bsr.col_idx[k]);
        out.values.insert(out.values.end(), bsr.values.begin() + k * block, bsr.values.begin() + (k + 1) * block);
      }
    out.row_ptr.push_back(static_cast<int>(out.col_idx.size()));
  }
  return out;
}

inline constexpr int kBsrCases = 8;

// Hostile and random BSR inputs with R x C blocks (shapes not multiples of the block included).
template <class T>
NamedBsr<T> bsr_case(int which, int R, int C) {
  switch (which) {
    case 0: return {"0x0", HostBsr<T>{0, 0, R, C, {0}, {}, {}}};
    case 1: {
      HostBsr<T> b{5, 0, R, C, {}, {}, {}};
      b.row_ptr.assign(static_cast<std::size_t>(b.block_rows()) + 1, 0);
      return {"5x0", b};
    }
    case 2: return {"no blocks", random_bsr<T>(40, 50, R, C, 0.0, 71)};
    case 3: {
      HostCsr<T> one{30, 40, std::vector<int>(31, 0), {33}, {from_double<T>(2.0)}};
      for (int r = 18; r <= 30; ++r) one.row_ptr[r] = 1;  // the entry is (17, 33)
      return {"one block", bsr_of_pattern(one, R, C, 72)};
    }
    case 4: return {"random 30%, partial edge blocks", random_bsr<T>(101, 77, R, C, 0.3, 73)};
    case 5: return {"every block stored", random_bsr<T>(37, 45, R, C, 1.0, 74)};
    case 6: return {"power-law block rows", bsr_of_pattern(powerlaw_csr<T>(300, 400, 3000, 1.1, 75), R, C, 76)};
    default: return {"every third block row empty", drop_every_third_block_row(random_bsr<T>(90, 64, R, C, 0.5, 77))};
  }
}

// True when the GPU can dereference plain host memory (HMM / ATS): host-pointer rejections are
// not expected there.
inline bool gpu_reads_pageable_memory() {
  int device = 0, pageable = 0;
  BSRFLOW_CUDA(cudaGetDevice(&device));
  BSRFLOW_CUDA(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
  return pageable != 0;
}

}  // namespace bsrflow::test
