#include <catch2/catch.hpp>

#include <vector>

#include "bsrflow/core/stream.hpp"
#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/ops/jacobi.hpp"
#include "support/expect_error.hpp"
#include "support/gpu.hpp"

using namespace bsrflow;

namespace {
// Two block rows of 3x3 blocks: diagonal blocks D0, D1 and one coupling block each way.
HostBsr<double> two_block_rows(std::vector<double> d0, std::vector<double> d1) {
  HostBsr<double> h;
  h.rows = h.cols = 6;
  h.R = h.C = 3;
  h.row_ptr = {0, 2, 4};
  h.col_idx = {0, 1, 0, 1};
  std::vector<double> coupling(9, -1.0);
  h.values = d0;
  h.values.insert(h.values.end(), coupling.begin(), coupling.end());
  h.values.insert(h.values.end(), coupling.begin(), coupling.end());
  h.values.insert(h.values.end(), d1.begin(), d1.end());
  return h;
}
}  // namespace

TEST_CASE("Jacobi setup refuses shapes it cannot take before touching the GPU", "[ops]") {
  BsrView<const double> A{6, 9, 3, 3, 0, nullptr, nullptr, nullptr};
  BSRFLOW_CHECK_ERROR(JacobiPreconditioner<double>(A, Preconditioner::jacobi, nullptr), Errc::invalid_argument,
                      "Jacobi: the matrix is 6 x 9, not square");
  A = {6, 6, 3, 2, 0, nullptr, nullptr, nullptr};
  BSRFLOW_CHECK_ERROR(JacobiPreconditioner<double>(A, Preconditioner::block_jacobi, nullptr), Errc::invalid_argument,
                      "block-Jacobi: blocks are 3 x 2, not square");
  A = {32, 32, 16, 16, 0, nullptr, nullptr, nullptr};
  BSRFLOW_CHECK_ERROR(JacobiPreconditioner<double>(A, Preconditioner::jacobi, nullptr), Errc::unsupported,
                      "Jacobi: blocks of 16 x 16; at most 8 x 8");
  A = {10, 10, 3, 3, 0, nullptr, nullptr, nullptr};
  BSRFLOW_CHECK_ERROR(JacobiPreconditioner<double>(A, Preconditioner::block_jacobi, nullptr), Errc::unsupported,
                      "block-Jacobi: 10 rows are not a multiple of the block size 3");
  CHECK(std::string(preconditioner_name(Preconditioner::block_jacobi)) == "block-jacobi");
}

TEST_CASE("Jacobi and block-Jacobi inverses match the CPU", "[ops][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  // D0 = [[4,1,0],[1,4,0],[0,0,2]]: inverse [[4,-1,0],[-1,4,0],[0,0,7.5]] / 15. D1 = diag(8, 0.5, 2).
  const HostBsr<double> h = two_block_rows({4, 1, 0, 1, 4, 0, 0, 0, 2}, {8, 0, 0, 0, 0.5, 0, 0, 0, 2});
  auto A = Bsr<double>::from_host(h, stream);
  JacobiPreconditioner<double> jacobi(A.view(), Preconditioner::jacobi, stream);
  CHECK(jacobi.inverse().to_host(stream) == std::vector<double>{0.25, 0.25, 0.5, 0.125, 2.0, 0.5});
  JacobiPreconditioner<double> block(A.view(), Preconditioner::block_jacobi, stream);
  const std::vector<double> inv = block.inverse().to_host(stream);
  const std::vector<double> expected = {4 / 15.0, -1 / 15.0, 0, -1 / 15.0, 4 / 15.0, 0, 0, 0, 0.5,
                                        0.125,    0,         0, 0,         2,        0, 0, 0, 0.5};
  REQUIRE(inv.size() == expected.size());
  for (std::size_t i = 0; i < inv.size(); ++i) CHECK(inv[i] == Approx(expected[i]).margin(1e-15));
  // The device-side apply of block row 0 on r = (1, 2, 3): inverse row 1 . r = (-1 + 8) / 15.
  const JacobiApply<double> host_apply{Preconditioner::block_jacobi, 3, inv.data()};
  const double r[6] = {1, 2, 3, 0, 0, 0};
  CHECK(host_apply.at(r, 1) == Approx(7 / 15.0));
}

TEST_CASE("Jacobi setup names the first bad row", "[ops][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  {
    const HostBsr<double> h = two_block_rows({4, 1, 0, 1, 4, 0, 0, 0, 2}, {8, 0, 0, 0, 0, 0, 0, 0, 2});
    auto A = Bsr<double>::from_host(h, stream);
    BSRFLOW_CHECK_ERROR(JacobiPreconditioner<double>(A.view(), Preconditioner::jacobi, stream), Errc::invalid_argument,
                        "Jacobi: row 4 has a zero diagonal entry");
    BSRFLOW_CHECK_ERROR(JacobiPreconditioner<double>(A.view(), Preconditioner::block_jacobi, stream),
                        Errc::invalid_argument, "block-Jacobi: the diagonal block of block row 1 is singular");
  }
  {
    HostBsr<double> h = two_block_rows({4, 1, 0, 1, 4, 0, 0, 0, 2}, {8, 0, 0, 0, 1, 0, 0, 0, 2});
    h.row_ptr = {0, 2, 3};  // block row 1 keeps only its block (1, 0): no diagonal block
    h.col_idx = {0, 1, 0};
    h.values.resize(27);
    auto A = Bsr<double>::from_host(h, stream);
    BSRFLOW_CHECK_ERROR(JacobiPreconditioner<double>(A.view(), Preconditioner::jacobi, stream), Errc::invalid_argument,
                        "Jacobi: block row 1 has no diagonal block");
  }
}
