// Uses the installed headers and libraries: a host conversion, validation errors, device query.
#include <bsrflow/core/device_info.hpp>
#include <bsrflow/core/error.hpp>
#include <bsrflow/formats/host_convert.hpp>

#include <cstdio>

int main() {
  bsrflow::HostCsr<float> csr;
  csr.rows = 4;
  csr.cols = 4;
  csr.row_ptr = {0, 1, 2, 3, 4};
  csr.col_idx = {0, 1, 2, 3};
  csr.values = {1.f, 2.f, 3.f, 4.f};
  const auto bsr = bsrflow::host::csr_to_bsr(csr, 2, 2, bsrflow::Padding::reject);
  if (bsr.nnzb() != 2) return 1;
  csr.col_idx[1] = 7;  // out of range: must be reported, not crash
  try {
    (void)bsrflow::host::csr_to_bsr(csr, 2, 2, bsrflow::Padding::reject);
    return 1;
  } catch (const bsrflow::Error& e) {
    if (e.code() != bsrflow::Errc::invalid_structure) return 1;
  }
  std::printf("consumer ok: %d GPU(s)\n", bsrflow::gpu_count());
  return 0;
}
