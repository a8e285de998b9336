// msm_window_bits (gpu/msm_window.hpp).
#include "gpu/msm_window.hpp"

namespace cuzk::gpu {

// The cost model ceil(256/c) (n + 3 2^c) alone picks c = 19-20 from 2^24 up, but the window
// sweep on the H200 (2026-11-30, cuzk-bench kernels --sweep 24 26) measured wider windows slower
// per addition (fewer points per bucket-task thread: more imbalance and per-task overhead):
// G1 2^24 c = 16 253 ms vs c = 19 324 ms; G2 2^24 c = 16 best (885 ms vs 897-904 at 17-18).
// Above 2^24 the model's choice stands up to c = 20: with the out-of-line Fp product, G1 2^26 took
// 852 / 842 / 821 ms at c = 18 / 19 / 20 (the cap was 18 before). Hence the caps.
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

}  // namespace cuzk::gpu
