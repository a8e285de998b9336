#include "gpu/device/device_memory_cap.hpp"

#include <string>

#include "gpu/device/cuda_check.hpp"

namespace cuzk::gpu {

namespace {
// The cap of the backend call running on this thread (set by Scope only).
thread_local DeviceMemoryCap* t_current = nullptr;
}  // namespace

void DeviceMemoryCap::charge(uint64_t bytes) {
  uint64_t used = in_use_.load();
  for (;;) {
    if (limit_ != 0 && (bytes > limit_ || used > limit_ - bytes)) {
      const std::string what = "cudaMalloc of " + std::to_string(bytes) +
                               " bytes refused: over [gpus] memory_limit (" + std::to_string(used) +
                               " bytes in use of a limit of " + std::to_string(limit_) + ")";
      throw CudaError(cudaErrorMemoryAllocation, what.c_str(), __FILE__, __LINE__);
    }
    if (in_use_.compare_exchange_weak(used, used + bytes)) break;
  }
  uint64_t peak = peak_.load();
  while (used + bytes > peak && !peak_.compare_exchange_weak(peak, used + bytes)) {
  }
}

DeviceMemoryCap* DeviceMemoryCap::current() {
  return t_current;
}

DeviceMemoryCap::Scope::Scope(DeviceMemoryCap& cap) : previous_(t_current) {
  t_current = &cap;
}

DeviceMemoryCap::Scope::~Scope() {
  t_current = previous_;
}

}  // namespace cuzk::gpu
