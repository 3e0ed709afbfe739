// Error reporting for bsrflow: one exception type that says what went wrong in the user's terms,
// plus the CUDA / library status and the source location where it was detected.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace bsrflow {

// What kind of failure; tests match on this, users may branch on it.
enum class Errc {
  invalid_argument,   // a parameter out of range or inconsistent with another
  invalid_structure,  // a sparse structure breaks an invariant (row_ptr, col_idx, ...)
  unsupported,        // valid, but not handled by this path (dtype, GPU, shape)
  io,                 // file could not be read or written
  parse,              // file contents are malformed
  cuda,               // the CUDA runtime reported an error
  cublas,             // cuBLAS reported an error
  cusparse,           // cuSPARSE reported an error
  capture,            // an operation is illegal inside stream capture
};

const char* errc_name(Errc code) noexcept;

class Error : public std::runtime_error {
 public:
  // `message` is what the user reads; `status` is the library status code (0 when none).
  Error(Errc code, const std::string& message, const char* file = "", int line = 0, int status = 0);

  Errc code() const noexcept { return code_; }
  int status() const noexcept { return status_; }
  const std::string& message() const noexcept { return message_; }
  const char* file() const noexcept { return file_; }
  int line() const noexcept { return line_; }

 private:
  Errc code_;
  std::string message_;
  const char* file_;
  int line_;
  int status_;
};

namespace detail {
[[noreturn]] void throw_cuda(cudaError_t status, const char* expr, const char* file, int line);
[[noreturn]] void throw_library(Errc code, const char* library, int status, const char* status_name,
                                const char* expr, const char* file, int line);
}  // namespace detail

}  // namespace bsrflow

// Throw bsrflow::Error(code, message) unless `cond`; the message expression is only evaluated
// on failure, so it may build strings freely.
#define BSRFLOW_REQUIRE(cond, code, message)                                         \
  do {                                                                               \
    if (!(cond)) throw ::bsrflow::Error((code), (message), __FILE__, __LINE__);      \
  } while (0)

#define BSRFLOW_FAIL(code, message) throw ::bsrflow::Error((code), (message), __FILE__, __LINE__)

// Checked CUDA runtime call.
#define BSRFLOW_CUDA(expr)                                                           \
  do {                                                                               \
    const cudaError_t bsrflow_status_ = (expr);                                      \
    if (bsrflow_status_ != cudaSuccess)                                              \
      ::bsrflow::detail::throw_cuda(bsrflow_status_, #expr, __FILE__, __LINE__);     \
  } while (0)

// After every kernel launch: catches launch-configuration errors without synchronising.
#define BSRFLOW_CHECK_LAUNCH(kernel_name)                                            \
  do {                                                                               \
    const cudaError_t bsrflow_status_ = cudaGetLastError();                          \
    if (bsrflow_status_ != cudaSuccess)                                              \
      ::bsrflow::detail::throw_cuda(bsrflow_status_, "launch of " kernel_name,        \
                                    __FILE__, __LINE__);                             \
  } while (0)
