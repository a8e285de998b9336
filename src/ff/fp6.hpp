// Fp6 = Fp2[v] / (v^3 - xi) with xi = u + 1; an element is c0 + c1*v + c2*v^2.
#pragma once

#include "ff/fp2.hpp"

namespace cuzk {

struct Fp6 {
  Fp2 c0, c1, c2;

  static constexpr Fp6 zero() { return {}; }
  static constexpr Fp6 one() { return {Fp2::one(), Fp2::zero(), Fp2::zero()}; }
  template <class Rng>
  static Fp6 random(Rng& rng) {
    const Fp2 a = Fp2::random(rng);
    const Fp2 b = Fp2::random(rng);
    return {a, b, Fp2::random(rng)};
  }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  constexpr bool operator==(const Fp6&) const = default;

  constexpr Fp6 operator+(const Fp6& o) const { return {c0 + o.c0, c1 + o.c1, c2 + o.c2}; }
  constexpr Fp6 operator-(const Fp6& o) const { return {c0 - o.c0, c1 - o.c1, c2 - o.c2}; }
  constexpr Fp6 operator-() const { return {-c0, -c1, -c2}; }
  constexpr Fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  // Karatsuba-style: 6 Fp2 products. With the mulx/adx kernels they stay double-width and each
  // Fp coefficient is reduced once (mul_lazy, fp6_mul_lazy.cpp; Fp12 mul 1.42x -> 0.96x of
  // blst, docs/perf-log.md 2026-12-01 session 4).
  constexpr Fp6 operator*(const Fp6& o) const {
    if (!std::is_constant_evaluated() && mont_detail::use_adx()) return mul_lazy(*this, o);
    const Fp2 t0 = c0 * o.c0;
    const Fp2 t1 = c1 * o.c1;
    const Fp2 t2 = c2 * o.c2;
    return {((c1 + c2) * (o.c1 + o.c2) - t1 - t2).mul_by_nonresidue() + t0,
            (c0 + c1) * (o.c0 + o.c1) - t0 - t1 + t2.mul_by_nonresidue(),
            (c0 + c2) * (o.c0 + o.c2) - t0 - t2 + t1};
  }
  constexpr Fp6& operator+=(const Fp6& o) { return *this = *this + o; }
  constexpr Fp6& operator-=(const Fp6& o) { return *this = *this - o; }
  constexpr Fp6& operator*=(const Fp6& o) { return *this = *this * o; }

  // Chung-Hasan SQR2: 2 Fp2 products and 3 Fp2 squarings.
  constexpr Fp6 sqr() const {
    const Fp2 s0 = c0.sqr();
    const Fp2 s1 = (c0 * c1).dbl();
    const Fp2 s2 = (c0 - c1 + c2).sqr();
    const Fp2 s3 = (c1 * c2).dbl();
    const Fp2 s4 = c2.sqr();
    return {s3.mul_by_nonresidue() + s0, s4.mul_by_nonresidue() + s1, s1 + s2 + s3 - s0 - s4};
  }

  // Multiplication by v: (c0, c1, c2) -> (xi c2, c0, c1).
  constexpr Fp6 mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }
  constexpr Fp6 mul_by_fp2(const Fp2& s) const { return {c0 * s, c1 * s, c2 * s}; }
  // Sparse products used by the Miller loop: by b0 + b1 v, and by b1 v.
  constexpr Fp6 mul_by_01(const Fp2& b0, const Fp2& b1) const {
    if (!std::is_constant_evaluated() && mont_detail::use_adx())
      return mul_by_01_lazy(*this, b0, b1);
    const Fp2 t0 = c0 * b0;
    const Fp2 t1 = c1 * b1;
    return {((c1 + c2) * b1 - t1).mul_by_nonresidue() + t0, (c0 + c1) * (b0 + b1) - t0 - t1,
            (c0 + c2) * b0 - t0 + t1};
  }
  constexpr Fp6 mul_by_1(const Fp2& b1) const {
    return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1};
  }

  // Inverse of zero is zero.
  constexpr Fp6 inv() const {
    const Fp2 a = c0.sqr() - (c1 * c2).mul_by_nonresidue();
    const Fp2 b = c2.sqr().mul_by_nonresidue() - c0 * c1;
    const Fp2 c = c1.sqr() - c0 * c2;
    const Fp2 f = c0 * a + (c2 * b + c1 * c).mul_by_nonresidue();
    const Fp2 fi = f.inv();
    return {a * fi, b * fi, c * fi};
  }

  // a^(p^k).
  Fp6 frobenius(unsigned k) const;

  // The product above with 6 Montgomery reductions instead of 12 (any build: the kernels or their
  // portable twins).
  static Fp6 mul_lazy(const Fp6& a, const Fp6& b);
  // Its six double-width coefficients (c0.c0, c0.c1, c1.c0, ...) before the reductions: each is
  // the coefficient times R plus a multiple of p, in [0, p R) (the tests check the bounds).
  static void mul_unreduced(uint64_t r[6][12], const Fp6& a, const Fp6& b);
  // The same for mul_by_01 (its 6 reductions instead of 10).
  static Fp6 mul_by_01_lazy(const Fp6& a, const Fp2& b0, const Fp2& b1);
  static void mul_by_01_unreduced(uint64_t r[6][12], const Fp6& a, const Fp2& b0, const Fp2& b1);
  static Fp6 from_unreduced(const uint64_t w[6][12]);  // the six reductions
};

}  // namespace cuzk
