// Doubling of a Jacobian point over Fp (a = 0 curves: G1) with double-width products, so that
// the additions, subtractions and doublings of dbl-2009-l mostly disappear into the operands of
// the products (unreduced multiples of an input) or into one sum before a reduction.
//
// dbl-2009-l: A = X^2, B = Y^2, C = B^2, D = 2((X + B)^2 - A - C) = 4 X B, E = 3 A, F = E^2,
// X3 = F - 2D, Y3 = E (D - X3) - 8C, Z3 = 2 Y Z. Here, with every input < p (q = p^2):
//   E  = redc(3X * X)                    3X < 3p, the product < 3q
//   B  = Y * Y                           (the fused Montgomery product)
//   D  = redc(4X * B)                    4X < 4p < 2^384, < 4q
//   X3 = redc(K + E * E - 2 (4X * B))    the integer in (-8q, q)
//   Y3 = redc(K + E * (D - X3) - 8B * B) the integer in (-8q, q); 8B < 8p < 2^384
//   Z3 = redc(2Y * Z)                    < 2q
// with K = 7p 2^381 ~ 8.62q: both sums land in (0.62q, 9.62q), below p R ~ 9.84q, the input range
// of the reduction. The result is the same triple as the formula's (every step is exact mod p).
#pragma once

#include <array>
#include <cstdint>

#include "ff/fp.hpp"
#include "ff/fp_wide_sum.hpp"

namespace cuzk {
namespace jacobian_detail {

// K = 7 p 2^381, the offset of both sums above.
inline constexpr std::array<uint64_t, 12> kDblOffset = fp_wide::shifted_multiple_of_p(7, 381);

// r = x << s for x < p and s <= 3 (no reduction: the result stays below 8p < 2^384).
inline void shl_small(uint64_t r[6], const uint64_t x[6], unsigned s) {
  for (size_t i = 6; i-- > 1;)
    r[i] = (x[i] << s) | (x[i - 1] >> (64 - s));
  r[0] = x[0] << s;
}

}  // namespace jacobian_detail

// (X3, Y3, Z3) = 2 (X, Y, Z); outputs may not alias inputs.
inline void jacobian_dbl_fp(Fp& x3, Fp& y3, Fp& z3, const Fp& x, const Fp& y, const Fp& z) {
  using namespace jacobian_detail;
  const uint64_t* X = x.mont().w;
  const uint64_t* Y = y.mont().w;
  uint64_t x3w[6], x4w[6], y2w[6], t[12], u[12], w[12];
  // E = 3 X^2.
  shl_small(x3w, X, 1);
  unsigned char c = 0;
  for (size_t i = 0; i < 6; ++i)
    c = addc_u64(c, x3w[i], X[i], x3w[i]);
  Fp::mul_wide(t, x3w, X);
  const Fp e = Fp::from_redc(t);
  const Fp b = y.sqr();
  // D = 4 X B, kept double-width in u for X3.
  shl_small(x4w, X, 2);
  Fp::mul_wide(u, x4w, b.mont().w);
  const Fp d = Fp::from_redc(u);
  // X3 = K + E^2 - 2 (4 X B).
  Fp::sqr_wide(t, e.mont().w);
  unsigned char c0 = 0, b0 = 0, b1 = 0;
  for (size_t i = 0; i < 12; ++i) {
    c0 = addc_u64(c0, t[i], kDblOffset[i], w[i]);
    b0 = subb_u64(b0, w[i], u[i], w[i]);
    b1 = subb_u64(b1, w[i], u[i], w[i]);
  }
  x3 = Fp::from_redc(w);
  // Y3 = K + E (D - X3) - 8 B^2.
  const Fp dx = d - x3;
  Fp::mul_wide(t, e.mont().w, dx.mont().w);
  shl_small(y2w, b.mont().w, 3);
  Fp::mul_wide(u, y2w, b.mont().w);
  c0 = 0;
  b0 = 0;
  for (size_t i = 0; i < 12; ++i) {
    c0 = addc_u64(c0, t[i], kDblOffset[i], w[i]);
    b0 = subb_u64(b0, w[i], u[i], w[i]);
  }
  y3 = Fp::from_redc(w);
  // Z3 = 2 Y Z.
  shl_small(y2w, Y, 1);
  Fp::mul_wide(t, y2w, z.mont().w);
  z3 = Fp::from_redc(t);
}

}  // namespace cuzk
