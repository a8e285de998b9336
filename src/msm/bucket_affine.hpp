// One window of the bucket method with affine buckets and batched inversions.
//
// An affine addition costs one inversion plus 2M + 1S. Montgomery's trick shares one inversion
// among a batch of K independent additions for 3(K - 1) extra products, so a bucket update costs
// about 6M + (inversion / K) against 8M + 2S for a mixed XYZZ addition. Additions in one batch
// must touch distinct buckets: a point whose bucket already has a pending addition goes instead
// into a lazily allocated XYZZ side bucket (rare for random scalars, and it keeps degenerate
// inputs such as many equal scalars at XYZZ speed rather than one inversion per point).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "ec/affine.hpp"
#include "ec/xyzz.hpp"
#include "ff/fp2.hpp"
#include "msm/bucket_reduce.hpp"
#include "msm/prefetch.hpp"
#include "msm/signed_windows.hpp"

namespace cuzk {

// Batch size for a window of `buckets` buckets. An inversion costs I products and is shared by
// the batch (I / K each); a point whose bucket is already pending takes the dearer XYZZ path,
// which happens to about K / (2 buckets) of them. The sum is least near K = sqrt(a I buckets).
// Fitted to bench/msm Compare_*_Window (c = 13: G1 best at 512-1024, G2 at 256): the Fp2
// inversion is one Fp inversion, cheap next to Fp2 products, so G2 wants smaller batches.
template <class Curve>
size_t batch_affine_default_batch(size_t buckets) {
  const double weight = std::is_same_v<typename Curve::Field, Fp2> ? 16.0 : 100.0;
  return std::clamp<size_t>(static_cast<size_t>(std::sqrt(weight * static_cast<double>(buckets))),
                            32, 4096);
}

// sum_i d_w(scalars[i]) * bases[base_index[i]] for the prepare()d scalars of one range.
template <class Curve>
Xyzz<Curve> window_sum_batch_affine(const SignedWindows& sw, unsigned w,
                                    std::span<const BigInt<4>> scalars,
                                    std::span<const uint32_t> base_index,
                                    std::span<const Affine<Curve>> bases, size_t batch = 0) {
  using Field = typename Curve::Field;
  using Point = Affine<Curve>;
  const size_t nb = sw.buckets_in_window(w);
  if (batch == 0) batch = batch_affine_default_batch<Curve>(nb);

  std::vector<Point> buckets(nb);  // all identity
  std::vector<Xyzz<Curve>> side;   // sized on first collision
  // stamp[b] == epoch marks a bucket with an addition pending in the current batch. (Were epoch
  // ever to wrap, a stale match would only send a point to the side bucket: still correct.)
  std::vector<uint32_t> stamp(nb, 0);
  uint32_t epoch = 1;

  enum Kind : uint8_t { kAdd, kDouble, kCancel };
  struct Pending {
    uint32_t bucket;
    Kind kind;
    bool negate;
    const Point* point;
  };
  std::vector<Pending> pending;
  pending.reserve(batch);
  std::vector<Field> den(batch), prefix(batch);

  auto flush = [&] {
    // Forward: denominators x2 - x1 (2 y1 to double) and their prefix products.
    Field acc = Field::one();
    for (size_t k = 0; k < pending.size(); ++k) {
      Pending& e = pending[k];
      const Point& a = buckets[e.bucket];
      const Field py = e.negate ? -e.point->y : e.point->y;
      Field d = e.point->x - a.x;
      if (d.is_zero()) {
        // Equal x: the same point (double it) or its negation (the sum is the identity; a
        // point with y = 0 doubles to the identity too).
        if (py == a.y && !py.is_zero()) {
          e.kind = kDouble;
          d = a.y.dbl();
        } else {
          e.kind = kCancel;
          d = Field::one();
        }
      }
      den[k] = d;
      prefix[k] = acc;
      acc *= d;
    }
    // Backward: peel each inverse off the inverse of the product.
    Field inv = acc.inv();
    for (size_t k = pending.size(); k-- > 0;) {
      const Pending& e = pending[k];
      const Field dinv = inv * prefix[k];
      inv *= den[k];
      Point& a = buckets[e.bucket];
      if (e.kind == kCancel) {
        a = Point::identity();
        continue;
      }
      Field lambda;
      Field x3;
      if (e.kind == kAdd) {
        const Field py = e.negate ? -e.point->y : e.point->y;
        lambda = (py - a.y) * dinv;
        x3 = lambda.sqr() - a.x - e.point->x;
      } else {
        const Field xx = a.x.sqr();
        lambda = (xx.dbl() + xx) * dinv;
        x3 = lambda.sqr() - a.x.dbl();
      }
      a.y = lambda * (a.x - x3) - a.y;
      a.x = x3;
    }
    pending.clear();
    ++epoch;
  };

  constexpr size_t kAhead = 4;  // submissions are short; look further ahead than the XYZZ loop
  for (size_t i = 0; i < scalars.size(); ++i) {
    if (i + kAhead < scalars.size()) {
      const int64_t da = sw.digit(scalars[i + kAhead], w);
      if (da != 0) {
        const size_t ba = static_cast<size_t>(da < 0 ? -da : da) - 1;
        prefetch_object(&buckets[ba]);
        __builtin_prefetch(&stamp[ba], 1, 3);
      }
    }
    const int64_t d = sw.digit(scalars[i], w);
    if (d == 0) continue;
    const Point* p = &bases[base_index[i]];
    if (p->is_identity()) continue;
    const bool negate = d < 0;
    const size_t b = static_cast<size_t>(negate ? -d : d) - 1;
    if (stamp[b] == epoch) {
      if (side.empty()) side.resize(nb);
      side[b] = side[b].add_mixed(negate ? -*p : *p);
      continue;
    }
    if (buckets[b].is_identity()) {
      buckets[b] = negate ? -*p : *p;
      continue;
    }
    stamp[b] = epoch;
    pending.push_back({static_cast<uint32_t>(b), kAdd, negate, p});
    if (pending.size() == batch) flush();
  }
  if (!pending.empty()) flush();

  return running_sum_reduce<Curve>(nb, [&](Xyzz<Curve>& running, size_t j) {
    running = running.add_mixed(buckets[j]);
    if (!side.empty() && !side[j].is_identity()) running = running + side[j];
  });
}

}  // namespace cuzk
