// Fp2 = Fp[u] / (u^2 + 1); an element is c0 + c1*u. The field of G2 coordinates.
#pragma once

#include <optional>
#include <string>

#include "ff/fp.hpp"

namespace cuzk {

struct Fp2 {
  Fp c0, c1;

  static constexpr Fp2 zero() { return {}; }
  static constexpr Fp2 one() { return {Fp::one(), Fp::zero()}; }
  template <class Rng>
  static Fp2 random(Rng& rng) {
    const Fp a = Fp::random(rng);
    return {a, Fp::random(rng)};
  }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  constexpr bool operator==(const Fp2&) const = default;

  constexpr Fp2 operator+(const Fp2& o) const { return {c0 + o.c0, c1 + o.c1}; }
  constexpr Fp2 operator-(const Fp2& o) const { return {c0 - o.c0, c1 - o.c1}; }
  constexpr Fp2 operator-() const { return {-c0, -c1}; }
  // Karatsuba: 3 Fp products.
  constexpr Fp2 operator*(const Fp2& o) const {
    const Fp t0 = c0 * o.c0;
    const Fp t1 = c1 * o.c1;
    return {t0 - t1, (c0 + c1) * (o.c0 + o.c1) - t0 - t1};
  }
  constexpr Fp2& operator+=(const Fp2& o) { return *this = *this + o; }
  constexpr Fp2& operator-=(const Fp2& o) { return *this = *this - o; }
  constexpr Fp2& operator*=(const Fp2& o) { return *this = *this * o; }

  constexpr Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u: 2 Fp products.
  constexpr Fp2 sqr() const {
    const Fp t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t.dbl()};
  }
  constexpr Fp2 mul_by_fp(const Fp& s) const { return {c0 * s, c1 * s}; }
  // Multiplication by the sextic non-residue xi = u + 1 (defines Fp6 and the G2 twist).
  constexpr Fp2 mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }
  constexpr Fp2 conjugate() const { return {c0, -c1}; }
  // a^(p^k): the p-power Frobenius is conjugation.
  constexpr Fp2 frobenius(unsigned k) const { return k % 2 ? conjugate() : *this; }
  // Norm to Fp: c0^2 + c1^2.
  constexpr Fp norm() const { return c0.sqr() + c1.sqr(); }
  // Inverse of zero is zero.
  constexpr Fp2 inv() const {
    const Fp n = norm().inv();
    return {c0 * n, -(c1 * n)};
  }

  template <size_t M>
  constexpr Fp2 pow(const BigInt<M>& e) const {
    Fp2 r = one();
    for (size_t i = e.num_bits(); i-- > 0;) {
      r = r.sqr();
      if (e.bit(i)) r *= *this;
    }
    return r;
  }

  // 1 for a non-zero square, -1 for a non-square, 0 for zero: an element is a square in Fp2
  // exactly when its norm is a square in Fp.
  constexpr int legendre() const { return norm().legendre(); }

  // Square root for p = 3 mod 4 (Adj and Rodriguez-Henriquez, eprint 2012/685, Algorithm 9).
  constexpr std::optional<Fp2> sqrt() const {
    if (is_zero()) return zero();
    constexpr auto kP34 = div_exact_u64(sub_u64(Fp::kModulus, 3), 4);  // (p - 3) / 4
    constexpr auto kP12 = Fp::kHalfModulus;                            // (p - 1) / 2
    const Fp2 a1 = pow(kP34);
    const Fp2 alpha = a1.sqr() * *this;  // a^((p-1)/2), in {1, -1} times Fp-norm-1 elements
    const Fp2 x0 = a1 * *this;
    Fp2 x;
    if (alpha == -one()) {
      x = {-x0.c1, x0.c0};  // u * x0
    } else {
      x = (alpha + one()).pow(kP12) * x0;
    }
    if (x.sqr() != *this) return std::nullopt;
    return x;
  }

  // zcash sort flag for G2 y: c1 > (p-1)/2, or c1 == 0 and c0 > (p-1)/2.
  constexpr bool is_lexicographically_largest() const {
    if (!c1.is_zero()) return c1.is_lexicographically_largest();
    return c0.is_lexicographically_largest();
  }

  std::string to_string() const { return "{" + c0.to_hex() + ", " + c1.to_hex() + "}"; }
};

}  // namespace cuzk
