// CudaError and CUZK_CUDA_CHECK: every CUDA runtime call and every kernel launch in src/gpu/ goes
// through these, so a failure surfaces as an exception naming the call, its file and line and the
// runtime's message, never as a silent wrong result or a crash. Out-of-memory is told apart
// (CudaError::out_of_memory()) so that callers can report it as such or fall back.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace cuzk::gpu {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* expr, const char* file, int line);
  cudaError_t code() const { return code_; }
  bool out_of_memory() const { return code_ == cudaErrorMemoryAllocation; }

 private:
  cudaError_t code_;
};

// Throws CudaError unless code == cudaSuccess.
void cuda_check(cudaError_t code, const char* expr, const char* file, int line);

}  // namespace cuzk::gpu

#define CUZK_CUDA_CHECK(expr) ::cuzk::gpu::cuda_check((expr), #expr, __FILE__, __LINE__)
// After every <<<...>>> launch: a bad configuration is reported by cudaGetLastError.
#define CUZK_CUDA_CHECK_LAUNCH() \
  ::cuzk::gpu::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
