#include "gpu_kernels/event_timing.hpp"

#include <algorithm>
#include <vector>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"

namespace cuzk::gpu {

double median_event_ms(const std::function<void()>& f, unsigned reps, cudaStream_t s) {
  f();
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  std::vector<double> t;
  for (unsigned r = 0; r < std::max(reps, 1u); ++r) {
    Event e0, e1;
    e0.record(s);
    f();
    e1.record(s);
    e1.sync();
    t.push_back(e1.ms_since(e0));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace cuzk::gpu
