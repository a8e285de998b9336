// One window of the bucket method with XYZZ buckets: each point is added to its bucket with one
// mixed addition (8M + 2S, doubling and identities handled by Xyzz::add_mixed). The simple path,
// and the reference twin of the batch-affine accumulation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/xyzz.hpp"
#include "msm/bucket_reduce.hpp"
#include "msm/prefetch.hpp"
#include "msm/signed_windows.hpp"

namespace cuzk {

// sum_i d_w(scalars[i]) * bases[base_index[i]] for the prepare()d scalars of one range.
template <class Curve>
Xyzz<Curve> window_sum_xyzz(const SignedWindows& sw, unsigned w, std::span<const BigInt<4>> scalars,
                            std::span<const uint32_t> base_index,
                            std::span<const Affine<Curve>> bases) {
  const size_t nb = sw.buckets_in_window(w);
  std::vector<Xyzz<Curve>> buckets(nb);
  constexpr size_t kAhead = 2;  // one addition ahead is enough; two covers the odd zero digit
  for (size_t i = 0; i < scalars.size(); ++i) {
    if (i + kAhead < scalars.size()) {
      const int64_t da = sw.digit(scalars[i + kAhead], w);
      if (da != 0) prefetch_object(&buckets[static_cast<size_t>(da < 0 ? -da : da) - 1]);
    }
    const int64_t d = sw.digit(scalars[i], w);
    if (d == 0) continue;
    const Affine<Curve>& p = bases[base_index[i]];
    if (d > 0) {
      Xyzz<Curve>& b = buckets[static_cast<size_t>(d - 1)];
      b = b.add_mixed(p);
    } else {
      Xyzz<Curve>& b = buckets[static_cast<size_t>(-d - 1)];
      b = b.add_mixed(-p);
    }
  }
  return running_sum_reduce<Curve>(
      nb, [&](Xyzz<Curve>& running, size_t j) { running = running + buckets[j]; });
}

}  // namespace cuzk
