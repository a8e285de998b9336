// `cuzk-bench kernels --only alloc`: what a device buffer costs to allocate and to free at the
// sizes a capped device's front frees and allocates between and inside its phases (the
// `layout` phase, 2026-12-06: 0.059 s a partition at 16 GiB on the H200 for ~13 GiB freed and
// 3.25 GiB allocated, plus ~30 GiB inside the phases). Per size: the host wall clock of
// DeviceBuffer::allocate and of release (cudaMalloc and cudaFree, which waits for the device:
// the device is idle here, as at the front's phase boundaries), medians of 5 after a warm-up,
// and the same pair with a kernel-free cudaMemset of the buffer between (the pages touched).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "kernels_cmd.hpp"

namespace cuzk::bench {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

void run_alloc_rows() {
  std::printf("\n| buffer | allocate ms | free ms | allocate ms (touched) | free ms (touched) |\n");
  std::printf("|---|---|---|---|---|\n");
  for (const uint64_t mib : {256u, 1024u, 2048u, 4096u, 6144u}) {
    const size_t bytes = size_t{mib} << 20;
    std::vector<double> alloc_ms, free_ms, alloc_touched_ms, free_touched_ms;
    for (int rep = 0; rep < 6; ++rep) {
      for (const bool touch : {false, true}) {
        gpu::DeviceBuffer<uint8_t> b;
        CUZK_CUDA_CHECK(cudaDeviceSynchronize());
        const auto t0 = Clock::now();
        b.allocate(bytes);
        const auto t1 = Clock::now();
        if (touch) {
          CUZK_CUDA_CHECK(cudaMemset(b.get(), 0, bytes));
          CUZK_CUDA_CHECK(cudaDeviceSynchronize());
        }
        const auto t2 = Clock::now();
        b.release();
        const auto t3 = Clock::now();
        if (rep == 0) continue;  // warm-up
        (touch ? alloc_touched_ms : alloc_ms).push_back(ms_between(t0, t1));
        (touch ? free_touched_ms : free_ms).push_back(ms_between(t2, t3));
      }
    }
    std::printf("| %llu MiB | %.3f | %.3f | %.3f | %.3f |\n", static_cast<unsigned long long>(mib),
                median(alloc_ms), median(free_ms), median(alloc_touched_ms),
                median(free_touched_ms));
  }
}

}  // namespace cuzk::bench
