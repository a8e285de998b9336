// Timing of device work by CUDA events, for the benchmarks (cuzk-bench kernels, arith_rates).
#pragma once

#include <cuda_runtime.h>

#include <functional>

namespace cuzk::gpu {

// Median milliseconds of f (work queued on stream s) over max(reps, 1) timed runs, after one
// untimed warm-up run.
double median_event_ms(const std::function<void()>& f, unsigned reps, cudaStream_t s);

}  // namespace cuzk::gpu
