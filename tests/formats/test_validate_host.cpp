// Host validation: every broken structure gets its own exact message (invalid_structures.hpp),
// valid ones, empty ones included, pass.
#include <catch2/catch.hpp>

#include <cstdint>

#include "bsrflow/formats/host_convert.hpp"
#include "bsrflow/formats/validate.hpp"
#include "formats/invalid_structures.hpp"
#include "support/expect_error.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;

TEST_CASE("validate accepts valid and empty structures", "[formats][validate]") {
  CHECK_NOTHROW(validate(test::valid_csr()));
  CHECK_NOTHROW(validate(test::valid_bsr()));
  CHECK_NOTHROW(validate(test::valid_bsr(), Padding::reject));
  CHECK_NOTHROW(validate(test::valid_coo()));

  CHECK_NOTHROW(validate(HostCsr<float>{0, 0, {0}, {}, {}}));
  CHECK_NOTHROW(validate(HostCsr<float>{0, 5, {0}, {}, {}}));
  CHECK_NOTHROW(validate(HostCsr<float>{3, 0, {0, 0, 0, 0}, {}, {}}));
  CHECK_NOTHROW(validate(HostCsr<float>{3, 3, {0, 0, 0, 0}, {}, {}}));
  CHECK_NOTHROW(validate(HostBsr<double>{0, 0, 16, 16, {0}, {}, {}}, Padding::reject));
  CHECK_NOTHROW(validate(HostBsr<double>{5, 7, 16, 64, {0, 0}, {}, {}}));
  CHECK_NOTHROW(validate(HostCoo<__half>{0, 0, {}, {}, {}}));
  CHECK_NOTHROW(validate(HostCoo<__half>{2, 2, {}, {}, {}}));

  // A partial edge block is valid under zero_fill (the default) and rejected under reject.
  HostBsr<float> partial = test::valid_bsr();
  partial.rows = 3;
  partial.cols = 8;
  CHECK_NOTHROW(validate(partial));
  BSRFLOW_CHECK_ERROR(validate(partial, Padding::reject), Errc::invalid_structure,
                      "rows (3) is not a multiple of the block height R (2); pass Padding::zero_fill to pad");
  partial.rows = 4;
  BSRFLOW_CHECK_ERROR(validate(partial, Padding::reject), Errc::invalid_structure,
                      "cols (8) is not a multiple of the block width C (3); pass Padding::zero_fill to pad");
}

TEMPLATE_TEST_CASE("validate accepts generated patterns", "[formats][validate]", __half, __nv_bfloat16, float,
                   double) {
  CHECK_NOTHROW(validate(test::random_csr<TestType>(97, 61, 0.1, 5u, 4)));
  CHECK_NOTHROW(validate(test::powerlaw_csr<TestType>(300, 500, 3000, 1.3, 6u)));
  CHECK_NOTHROW(validate(test::random_bsr<TestType>(100, 70, 16, 64, 0.3, 7u)));
  CHECK_NOTHROW(validate(test::random_bsr<TestType>(30, 50, 3, 5, 0.5, 8u), Padding::reject));
  CHECK_NOTHROW(validate(test::random_coo<TestType>(40, 30, 500, 0.5, 9u)));
}

TEST_CASE("validate reports the first violation of a CSR", "[formats][validate]") {
  for (const auto& c : test::invalid_csrs()) {
    INFO(c.name);
    BSRFLOW_CHECK_ERROR(validate(c.matrix), Errc::invalid_structure, c.message);
    CHECK_THROWS_WITH(validate(c.matrix), Catch::Contains(c.message));
  }
}

TEST_CASE("validate reports the first violation of a BSR", "[formats][validate]") {
  for (const auto& c : test::invalid_bsrs()) {
    INFO(c.name);
    BSRFLOW_CHECK_ERROR(validate(c.matrix, c.padding), Errc::invalid_structure, c.message);
  }
}

TEST_CASE("validate reports the first violation of a COO", "[formats][validate]") {
  for (const auto& c : test::invalid_coos()) {
    INFO(c.name);
    BSRFLOW_CHECK_ERROR(validate(c.matrix), Errc::invalid_structure, c.message);
  }
}

TEST_CASE("validate rejects nnz that int32 indices cannot address", "[formats][validate]") {
  // No host container can hold 2^31 entries in a test; the checks run on the description the
  // views and containers produce.
  detail::CompressedDesc csr{false, 4, 4, 1, 1, Padding::zero_fill, 3'000'000'000LL};
  BSRFLOW_CHECK_ERROR(detail::validate_host(csr), Errc::invalid_structure,
                      "nnz 3000000000 exceeds the int32 index limit 2147483647");
  csr.nnz = -3;
  BSRFLOW_CHECK_ERROR(detail::validate_host(csr), Errc::invalid_structure, "negative nnz -3");
  detail::CompressedDesc bsr{true, 4, 4, 2, 2, Padding::zero_fill, 2'147'483'648LL};
  BSRFLOW_CHECK_ERROR(detail::validate_host(bsr), Errc::invalid_structure,
                      "nnzb 2147483648 exceeds the int32 index limit 2147483647");
  detail::CooDesc coo{4, 4, 5'000'000'000LL};
  BSRFLOW_CHECK_ERROR(detail::validate_host(coo), Errc::invalid_structure,
                      "nnz 5000000000 exceeds the int32 index limit 2147483647");
}

TEST_CASE("COO duplicates are valid and conversion sums them in order of appearance", "[formats][validate]") {
  // The documented policy (validate.hpp): duplicates pass validation; coo_to_csr sums them in
  // accumulator_t<T>, in their order of appearance, and rounds once.
  const HostCoo<float> coo = test::valid_coo();  // (0, 1) appears twice: 1 and 3
  CHECK_NOTHROW(validate(coo));
  const HostCsr<float> csr = host::coo_to_csr(coo);
  CHECK(csr.row_ptr == std::vector<int>{0, 1, 2, 3});
  CHECK(csr.col_idx == std::vector<int>{1, 0, 3});
  CHECK(csr.values == std::vector<float>{4, 4, 2});

  HostCoo<__nv_bfloat16> bf{1, 2, {0, 0, 0, 0}, {1, 1, 1, 1}, {}};
  for (double v : {256.0, 1.0, 1.0, -256.0}) bf.values.push_back(from_double<__nv_bfloat16>(v));
  // bf16 accumulation would give 256 + 1 -> 256 (8 bits of precision), and 0 at the end; f32 gives 2.
  CHECK(to_double(host::coo_to_csr(bf).values.at(0)) == 2.0);
}
