// Broken sparse structures with the exact message validation must give for each. The host tests
// (test_validate_host.cpp) and the device tests (test_validate_gpu.cu) run the same table, which
// is how "the device reports the same first violation as the host" is checked.
#pragma once

#include <string>
#include <vector>

#include "bsrflow/formats/bsr.hpp"
#include "bsrflow/formats/coo.hpp"
#include "bsrflow/formats/csr.hpp"
#include "bsrflow/formats/padding.hpp"

namespace bsrflow::test {

template <class M>
struct Invalid {
  std::string name;
  M matrix;
  std::string message;  // Error::message(), Errc::invalid_structure
  Padding padding = Padding::zero_fill;  // BSR only
};

// 4 x 6, rows: {1, 4}, {}, {0, 2, 5}, {3}. Row 2 starting below row 0's last column is fine.
inline HostCsr<float> valid_csr() {
  return {4, 6, {0, 2, 2, 5, 6}, {1, 4, 0, 2, 5, 3}, {1, 2, 3, 4, 5, 6}};
}

inline std::vector<Invalid<HostCsr<float>>> invalid_csrs() {
  std::vector<Invalid<HostCsr<float>>> cases;
  auto add = [&](std::string name, auto edit, std::string message) {
    HostCsr<float> m = valid_csr();
    edit(m);
    cases.push_back({std::move(name), std::move(m), std::move(message)});
  };
  add("negative shape", [](auto& m) { m.rows = -1; m.cols = 4; }, "negative shape -1 x 4");
  add("negative cols", [](auto& m) { m.cols = -6; }, "negative shape 4 x -6");
  add("short row_ptr", [](auto& m) { m.row_ptr.pop_back(); }, "row_ptr has 4 entries, expected rows + 1 = 5");
  add("empty row_ptr of a 0x0 matrix", [](auto& m) { m = HostCsr<float>{}; },
      "row_ptr has 0 entries, expected rows + 1 = 1");
  add("short values", [](auto& m) { m.values.pop_back(); }, "values has 5 entries, expected nnz = 6");
  add("long values", [](auto& m) { m.values.push_back(7); }, "values has 7 entries, expected nnz = 6");
  add("row_ptr[0] not 0", [](auto& m) { m.row_ptr[0] = 3; }, "row_ptr[0] is 3, expected 0");
  add("row_ptr decreases (first of two)", [](auto& m) { m.row_ptr = {0, 3, 2, 6, 5}; },
      "row 1: row_ptr decreases (row_ptr[1] = 3, row_ptr[2] = 2)");
  add("row_ptr negative", [](auto& m) { m.row_ptr = {0, -1, 2, 5, 6}; },
      "row 0: row_ptr decreases (row_ptr[0] = 0, row_ptr[1] = -1)");
  add("row_ptr[rows] below nnz", [](auto& m) { m.row_ptr = {0, 2, 2, 5, 5}; }, "row_ptr[rows] is 5 but nnz is 6");
  add("row_ptr[rows] above nnz", [](auto& m) { m.row_ptr = {0, 2, 2, 5, 12}; }, "row_ptr[rows] is 12 but nnz is 6");
  add("column too large", [](auto& m) { m.col_idx[4] = 40; }, "row 2: column 40 out of range [0, 6)");
  add("column negative", [](auto& m) { m.col_idx[0] = -1; }, "row 0: column -1 out of range [0, 6)");
  add("unsorted", [](auto& m) { m.col_idx = {1, 4, 2, 0, 5, 3}; }, "row 2: column 0 appears after 2");
  add("duplicate", [](auto& m) { m.col_idx = {1, 4, 0, 2, 2, 3}; }, "row 2: column 2 appears twice");
  add("earliest entry wins over category", [](auto& m) { m.col_idx = {1, 4, 2, 0, 9, 3}; },
      "row 2: column 0 appears after 2");
  add("lowest row wins", [](auto& m) { m.col_idx = {4, 4, 0, 2, 9, 3}; }, "row 0: column 4 appears twice");
  add("range before order at one entry", [](auto& m) { m.col_idx = {1, 4, 0, 2, -3, 3}; },
      "row 2: column -3 out of range [0, 6)");
  add("row_ptr checked before columns", [](auto& m) { m.row_ptr[4] = 5; m.col_idx[0] = 99; },
      "row_ptr[rows] is 5 but nnz is 6");
  add("one long row", [](auto& m) { m.rows = 1; m.row_ptr = {0, 6}; m.col_idx = {0, 1, 2, 3, 5, 4}; },
      "row 0: column 4 appears after 5");
  return cases;
}

// 4 x 9 with 2 x 3 blocks (2 x 3 block grid): block rows {0, 2}, {1}.
inline HostBsr<float> valid_bsr() {
  HostBsr<float> m{4, 9, 2, 3, {0, 2, 3}, {0, 2, 1}, {}};
  for (int i = 0; i < 18; ++i) m.values.push_back(static_cast<float>(i + 1));
  return m;
}

inline std::vector<Invalid<HostBsr<float>>> invalid_bsrs() {
  std::vector<Invalid<HostBsr<float>>> cases;
  auto add = [&](std::string name, auto edit, std::string message, Padding padding = Padding::zero_fill) {
    HostBsr<float> m = valid_bsr();
    edit(m);
    cases.push_back({std::move(name), std::move(m), std::move(message), padding});
  };
  add("negative shape", [](auto& m) { m.rows = -1; m.cols = 4; }, "negative shape -1 x 4");
  add("zero block height", [](auto& m) { m.R = 0; m.C = 4; }, "block shape 0x4 must be positive");
  add("negative block width", [](auto& m) { m.C = -3; }, "block shape 2x-3 must be positive");
  add("shape does not divide under reject", [](auto& m) { m.rows = 3; },
      "rows (3) is not a multiple of the block height R (2); pass Padding::zero_fill to pad", Padding::reject);
  add("short row_ptr", [](auto& m) { m.row_ptr.pop_back(); }, "row_ptr has 2 entries, expected block rows + 1 = 3");
  add("row_ptr for element rows", [](auto& m) { m.row_ptr = {0, 1, 2, 3, 3}; },
      "row_ptr has 5 entries, expected block rows + 1 = 3");
  add("short values", [](auto& m) { m.values.pop_back(); }, "values has 17 entries, expected nnzb * R * C = 18");
  add("values per element", [](auto& m) { m.values.resize(3); }, "values has 3 entries, expected nnzb * R * C = 18");
  add("row_ptr[0] not 0", [](auto& m) { m.row_ptr[0] = 1; }, "row_ptr[0] is 1, expected 0");
  add("row_ptr decreases", [](auto& m) { m.row_ptr = {0, 3, 2}; },
      "block row 1: row_ptr decreases (row_ptr[1] = 3, row_ptr[2] = 2)");
  add("row_ptr[block rows] not nnzb", [](auto& m) { m.row_ptr = {0, 2, 2}; }, "row_ptr[block rows] is 2 but nnzb is 3");
  add("block column out of range", [](auto& m) { m.col_idx[2] = 3; }, "block row 1: block column 3 out of range [0, 3)");
  add("unsorted", [](auto& m) { m.col_idx = {2, 0, 1}; }, "block row 0: block column 0 appears after 2");
  add("duplicate", [](auto& m) { m.col_idx = {2, 2, 1}; }, "block row 0: block column 2 appears twice");
  return cases;
}

// A case whose shapes and array sizes hold (zero-fill padding), so that it uploads as a Bsr and
// only its pattern - row_ptr, col_idx - is broken: what a GPU conversion must find itself.
inline bool pattern_only_broken(const Invalid<HostBsr<float>>& c) {
  const HostBsr<float>& m = c.matrix;
  return c.padding == Padding::zero_fill && m.rows >= 0 && m.cols >= 0 && m.R > 0 && m.C > 0 &&
         m.row_ptr.size() == static_cast<std::size_t>(m.block_rows()) + 1 &&
         m.values.size() == static_cast<std::size_t>(m.nnzb() * m.R * m.C);
}

// 3 x 4 with a duplicate (0, 1) — duplicates are valid COO.
inline HostCoo<float> valid_coo() { return {3, 4, {0, 2, 0, 1}, {1, 3, 1, 0}, {1, 2, 3, 4}}; }

inline std::vector<Invalid<HostCoo<float>>> invalid_coos() {
  std::vector<Invalid<HostCoo<float>>> cases;
  auto add = [&](std::string name, auto edit, std::string message) {
    HostCoo<float> m = valid_coo();
    edit(m);
    cases.push_back({std::move(name), std::move(m), std::move(message)});
  };
  add("negative shape", [](auto& m) { m.rows = -1; }, "negative shape -1 x 4");
  add("short col_idx", [](auto& m) { m.col_idx.pop_back(); }, "col_idx has 3 entries, expected nnz = 4");
  add("long values", [](auto& m) { m.values.push_back(5); }, "values has 5 entries, expected nnz = 4");
  add("row out of range", [](auto& m) { m.row_idx[2] = 3; }, "entry 2: row 3 out of range [0, 3)");
  add("column out of range", [](auto& m) { m.col_idx[1] = 4; }, "entry 1: column 4 out of range [0, 4)");
  add("negative column", [](auto& m) { m.col_idx[3] = -2; }, "entry 3: column -2 out of range [0, 4)");
  add("row before column at one entry", [](auto& m) { m.row_idx[1] = 9; m.col_idx[1] = 9; },
      "entry 1: row 9 out of range [0, 3)");
  add("first entry wins", [](auto& m) { m.row_idx[3] = 8; m.col_idx[1] = -1; }, "entry 1: column -1 out of range [0, 4)");
  return cases;
}

}  // namespace bsrflow::test
