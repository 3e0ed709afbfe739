#include "bsrflow/core/error.hpp"

#include <string>

namespace bsrflow {

const char* errc_name(Errc code) noexcept {
  switch (code) {
    case Errc::invalid_argument: return "invalid argument";
    case Errc::invalid_structure: return "invalid structure";
    case Errc::unsupported: return "unsupported";
    case Errc::io: return "I/O error";
    case Errc::parse: return "parse error";
    case Errc::cuda: return "CUDA error";
    case Errc::cublas: return "cuBLAS error";
    case Errc::cusparse: return "cuSPARSE error";
    case Errc::capture: return "illegal during stream capture";
  }
  return "unknown error";
}

namespace {
std::string compose(Errc code, const std::string& message, const char* file, int line) {
  std::string text = std::string("bsrflow: ") + errc_name(code) + ": " + message;
  if (file != nullptr && *file != '\0') text += " [" + std::string(file) + ":" + std::to_string(line) + "]";
  return text;
}
}  // namespace

Error::Error(Errc code, const std::string& message, const char* file, int line, int status)
    : std::runtime_error(compose(code, message, file, line)),
      code_(code),
      message_(message),
      file_(file != nullptr ? file : ""),
      line_(line),
      status_(status) {}

namespace detail {

void throw_cuda(cudaError_t status, const char* expr, const char* file, int line) {
  // Clear the runtime's last-error slot: a non-sticky error already reported here must not
  // resurface in the next unrelated BSRFLOW_CHECK_LAUNCH.
  (void)cudaGetLastError();
  throw Error(Errc::cuda,
              std::string(expr) + " failed: " + cudaGetErrorName(status) + " (" +
                  cudaGetErrorString(status) + ")",
              file, line, static_cast<int>(status));
}

void throw_library(Errc code, const char* library, int status, const char* status_name,
                   const char* expr, const char* file, int line) {
  throw Error(code,
              std::string(expr) + " failed: " + library + " status " + std::to_string(status) +
                  " (" + status_name + ")",
              file, line, status);
}

}  // namespace detail
}  // namespace bsrflow
