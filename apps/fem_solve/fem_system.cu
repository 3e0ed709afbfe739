#include "bsrflow/apps/fem_solve/fem_system.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "bsrflow/apps/fem_solve/fem_reference.hpp"
#include "bsrflow/apps/fem_solve/reference_element.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::fem {

namespace {

constexpr int kThreads = 256;

unsigned grid_for(std::int64_t count) {
  return static_cast<unsigned>(std::min<std::int64_t>((count + kThreads - 1) / kThreads, 1 << 20));
}

__global__ void coo_pattern_kernel(HexMesh mesh, int* rows, int* cols) {
  const std::int64_t count = mesh.coo_entries();
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < count;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    mesh.coo_entry(t, rows[t], cols[t]);
}

template <class T>
__global__ void coo_values_kernel(HexMesh mesh, const double* __restrict__ k_ref, double coefficient, T* values) {
  const std::int64_t count = mesh.coo_entries();
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < count;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    values[t] = coo_value<T>(mesh, k_ref, coefficient, t);
}

template <class T>
__global__ void load_vector_kernel(HexMesh mesh, StepData step, T* b) {
  const std::int64_t count = mesh.dof_count();
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    b[i] = static_cast<T>(load_entry(mesh, step, i));
}

template <class T>
__global__ void dirichlet_kernel(HexMesh mesh, FemProblem problem, const int* __restrict__ row_ptr,
                                 const int* __restrict__ col_idx, T* values, T* b) {
  const auto rows = static_cast<int>(mesh.dof_count());
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < rows; row += gridDim.x * blockDim.x)
    eliminate_dirichlet_row(mesh, problem, row, row_ptr, col_idx, values, b);
}

// Device bytes the construction needs at its peak, per element-matrix COO entry: the COO itself
// (row, column, value) and CooToCsr's symbolic phase (formats/coo_to_csr.cu: 64-bit keys and
// their sorted copy, sort positions, the gather order, segment heads and runs: 36 bytes). An
// estimate, checked against the free memory before anything is allocated, so a mesh too big for
// the GPU is refused with its size in the message instead of failing inside a conversion.
std::size_t peak_bytes_per_coo_entry(std::size_t value_size) { return 4 + 4 + value_size + 36; }

template <class T>
HexMesh checked_for_memory(HexMesh mesh, FemProblem problem) {
  const double need = static_cast<double>(mesh.coo_entries()) * static_cast<double>(peak_bytes_per_coo_entry(sizeof(T)));
  std::size_t free_bytes = 0, total_bytes = 0;
  BSRFLOW_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  BSRFLOW_REQUIRE(need <= static_cast<double>(free_bytes), Errc::invalid_argument,
                  std::string(problem_name(problem)) + " at n = " + std::to_string(mesh.n) + " needs about " +
                      std::to_string(static_cast<int>(need / kGiB + 0.5)) + " GiB of device memory to assemble (" +
                      std::to_string(mesh.coo_entries()) + " element-matrix entries); " +
                      std::to_string(static_cast<int>(static_cast<double>(free_bytes) / kGiB)) + " GiB are free");
  return mesh;
}

// The COO pattern, written once on the device (values not needed by the symbolic phases).
template <class T>
CooView<const T> pattern_view(const HexMesh& mesh, DeviceBuffer<int>& rows, DeviceBuffer<int>& cols,
                              cudaStream_t stream) {
  coo_pattern_kernel<<<grid_for(mesh.coo_entries()), kThreads, 0, stream>>>(mesh, rows.data(), cols.data());
  BSRFLOW_CUDA(cudaGetLastError());
  const auto n = static_cast<int>(mesh.dof_count());
  return {n, n, mesh.coo_entries(), rows.data(), cols.data(), nullptr};
}

}  // namespace

template <class T>
FemSystem<T>::FemSystem(FemProblem problem, int n, const Material& material, cudaStream_t stream)
    : problem_(problem),
      mesh_(checked_for_memory<T>(make_mesh(problem, n), problem)),
      material_(material),
      k_ref_(DeviceBuffer<double>::from_host(reference_stiffness(problem, material, mesh_.h()), stream)),
      coo_rows_(static_cast<std::size_t>(mesh_.coo_entries()), stream),
      coo_cols_(static_cast<std::size_t>(mesh_.coo_entries()), stream),
      coo_values_(static_cast<std::size_t>(mesh_.coo_entries()), stream),
      b_(static_cast<std::size_t>(mesh_.dof_count()), stream),
      csr_(pattern_view<T>(mesh_, coo_rows_, coo_cols_, stream), stream) {
  if (mesh_.d > 1) bsr_ = std::make_unique<CsrToBsr<T>>(csr_.output().view(), mesh_.d, mesh_.d, Padding::reject, stream);
  // The numeric phases need only the values: give the pattern's memory back (stream-ordered free).
  coo_rows_ = DeviceBuffer<int>();
  coo_cols_ = DeviceBuffer<int>();
}

template <class T>
void FemSystem<T>::assemble(double coefficient, cudaStream_t stream) {
  const StepData step{problem_, material_, coefficient};
  coo_values_kernel<T><<<grid_for(mesh_.coo_entries()), kThreads, 0, stream>>>(mesh_, k_ref_.data(), coefficient,
                                                                               coo_values_.data());
  BSRFLOW_CUDA(cudaGetLastError());
  load_vector_kernel<T><<<grid_for(mesh_.dof_count()), kThreads, 0, stream>>>(mesh_, step, b_.data());
  BSRFLOW_CUDA(cudaGetLastError());
  csr_.numeric(coo_values_.data(), stream);
  Csr<T>& A = csr_.output();
  dirichlet_kernel<T><<<grid_for(mesh_.dof_count()), kThreads, 0, stream>>>(mesh_, problem_, A.row_ptr().data(),
                                                                           A.col_idx().data(), A.values().data(),
                                                                           b_.data());
  BSRFLOW_CUDA(cudaGetLastError());
  if (bsr_) bsr_->numeric(A.values().data(), stream);
}

template <class T>
BsrView<const T> FemSystem<T>::matrix() const {
  return bsr_ ? bsr_->output().view() : csr_as_bsr();
}

template <class T>
BsrView<const T> FemSystem<T>::csr_as_bsr() const {
  const Csr<T>& A = csr_.output();
  return {static_cast<int>(A.rows()), static_cast<int>(A.cols()), 1, 1, A.nnz(), A.row_ptr().data(),
          A.col_idx().data(), A.values().data()};
}

template class FemSystem<float>;
template class FemSystem<double>;

}  // namespace bsrflow::fem
