// The device MSM's window width and digit sort (host-only, no CUDA): shared by the MSM (msm.cpp,
// msm_digits.cu) and the device memory plan (memory_plan.cpp), which sizes the MSM's scratch
// from them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuzk::gpu {

// Window width for n full-width scalars: minimises ceil(256/c) (n + 3 2^c), the bucket
// additions plus the reduction, capped at 16 up to 2^24 and 20 beyond (measured; msm_window.cpp).
unsigned msm_window_bits(size_t n);

// The widest window the device MSM takes (13 windows of 2^20 buckets). 22 (12 windows) was
// measured slower at G1 2^26 (637 vs 508 ms at 20; msm_window.cpp) and its scratch for any n is
// ~10 GB of buckets and partials, so it is not offered.
constexpr unsigned kMsmMaxWindowBits = 21;

// The widest window over a precomputed table: its windows share ceil(W / copies) bucket sets, so
// wider windows cost no more reductions; 2^23 buckets (1.6 GB of G1 XYZZ) per set at 24.
constexpr unsigned kMsmMaxTableWindowBits = 24;

// Copies of a base a precomputed table holds at most (the kernel keeps them in local memory; at
// c = 16 that is every window, narrower windows take several bucket sets).
constexpr unsigned kMsmMaxTableCopies = 16;

// Digit windows at width c: ceil(256 / c).
constexpr unsigned msm_windows(unsigned c) {
  return (256 + c - 1) / c;
}

// Whether n scalars' digits are sorted into buckets by a radix sort per window (CUB's) rather
// than the counting-sort scatter (msm_digits.cu); from 2^22 up (measured; msm_window.cpp).
bool msm_radix_sort(size_t n);

// Device scratch the radix sort adds to the MSM's (0 where msm_radix_sort(n) is false): a second
// key buffer and two payload buffers of n words, and CUB's temporary storage, which the sort
// must fit in msm_radix_sort_temp_bytes(n) (it falls back to the scatter where it does not).
uint64_t msm_radix_sort_temp_bytes(size_t n);
uint64_t msm_radix_sort_bytes(size_t n);

}  // namespace cuzk::gpu
