// The device MSM's window width (host-only, no CUDA): shared by the MSM (msm.cpp) and the device
// memory plan (memory_plan.cpp), which sizes the MSM's scratch from it.
#pragma once

#include <cstddef>

namespace cuzk::gpu {

// Window width for n full-width scalars: minimises ceil(256/c) (n + 3 2^c), the bucket
// additions plus the reduction, capped at 16 up to 2^24 and 20 beyond (measured; msm_window.cpp).
unsigned msm_window_bits(size_t n);

}  // namespace cuzk::gpu
