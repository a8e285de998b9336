// Frobenius constants and the cyclotomic squaring of the Fp6/Fp12 tower.
#include "ff/fp12.hpp"

#include <vector>

namespace cuzk {
namespace {

constexpr Fp2 kXi = {Fp::one(), Fp::one()};  // u + 1
constexpr auto kPMinus1 = sub_u64(Fp::kModulus, 1);
// v^(p-1) = xi^((p-1)/3) and v^(2(p-1)) = xi^(2(p-1)/3): Frobenius on the v and v^2 slots.
constexpr Fp2 kFrobV = kXi.pow(div_exact_u64(kPMinus1, 3));
constexpr Fp2 kFrobV2 = kFrobV.sqr();
// w^(p-1) = xi^((p-1)/6): Frobenius on the w half of Fp12.
constexpr Fp2 kFrobW = kXi.pow(div_exact_u64(kPMinus1, 6));

Fp6 frobenius1(const Fp6& a) {
  return {a.c0.conjugate(), a.c1.conjugate() * kFrobV, a.c2.conjugate() * kFrobV2};
}

// (x + y s)^2 in Fp4 = Fp2[s] / (s^2 - xi).
void fp4_sqr(Fp2& out0, Fp2& out1, const Fp2& x, const Fp2& y) {
  const Fp2 t0 = x.sqr();
  const Fp2 t1 = y.sqr();
  out0 = t1.mul_by_nonresidue() + t0;
  out1 = (x + y).sqr() - t0 - t1;
}

}  // namespace

Fp6 Fp6::frobenius(unsigned k) const {
  Fp6 r = *this;
  for (unsigned i = 0; i < k % 6; ++i)
    r = frobenius1(r);
  return r;
}

Fp12 Fp12::frobenius(unsigned k) const {
  k %= 12;
  if (k == 6) return conjugate();
  Fp12 r = *this;
  for (unsigned i = 0; i < k; ++i)
    r = {frobenius1(r.c0), frobenius1(r.c1).mul_by_fp2(kFrobW)};
  return r;
}

// Fp12 as Fp4[w] / (w^3 - s) with s = w^3: f = A + B w + C w^2 where
// A = c0.c0 + c1.c1 s, B = c1.c0 + c0.c2 s, C = c0.c1 + c1.c2 s. For f in the cyclotomic
// subgroup (Granger and Scott, PKC 2010):
//   A' = 3 A^2 - 2 conj(A),  B' = 3 s C^2 + 2 conj(B),  C' = 3 B^2 - 2 conj(C).
Fp12 Fp12::cyclotomic_sqr() const {
  Fp2 a0, a1, b0, b1, d0, d1;
  fp4_sqr(a0, a1, c0.c0, c1.c1);
  fp4_sqr(b0, b1, c1.c0, c0.c2);
  fp4_sqr(d0, d1, c0.c1, c1.c2);
  const auto three_minus_two = [](const Fp2& sq, const Fp2& old) {  // 3 sq - 2 old
    const Fp2 t = sq - old;
    return t.dbl() + sq;
  };
  const auto three_plus_two = [](const Fp2& sq, const Fp2& old) {  // 3 sq + 2 old
    const Fp2 t = sq + old;
    return t.dbl() + sq;
  };
  Fp12 r;
  r.c0.c0 = three_minus_two(a0, c0.c0);
  r.c1.c1 = three_plus_two(a1, c1.c1);
  r.c0.c1 = three_minus_two(b0, c0.c1);  // C' from B^2
  r.c1.c2 = three_plus_two(b1, c1.c2);
  r.c1.c0 = three_plus_two(d1.mul_by_nonresidue(), c1.c0);  // B' = 3 s C^2 + 2 conj(B)
  r.c0.c2 = three_minus_two(d0, c0.c2);
  return r;
}

// The B' and C' halves of the Granger-Scott squaring above: in compressed coordinates
// h2 = 2 g2 + 3 xi (2 g4 g5), h3 = 3 (g4^2 + xi g5^2) - 2 g3, h4 = 3 (g2^2 + xi g3^2) - 2 g4,
// h5 = 2 g5 + 3 (2 g2 g3).
Fp12::Compressed Fp12::compressed_sqr(const Compressed& g) {
  Fp2 b0, b1, d0, d1;
  fp4_sqr(b0, b1, g.g2, g.g3);
  fp4_sqr(d0, d1, g.g4, g.g5);
  const Fp2 t2 = d1.mul_by_nonresidue() + g.g2;
  const Fp2 t3 = d0 - g.g3;
  const Fp2 t4 = b0 - g.g4;
  const Fp2 t5 = b1 + g.g5;
  return {t2.dbl() + d1.mul_by_nonresidue(), t3.dbl() + d0, t4.dbl() + b0, t5.dbl() + b1};
}

// g1 = (xi g5^2 + 3 g4^2 - 2 g3) / (4 g2), g0 = xi (2 g1^2 + g2 g5 - 3 g3 g4) + 1, with the
// denominators inverted together (Montgomery's trick: one Fp2 inversion for all).
bool Fp12::decompress(std::span<const Compressed> in, std::span<Fp12> out) {
  const size_t n = in.size();
  std::vector<Fp2> num(n), den(n), prefix(n);
  Fp2 acc = Fp2::one();
  for (size_t i = 0; i < n; ++i) {
    const Compressed& g = in[i];
    if (g.g2.is_zero()) return false;
    const Fp2 g4s = g.g4.sqr();
    num[i] = g.g5.sqr().mul_by_nonresidue() + g4s.dbl() + g4s - g.g3.dbl();
    den[i] = g.g2.dbl().dbl();
    prefix[i] = acc;
    acc *= den[i];
  }
  Fp2 inv = acc.inv();
  for (size_t i = n; i-- > 0;) {
    const Fp2 di = inv * prefix[i];  // 1 / den[i]
    inv *= den[i];
    const Compressed& g = in[i];
    const Fp2 g1 = num[i] * di;
    const Fp2 t = g.g3 * g.g4;
    const Fp2 g0 = (g1.sqr().dbl() + g.g2 * g.g5 - t.dbl() - t).mul_by_nonresidue() + Fp2::one();
    out[i] = Fp12{{g0, g.g4, g.g3}, {g.g2, g1, g.g5}};
  }
  return true;
}

}  // namespace cuzk
