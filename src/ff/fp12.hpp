// Fp12 = Fp6[w] / (w^2 - v); an element is c0 + c1*w. The pairing target field.
#pragma once

#include <span>

#include "ff/fp6.hpp"

namespace cuzk {

// A quadratic extension as Fp2 is, one level up: the same member shapes over Fp6 (w^2 = v).
struct Fp12 {
  Fp6 c0, c1;

  static constexpr Fp12 zero() { return {}; }
  static constexpr Fp12 one() { return {Fp6::one(), Fp6::zero()}; }
  template <class Rng>
  static Fp12 random(Rng& rng) {
    const Fp6 a = Fp6::random(rng);
    return {a, Fp6::random(rng)};
  }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  constexpr bool operator==(const Fp12&) const = default;

  constexpr Fp12 operator+(const Fp12& o) const { return {c0 + o.c0, c1 + o.c1}; }
  constexpr Fp12 operator-(const Fp12& o) const { return {c0 - o.c0, c1 - o.c1}; }
  constexpr Fp12 operator-() const { return {-c0, -c1}; }
  // Karatsuba: 3 Fp6 products.
  constexpr Fp12 operator*(const Fp12& o) const {
    const Fp6 t0 = c0 * o.c0;
    const Fp6 t1 = c1 * o.c1;
    return {t0 + t1.mul_by_nonresidue(), (c0 + c1) * (o.c0 + o.c1) - t0 - t1};
  }
  constexpr Fp12& operator*=(const Fp12& o) { return *this = *this * o; }
  // Complex squaring: 2 Fp6 products.
  constexpr Fp12 sqr() const {
    const Fp6 ab = c0 * c1;
    const Fp6 c = (c0 + c1) * (c0 + c1.mul_by_nonresidue()) - ab - ab.mul_by_nonresidue();
    return {c, ab.dbl()};
  }
  // Conjugation a^(p^6); in the cyclotomic subgroup it is the inverse.
  constexpr Fp12 conjugate() const { return {c0, -c1}; }
  // Inverse of zero is zero.
  constexpr Fp12 inv() const {
    const Fp6 t = (c0.sqr() - c1.sqr().mul_by_nonresidue()).inv();
    return {c0 * t, -(c1 * t)};
  }

  // Product with a Miller-loop line l0 + l1 v + l4 v w (non-zero coefficients 0, 1 and 4 of the
  // six Fp2 slots c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2).
  constexpr Fp12 mul_by_014(const Fp2& l0, const Fp2& l1, const Fp2& l4) const {
    const Fp6 t0 = c0.mul_by_01(l0, l1);
    const Fp6 t1 = c1.mul_by_1(l4);
    return {t0 + t1.mul_by_nonresidue(), (c0 + c1).mul_by_01(l0, l1 + l4) - t0 - t1};
  }

  // Granger-Scott squaring, valid only in the cyclotomic subgroup (after the easy part of the
  // final exponentiation): 9 Fp2 squarings instead of 12 Fp2 products.
  Fp12 cyclotomic_sqr() const;
  // (x + y s)^2 = out0 + out1 s in Fp4 = Fp2[s] / (s^2 - xi), with double-width products (the
  // building block of cyclotomic_sqr and compressed_sqr; public for its tests).
  static void fp4_sqr(Fp2& out0, Fp2& out1, const Fp2& x, const Fp2& y);

  // a^(p^k).
  Fp12 frobenius(unsigned k) const;

  // Karabina's compressed squaring (eprint 2010/542), for the cyclotomic subgroup only: with
  // f = g0 + g2 w + g4 w^2 + g1 w^3 + g3 w^4 + g5 w^5, the square's g2..g5 depend on g2..g5
  // alone (6 Fp2 squarings instead of 9); g0, g1 come back by decompression, which divides by
  // 4 g2, so several are decompressed with one shared inversion.
  struct Compressed {
    Fp2 g2, g3, g4, g5;  // = c1.c0, c0.c2, c0.c1, c1.c2
  };
  Compressed compress() const { return {c1.c0, c0.c2, c0.c1, c1.c2}; }
  static Compressed compressed_sqr(const Compressed& g);
  // Decompresses every element; false (out unspecified) if some g2 is zero, where this formula
  // does not apply (the caller then uses cyclotomic_sqr instead).
  static bool decompress(std::span<const Compressed> in, std::span<Fp12> out);

  template <size_t M>
  Fp12 pow(const BigInt<M>& e) const {
    Fp12 r = one();
    for (size_t i = e.num_bits(); i-- > 0;) {
      r = r.sqr();
      if (e.bit(i)) r *= *this;
    }
    return r;
  }
};

}  // namespace cuzk
