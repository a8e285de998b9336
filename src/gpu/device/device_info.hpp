// Device discovery: how many CUDA devices there are, their names and memory. A machine without a
// driver or device reports 0 devices (never an exception), so `auto` can fall back to the CPU.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cuzk::gpu {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  size_t total_bytes = 0;
  size_t free_bytes = 0;
  int sm_count = 0;
  int major = 0, minor = 0;
};

// 0 when cudaGetDeviceCount fails (no driver, no device) or finds none.
int device_count();
inline bool device_available() {
  return device_count() > 0;
}
// One entry per device; empty without devices.
std::vector<DeviceInfo> list_devices();
// "NVIDIA H200 (sm_90, 132 SMs, 143771 MiB, 143000 MiB free)".
std::string describe(const DeviceInfo& d);

}  // namespace cuzk::gpu
