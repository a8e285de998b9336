#include "gpu/cuda_check.hpp"

namespace cuzk::gpu {

namespace {

std::string describe(cudaError_t code, const char* expr, const char* file, int line) {
  std::string msg = std::string(file) + ":" + std::to_string(line) + ": " + expr +
                    " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
  if (code == cudaErrorMemoryAllocation) {
    size_t free_b = 0, total_b = 0;
    // The query itself may fail after a sticky error; then the numbers are simply left out.
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
      msg += "; GPU out of memory: " + std::to_string(free_b >> 20) + " MiB free of " +
             std::to_string(total_b >> 20) + " MiB";
    } else {
      msg += "; GPU out of memory";
    }
  }
  return msg;
}

}  // namespace

CudaError::CudaError(cudaError_t code, const char* expr, const char* file, int line)
    : std::runtime_error(describe(code, expr, file, line)), code_(code) {}

void cuda_check(cudaError_t code, const char* expr, const char* file, int line) {
  if (code == cudaSuccess) return;
  // Clear a non-sticky error so that later calls do not report it again.
  (void)cudaGetLastError();
  throw CudaError(code, expr, file, line);
}

}  // namespace cuzk::gpu
