// CudaError and CUZK_CUDA_CHECK: every CUDA runtime call and every kernel launch in src/gpu/ goes
// through these (the single checking point, where the fault hook sits too), so a failure surfaces
// as an exception naming the call, its file and line and the runtime's message, never as a silent
// wrong result or a crash. Out-of-memory is told apart (CudaError::out_of_memory()) so that callers
// can report it as such or fall back.
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

// The fault hook (util/fault_injector.hpp), asked before each checked call: inside a
// FaultInjector::Scope, the Nth cudaMalloc/cudaHostAlloc (gpu-alloc), cudaMemcpy* (gpu-copy) or
// kernel launch check (gpu-launch) throws the CudaError its real failure would, and the call is
// not made (no allocation leaks, nothing is copied; a launch is checked after it was enqueued,
// so that kernel still runs). Outside a Scope: nothing.
void inject_fault(const char* expr, const char* file, int line);

}  // namespace cuzk::gpu

#define CUZK_CUDA_CHECK(expr)                            \
  (::cuzk::gpu::inject_fault(#expr, __FILE__, __LINE__), \
   ::cuzk::gpu::cuda_check((expr), #expr, __FILE__, __LINE__))
// After every <<<...>>> launch: a bad configuration is reported by cudaGetLastError.
#define CUZK_CUDA_CHECK_LAUNCH()                                   \
  (::cuzk::gpu::inject_fault("kernel launch", __FILE__, __LINE__), \
   ::cuzk::gpu::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__))
