// msm_window_bits (gpu/msm/msm_window.hpp).
#include "gpu/msm/msm_window.hpp"

namespace cuzk::gpu {

// The cost model ceil(256/c) (n + 3 2^c) alone picks c = 19-20 from 2^24 up, but the window
// sweep on the H200 (2026-11-30, cuzk-bench kernels --sweep 24 26) measured wider windows slower
// per addition (fewer points per bucket-task thread: more imbalance and per-task overhead):
// G1 2^24 c = 16 253 ms vs c = 19 324 ms; G2 2^24 c = 16 best (885 ms vs 897-904 at 17-18).
// Above 2^24 the model's choice stands up to c = 20: with the out-of-line Fp product, G1 2^26 took
// 852 / 842 / 821 ms at c = 18 / 19 / 20 (the cap was 18 before). Hence the caps. With the radix
// sort (2026-12-02, --sweep 24 26) they stand: G1 2^26 c = 17..22 549 / 529 / 527 / 508 / 632 /
// 637 ms (from 21 on the accumulation slows, 462 -> 527-541 ms), 2^24 c = 16 139 ms, 151-153 at
// 17-18; G2 2^24 c = 16 426 ms, 436-440 at 17-18.
unsigned msm_window_bits(size_t n) {
  unsigned best = 2;
  double best_cost = 0;
  for (unsigned c = 2; c <= 21; ++c) {
    const double windows = (256 + c - 1) / c;
    const double cost = windows * (static_cast<double>(n) + 3.0 * static_cast<double>(1u << c));
    if (c == 2 || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  const unsigned cap = n > (size_t{1} << 24) ? 20u : 16u;
  return best < cap ? best : cap;
}

// The counting sort's scatter is bound by its atomics (ncu on the H200, 2026-12-01: 74.7 of the
// 84 ms sort at G1 2^26). CUB's radix sort per window, in the same run (session 4's experiment,
// radix from 4096 scalars), CUDA-event medians: sort 85.4 -> 30.9 ms at 2^26 and 170.8 -> 60.3
// at 2^27 (whole MSM 560.1 -> 505.8 and 1047.9 -> 937.7 ms), 2^22 41.66 -> 40.80 and 2^24
// 144.6 -> 138.1 ms, but 2^20 13.78 -> 14.03: below 2^22 its fixed passes cost more than the
// atomics. This form measured the same (2026-12-02: 2^26 sort 33.4 ms, MSM 508.4; perf-log.md).
bool msm_radix_sort(size_t n) {
  return n >= (size_t{1} << 22);
}

// CUB's one-sweep sort (DoubleBuffer form: no extra key or value copies) keeps 1 KiB of look-back
// state per tile of thousands of keys (under a byte per four keys) and 1 KiB of histogram per
// pass: n / 2 bytes + 4 MiB covers both (cub/device/dispatch/dispatch_radix_sort.cuh).
uint64_t msm_radix_sort_temp_bytes(size_t n) {
  return msm_radix_sort(n) ? uint64_t{n} / 2 + (uint64_t{4} << 20) : 0;
}

uint64_t msm_radix_sort_bytes(size_t n) {
  return msm_radix_sort(n) ? 3 * uint64_t{n} * 4 + msm_radix_sort_temp_bytes(n) : 0;
}

}  // namespace cuzk::gpu
