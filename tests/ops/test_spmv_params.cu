// SpmvPlan::params (the stream kernel's parameters for kernels that run its group code, e.g. the
// persistent PCG) refuses a plan that runs the team or bulk kernel. A .cu file: Params is device-side.
#include <catch2/catch.hpp>

#include "bsrflow/core/device_buffer.hpp"
#include "bsrflow/core/device_info.hpp"
#include "bsrflow/core/stream.hpp"
#include "bsrflow/ops/spmv.hpp"
#include "bsrflow/ops/spmv_kernel.cuh"
#include "support/expect_error.hpp"
#include "support/gpu.hpp"
#include "support/patterns.hpp"

using namespace bsrflow;

TEST_CASE("SpmvPlan::params serves stream plans only", "[ops][gpu]") {
  BSRFLOW_REQUIRE_GPU();
  Stream stream;
  const HostBsr<double> host = test::random_bsr<double>(30, 36, 3, 3, 0.3, 1);
  const Bsr<double> A = Bsr<double>::from_host(host, stream);
  DeviceBuffer<double> x(36, stream), y(30, stream);
  const SpmvPlan team = plan_spmv(A.view(), stream, SpmvOptions{0, 0, SpmvKernel::team, 0});
  BSRFLOW_CHECK_ERROR(team.params<double>(A.view(), x.data(), y.data(), scalar(1.0), scalar(0.0)),
                      Errc::invalid_argument,
                      "spmv: params() serves the stream kernel's group code, but this plan runs the team kernel (plan "
                      "it with SpmvOptions::kernel = stream)");
  if (device_info().cc_major >= 9) {
    const SpmvPlan bulk = plan_spmv(A.view(), stream, SpmvOptions{0, 0, SpmvKernel::bulk, 0});
    BSRFLOW_CHECK_ERROR(bulk.params<double>(A.view(), x.data(), y.data(), scalar(1.0), scalar(0.0)),
                        Errc::invalid_argument,
                        "spmv: params() serves the stream kernel's group code, but this plan runs the bulk kernel "
                        "(plan it with SpmvOptions::kernel = stream)");
  }
  const SpmvPlan streamed = plan_spmv(A.view(), stream, SpmvOptions{0, 0, SpmvKernel::stream, 0});
  const spmv_detail::Params<double> p = streamed.params<double>(A.view(), x.data(), y.data(), scalar(1.0), scalar(0.0));
  CHECK(p.groups == streamed.grid_blocks());
  CHECK(p.block_rows == 10);
}
