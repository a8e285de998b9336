#include "gpu/device/cuda_check.hpp"

#include <cstring>
#include <optional>

#include "util/fault_injector.hpp"

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

// Which fault site a checked call is, from its text (every call comes through cuda_check).
std::optional<FaultSite> site_of(const char* expr) {
  if (std::strcmp(expr, "kernel launch") == 0) return FaultSite::kGpuLaunch;
  if (std::strstr(expr, "cudaMalloc") != nullptr || std::strstr(expr, "cudaHostAlloc") != nullptr)
    return FaultSite::kGpuAlloc;
  if (std::strstr(expr, "cudaMemcpy") != nullptr) return FaultSite::kGpuCopy;
  return std::nullopt;
}

// The error an injected fault reports: what the real failure would (non-sticky codes, so the
// context stays usable, as it does after a real allocation failure).
cudaError_t injected_code(FaultSite site) {
  switch (site) {
    case FaultSite::kGpuAlloc:
      return cudaErrorMemoryAllocation;
    case FaultSite::kGpuLaunch:
      return cudaErrorLaunchOutOfResources;
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace

CudaError::CudaError(cudaError_t code, const char* expr, const char* file, int line)
    : std::runtime_error(describe(code, expr, file, line)), code_(code) {}

void inject_fault(const char* expr, const char* file, int line) {
  FaultInjector* faults = FaultInjector::current();
  if (faults == nullptr) return;
  const std::optional<FaultSite> site = site_of(expr);
  if (!site) return;
  const std::optional<uint64_t> n = faults->hit(*site);
  if (!n) return;
  const std::string what = std::string("[injected fault ") + fault_site_name(*site) + " #" +
                           std::to_string(*n) + "] " + expr;
  throw CudaError(injected_code(*site), what.c_str(), file, line);
}

void cuda_check(cudaError_t code, const char* expr, const char* file, int line) {
  if (code == cudaSuccess) return;
  // Clear a non-sticky error so that later calls do not report it again.
  (void)cudaGetLastError();
  throw CudaError(code, expr, file, line);
}

}  // namespace cuzk::gpu
