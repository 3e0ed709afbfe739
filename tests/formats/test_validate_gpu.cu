// Device validation: the broken structures of invalid_structures.hpp must get exactly the host
// message; large patterns with injected faults must get the same first violation as the host.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/validate.hpp"
#include "formats/invalid_structures.hpp"
#include "support/expect_error.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;

namespace {

// Length problems can only be seen through the owning types; a view of such a structure would
// make the device read past an allocation.
bool is_length_case(const std::string& message) {
  return message.rfind("row_ptr has", 0) == 0 || message.rfind("col_idx has", 0) == 0 ||
         message.rfind("values has", 0) == 0;
}

// The message a validation call throws with, "" when it passes.
template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    CHECK(e.code() == Errc::invalid_structure);
    return e.message();
  }
  return "";
}

// A large CSR quickly (test::random_csr walks every (row, col) pair): 10% empty rows, 0.2%
// long rows (~1200 entries), the rest a few entries; columns strictly increasing by random gaps.
HostCsr<float> large_csr(int rows, int cols, std::uint32_t seed) {
  std::mt19937 rng(seed);
  HostCsr<float> csr{rows, cols, {0}, {}, {}};
  for (int r = 0; r < rows; ++r) {
    const unsigned kind = rng() % 1000;
    const int max_gap = kind < 2 ? 100 : cols / 2;
    if (kind < 900) {  // else: empty row
      for (int c = static_cast<int>(rng() % max_gap); c < cols; c += 1 + static_cast<int>(rng() % max_gap)) {
        csr.col_idx.push_back(c);
        csr.values.push_back(1.f);
      }
    }
    csr.row_ptr.push_back(static_cast<int>(csr.col_idx.size()));
  }
  return csr;
}

}  // namespace

TEST_CASE("device validate gives the host's message for each broken CSR", "[formats][validate][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  for (const auto& c : test::invalid_csrs()) {
    INFO(c.name);
    const Csr<float> csr = Csr<float>::from_host(c.matrix, stream);
    BSRFLOW_CHECK_ERROR(validate(csr, stream), Errc::invalid_structure, c.message);
    if (is_length_case(c.message)) {
      if (c.message.rfind("values has", 0) == 0) CHECK_NOTHROW(validate(csr.view(), stream));  // views skip values
      continue;
    }
    BSRFLOW_CHECK_ERROR(validate(csr.view(), stream), Errc::invalid_structure, c.message);
  }
}

TEST_CASE("device validate gives the host's message for each broken BSR", "[formats][validate][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  for (const auto& c : test::invalid_bsrs()) {
    INFO(c.name);
    const Bsr<float> bsr = Bsr<float>::from_host(c.matrix, stream);
    BSRFLOW_CHECK_ERROR(validate(bsr, c.padding, stream), Errc::invalid_structure, c.message);
    if (is_length_case(c.message)) continue;
    BSRFLOW_CHECK_ERROR(validate(bsr.view(), c.padding, stream), Errc::invalid_structure, c.message);
  }
}

TEST_CASE("device validate gives the host's message for each broken COO", "[formats][validate][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  for (const auto& c : test::invalid_coos()) {
    INFO(c.name);
    const Coo<float> coo = Coo<float>::from_host(c.matrix, stream);
    BSRFLOW_CHECK_ERROR(validate(coo, stream), Errc::invalid_structure, c.message);
    if (is_length_case(c.message)) continue;
    BSRFLOW_CHECK_ERROR(validate(coo.view(), stream), Errc::invalid_structure, c.message);
  }
}

TEST_CASE("device validate accepts valid and empty structures", "[formats][validate][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  CHECK_NOTHROW(validate(Csr<float>::from_host(test::valid_csr(), stream), stream));
  CHECK_NOTHROW(validate(Bsr<float>::from_host(test::valid_bsr(), stream), Padding::reject, stream));
  CHECK_NOTHROW(validate(Coo<float>::from_host(test::valid_coo(), stream), stream));
  CHECK_NOTHROW(validate(Csr<double>::from_host({0, 0, {0}, {}, {}}, stream), stream));
  CHECK_NOTHROW(validate(Csr<double>::from_host({1000, 1000, std::vector<int>(1001, 0), {}, {}}, stream), stream));
  CHECK_NOTHROW(validate(Bsr<__half>::from_host({0, 7, 16, 16, {0}, {}, {}}, stream), stream));
  CHECK_NOTHROW(validate(Bsr<__half>::from_host(test::random_bsr<__half>(100, 70, 16, 64, 0.4, 3u), stream), stream));
  CHECK_NOTHROW(validate(Coo<__nv_bfloat16>::from_host({5, 5, {}, {}, {}}, stream), stream));
  Csr<float> mutable_csr = Csr<float>::from_host(test::valid_csr(), stream);
  CHECK_NOTHROW(validate(mutable_csr.view(), stream));  // CsrView<float>, not <const float>
  CHECK_NOTHROW(validate<float>(std::as_const(mutable_csr).view(), stream));  // explicit T, CsrView<const float>
  Bsr<float> mutable_bsr = Bsr<float>::from_host(test::valid_bsr(), stream);
  CHECK_NOTHROW(validate(mutable_bsr.view(), Padding::reject, stream));
  Coo<float> mutable_coo = Coo<float>::from_host(test::valid_coo(), stream);
  CHECK_NOTHROW(validate(mutable_coo.view(), stream));
}

TEST_CASE("device validate checks what a view cannot vouch for", "[formats][validate][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const Csr<float> csr = Csr<float>::from_host(test::valid_csr(), stream);
  CsrView<const float> v = csr.view();

  CsrView<const float> huge = v;
  huge.nnz = 3'000'000'000LL;
  BSRFLOW_CHECK_ERROR(validate(huge, stream), Errc::invalid_structure,
                      "nnz 3000000000 exceeds the int32 index limit 2147483647");
  CsrView<const float> no_row_ptr = v;
  no_row_ptr.row_ptr = nullptr;
  BSRFLOW_CHECK_ERROR(validate(no_row_ptr, stream), Errc::invalid_structure, "row_ptr is null");
  CsrView<const float> no_cols = v;
  no_cols.col_idx = nullptr;
  BSRFLOW_CHECK_ERROR(validate(no_cols, stream), Errc::invalid_structure, "col_idx is null but nnz is 6");
  CooView<const float> coo{3, 3, 2, nullptr, nullptr, nullptr};
  BSRFLOW_CHECK_ERROR(validate(coo, stream), Errc::invalid_structure, "row_idx is null but nnz is 2");

  // Host memory: an error where the GPU cannot read it, a normal check where it can (HMM/ATS).
  const HostCsr<float> h = test::valid_csr();
  CsrView<const float> on_host = v;
  on_host.row_ptr = h.row_ptr.data();
  int device = 0, pageable = 0;
  BSRFLOW_CUDA(cudaGetDevice(&device));
  BSRFLOW_CUDA(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
  if (pageable == 0)
    BSRFLOW_CHECK_ERROR(validate(on_host, stream), Errc::invalid_structure,
                        "row_ptr points to host memory the GPU cannot access");
  else
    CHECK_NOTHROW(validate(on_host, stream));
  // The stream is still usable after every failure above.
  CHECK_NOTHROW(validate(v, stream));
}

TEST_CASE("device validate refuses to run during stream capture", "[formats][validate][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const Csr<float> csr = Csr<float>::from_host(test::valid_csr(), stream);
  stream.synchronize();
  BSRFLOW_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  std::string message;
  Errc code = Errc::invalid_argument;
  try {
    validate(csr, stream);
  } catch (const Error& e) {
    message = e.message();
    code = e.code();
  }
  cudaGraph_t graph = nullptr;
  BSRFLOW_CUDA(cudaStreamEndCapture(stream, &graph));  // the capture must still be intact
  if (graph != nullptr) BSRFLOW_CUDA(cudaGraphDestroy(graph));
  CHECK(code == Errc::capture);
  CHECK(message == "validate synchronises its stream and cannot run during stream capture");
  CHECK_NOTHROW(validate(csr, stream));
}

TEST_CASE("device validate finds the same first violation as the host in large patterns",
          "[formats][validate][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const HostCsr<float> base = large_csr(200'000, 60'000, 11u);
  INFO("nnz " << base.nnz());
  REQUIRE(base.nnz() > 500'000);
  CHECK_NOTHROW(validate(base));
  CHECK_NOTHROW(validate(Csr<float>::from_host(base, stream), stream));

  std::mt19937 rng(GENERATE(1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u));
  HostCsr<float> broken = base;
  // Two to four faults of random kinds at random places; the first one must be found.
  const int faults = 2 + static_cast<int>(rng() % 3);
  for (int f = 0; f < faults; ++f) {
    const auto k = static_cast<std::size_t>(rng() % broken.col_idx.size());
    switch (rng() % 5) {
      case 0: broken.col_idx[k] = broken.cols + static_cast<int>(rng() % 5); break;     // out of range
      case 1: broken.col_idx[k] = -1 - static_cast<int>(rng() % 5); break;              // negative
      case 2: if (k > 0) broken.col_idx[k] = broken.col_idx[k - 1]; break;              // duplicate (or row start)
      case 3: if (k > 0) std::swap(broken.col_idx[k], broken.col_idx[k - 1]); break;    // unsorted (or not)
      case 4: {                                                                          // row_ptr decreases
        const auto r = 1 + static_cast<std::size_t>(rng() % (broken.rows - 1));
        broken.row_ptr[r] = broken.row_ptr[r + 1] + 1;
        break;
      }
    }
  }
  const std::string host = message_of([&] { validate(broken); });
  const Csr<float> d = Csr<float>::from_host(broken, stream);
  const std::string device = message_of([&] { validate(d, stream); });
  INFO("host: " << host);
  CHECK(device == host);

  // Same matrix as BSR structure (1 x 1 blocks): the block words, same positions.
  const HostBsr<float> as_bsr{broken.rows, broken.cols, 1, 1, broken.row_ptr, broken.col_idx, broken.values};
  const std::string host_bsr = message_of([&] { validate(as_bsr); });
  const Bsr<float> db = Bsr<float>::from_host(as_bsr, stream);
  CHECK(message_of([&] { validate(db, stream); }) == host_bsr);
}

TEST_CASE("device validate finds the first bad entry of a large COO", "[formats][validate][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  HostCoo<float> coo = test::random_coo<float>(5000, 7000, 2'000'000, 0.1, 21u);
  CHECK_NOTHROW(validate(Coo<float>::from_host(coo, stream), stream));
  coo.col_idx[1'500'000] = 7000;
  coo.row_idx[1'234'567] = -4;
  coo.row_idx[1'999'999] = 5000;
  const Coo<float> d = Coo<float>::from_host(coo, stream);
  BSRFLOW_CHECK_ERROR(validate(d, stream), Errc::invalid_structure, "entry 1234567: row -4 out of range [0, 5000)");
  CHECK(message_of([&] { validate(coo); }) == "entry 1234567: row -4 out of range [0, 5000)");
}
