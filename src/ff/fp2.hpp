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
  // Fp's spare bit, in c0 (never set in an element; Affine's mark of the point at infinity).
  static constexpr Fp2 with_spare_bit() { return {Fp::with_spare_bit(), Fp::zero()}; }
  constexpr bool spare_bit() const { return c0.spare_bit(); }
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
  // Karatsuba: 3 Fp products. With the mulx/adx kernels the products stay double-width and
  // only the two results are reduced (mul_lazy).
  constexpr Fp2 operator*(const Fp2& o) const {
    if (!std::is_constant_evaluated() && mont_detail::use_adx()) return mul_lazy(*this, o);
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
    if (!std::is_constant_evaluated() && mont_detail::use_adx()) return sqr_lazy(*this);
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

  // Lazily reduced product and square (defined below; any build, the kernels or their twins).
  static Fp2 mul_lazy(const Fp2& a, const Fp2& b);
  static Fp2 sqr_lazy(const Fp2& a);
};

// (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u from three double-width products and
// two Montgomery reductions. Bounds: a0 + a1 < 2p needs no reduction (the wide product takes any
// 384-bit operands); a0 b1 + a1 b0 < 2 p^2 < p R; a0 b0 - a1 b1 is brought into [0, p R) by
// adding p R when it borrows.
inline Fp2 Fp2::mul_lazy(const Fp2& a, const Fp2& b) {
  const uint64_t* p = Fp::kModulus.w;
  uint64_t sa[6], sb[6], t0[12], t1[12], t2[12];  // no zero-initialising stores
  unsigned char ca = 0, cb = 0;
  for (size_t i = 0; i < 6; ++i) {
    ca = addc_u64(ca, a.c0.mont().w[i], a.c1.mont().w[i], sa[i]);
    cb = addc_u64(cb, b.c0.mont().w[i], b.c1.mont().w[i], sb[i]);
  }
  Fp::mul_wide(t0, a.c0.mont().w, b.c0.mont().w);
  Fp::mul_wide(t1, a.c1.mont().w, b.c1.mont().w);
  Fp::mul_wide(t2, sa, sb);
  // t2 -= t0 + t1 (two borrow chains, one pass); t0 -= t1.
  unsigned char b2 = 0, b3 = 0, b0 = 0;
  for (size_t i = 0; i < 12; ++i) {
    b2 = subb_u64(b2, t2[i], t0[i], t2[i]);
    b3 = subb_u64(b3, t2[i], t1[i], t2[i]);
    b0 = subb_u64(b0, t0[i], t1[i], t0[i]);
  }
  // t0 += p R when it borrowed (branch-free: the borrow is a coin flip on random inputs).
  const uint64_t mask = 0 - static_cast<uint64_t>(b0);
  unsigned char c = 0;
  for (size_t i = 0; i < 6; ++i)
    c = addc_u64(c, t0[6 + i], p[i] & mask, t0[6 + i]);
  return {Fp::from_redc(t0), Fp::from_redc(t2)};
}

// (c0 + c1)(c0 - c1) + 2 c0 c1 u with unreduced factors: c0 + c1 < 2p, c0 - c1 + p < 2p and
// 2 c0 < 2p go into products below 4 p^2 < p R, so no addition needs its reduction step. The
// fused kernel takes them (MontField::from_product; against a wide product and a separate
// reduction: Fp2 square 1.15x -> 1.03x of blst, docs/perf-log.md 2026-12-01 session 4).
inline Fp2 Fp2::sqr_lazy(const Fp2& a) {
  const uint64_t* p = Fp::kModulus.w;
  const uint64_t* x = a.c0.mont().w;
  const uint64_t* y = a.c1.mont().w;
  uint64_t s[6], d[6], x2[6];
  unsigned char cs = 0, bd = 0, cd = 0, c2 = 0;
  for (size_t i = 0; i < 6; ++i) {
    cs = addc_u64(cs, x[i], y[i], s[i]);
    bd = subb_u64(bd, x[i], y[i], d[i]);
    c2 = addc_u64(c2, x[i], x[i], x2[i]);
  }
  for (size_t i = 0; i < 6; ++i)  // d = c0 - c1 + p, in (0, 2p)
    cd = addc_u64(cd, d[i], p[i], d[i]);
  return {Fp::from_product(s, d), Fp::from_product(x2, y)};
}

}  // namespace cuzk
