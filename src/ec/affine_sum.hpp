// P + Q in affine coordinates with the slope's inversion left to the caller, so that many sums
// share one inversion (Montgomery's trick): affine_sum_denominator gives what must be inverted,
// affine_sum finishes the sum from its inverse (2M + 1S). The device MSM's batch-affine bucket
// rounds (gpu/msm_affine_kernels.cuh) use these for G1; the formulas are constexpr so that host
// and device share one definition. Every case is covered: an identity operand, P = Q (a doubling,
// slope 3x^2 / 2y), Q = -P (the identity), so a denominator is never zero.
#pragma once

#include "ec/affine.hpp"

namespace cuzk {

// The slope's denominator of p + q: x_q - x_p, 2 y_p for a doubling, one when no division is
// needed (an identity operand, q = -p, or a point of order two).
template <class Curve>
constexpr typename Curve::Field affine_sum_denominator(const Affine<Curve>& p,
                                                       const Affine<Curve>& q) {
  using Field = typename Curve::Field;
  if (p.infinity || q.infinity) return Field::one();
  if (p.x != q.x) return q.x - p.x;
  if (p.y == q.y && !p.y.is_zero()) return p.y.dbl();
  return Field::one();
}

// p + q, given inv = 1 / affine_sum_denominator(p, q).
template <class Curve>
constexpr Affine<Curve> affine_sum(const Affine<Curve>& p, const Affine<Curve>& q,
                                   const typename Curve::Field& inv) {
  using Field = typename Curve::Field;
  if (p.infinity) return q;
  if (q.infinity) return p;
  Field slope;
  if (p.x != q.x) {
    slope = (q.y - p.y) * inv;
  } else if (p.y == q.y && !p.y.is_zero()) {
    const Field xx = p.x.sqr();
    slope = (xx.dbl() + xx) * inv;
  } else {
    return Affine<Curve>::identity();
  }
  const Field x = slope.sqr() - p.x - q.x;
  return Affine<Curve>::from_xy(x, slope * (p.x - x) - p.y);
}

}  // namespace cuzk
