#include "gpu/device/device_info.hpp"

#include <cuda_runtime.h>

#include "gpu/device/cuda_check.hpp"

namespace cuzk::gpu {

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out;
  const int n = device_count();
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp prop{};
    CUZK_CUDA_CHECK(cudaGetDeviceProperties(&prop, i));
    // The part of cudaDeviceProp the engine reads, so that its headers need no CUDA header.
    DeviceInfo d;
    d.ordinal = i;
    d.name = prop.name;
    d.total_bytes = prop.totalGlobalMem;
    d.sm_count = prop.multiProcessorCount;
    d.major = prop.major;
    d.minor = prop.minor;
    int current = 0;
    CUZK_CUDA_CHECK(cudaGetDevice(&current));
    CUZK_CUDA_CHECK(cudaSetDevice(i));
    size_t free_b = 0, total_b = 0;
    CUZK_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    CUZK_CUDA_CHECK(cudaSetDevice(current));
    d.free_bytes = free_b;
    out.push_back(d);
  }
  return out;
}

std::string describe(const DeviceInfo& d) {
  return d.name + " (sm_" + std::to_string(d.major) + std::to_string(d.minor) + ", " +
         std::to_string(d.sm_count) + " SMs, " + std::to_string(d.total_bytes >> 20) + " MiB, " +
         std::to_string(d.free_bytes >> 20) + " MiB free)";
}

}  // namespace cuzk::gpu
