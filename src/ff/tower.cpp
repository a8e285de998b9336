// Frobenius constants and the cyclotomic squaring of the Fp6/Fp12 tower.
#include "ff/fp12.hpp"
#include "ff/fp_wide_sum.hpp"

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

// (x + y s)^2 = (x^2 + xi y^2) + 2xy s with 8 double-width products and 4 reductions (three
// Fp2 squarings and their glue were 6 products and 10 reduced additions; cyclotomic square 0.94
// of that, docs/perf-log.md 2026-12-01 session 4). Each sum is congruent to its coefficient
// times R and below p R ~ 9.84 q (q = p^2), with x, y components < p:
//   out0.c0 = |y0 - y1|^2 + (2p - 2 y1) y1 + (x0 + x1)(x0 - x1 + p)   < q + 2q + 4q
//   out0.c1 = (y0 + y1)^2 + (2p - 2 y1) y1 + 2 x0 x1                   < 4q + 2q + 2q
//   out1.c0 = 2 x0 y0 - 2 x1 y1 + p 2^382 (~2.46 q),  out1.c1 = 2 x0 y1 + 2 x1 y0 (Karatsuba)
// where -2 y1^2 = (2p - 2 y1) y1 - 2p y1 keeps every term non-negative.
namespace {

struct Fp4Square {
  Fp2 c0, c1;
};

// Fp12::fp4_sqr's body, returning its result built in place: out-parameters cost the callers a
// zero-filled Fp2 each (rep stos) before the kernels overwrite them.
Fp4Square fp4_square(const Fp2& x, const Fp2& y) {
  constexpr size_t N = 6;
  const uint64_t* p = Fp::kModulus.w;
  const uint64_t* x0 = x.c0.mont().w;
  const uint64_t* x1 = x.c1.mont().w;
  const uint64_t* y0 = y.c0.mont().w;
  const uint64_t* y1 = y.c1.mont().w;
  uint64_t d[N], e[N], ad[N], m[N], sx[N], dx[N], sy[N], x0d[N], x1d[N], sxd[N];
  unsigned char bd = 0, be = 0, bm = 0, cs = 0, bx = 0, cx = 0, cy = 0;
  for (size_t i = 0; i < N; ++i) {
    const auto shl1 = [i](const uint64_t* v) { return (v[i] << 1) | (i ? v[i - 1] >> 63 : 0); };
    bd = subb_u64(bd, y0[i], y1[i], d[i]);
    be = subb_u64(be, y1[i], y0[i], e[i]);
    bm = subb_u64(bm, shl1(p), shl1(y1), m[i]);  // 2p - 2 y1 in (0, 2p]
    cs = addc_u64(cs, x0[i], x1[i], sx[i]);
    bx = subb_u64(bx, x0[i], x1[i], dx[i]);
    cy = addc_u64(cy, y0[i], y1[i], sy[i]);
    x0d[i] = shl1(x0);
    x1d[i] = shl1(x1);
  }
  const uint64_t neg = 0 - static_cast<uint64_t>(bd);  // y0 < y1: take y1 - y0
  for (size_t i = 0; i < N; ++i) {
    ad[i] = (d[i] & ~neg) | (e[i] & neg);
    cx = addc_u64(cx, dx[i], p[i], dx[i]);  // x0 - x1 + p in (0, 2p)
    sxd[i] = (sx[i] << 1) | (i ? sx[i - 1] >> 63 : 0);
  }
  // Two carry chains in one loop, as before: fp_wide::combine's one chain per term measured 7-8%
  // slower here by median (bench_ff, three interleaved rounds on a noisy 2-core host, 2026-12-02).
  const auto sum3 = [](uint64_t r[2 * N], const uint64_t* a, const uint64_t* b, const uint64_t* c) {
    unsigned char c1 = 0, c2 = 0;
    for (size_t i = 0; i < 2 * N; ++i) {
      c1 = addc_u64(c1, a[i], b[i], r[i]);
      c2 = addc_u64(c2, r[i], c[i], r[i]);
    }
  };
  uint64_t a[2 * N], b[2 * N], c[2 * N], r0[2 * N], r1[2 * N];
  Fp::sqr_wide(a, ad);
  Fp::mul_wide(b, m, y1);
  Fp::mul_wide(c, sx, dx);
  sum3(r0, a, b, c);
  Fp::sqr_wide(a, sy);
  Fp::mul_wide(c, x0d, x1);
  sum3(r1, a, b, c);
  // 2xy: m0 = 2 x0 y0, m1 = 2 x1 y1, m2 = (2 x0 + 2 x1)(y0 + y1); out1 = (m0 - m1 + p 2^382,
  // m2 - m0 - m1).
  static constexpr auto kP382 = fp_wide::shifted_multiple_of_p(1, 382);
  Fp::mul_wide(a, x0d, y0);
  Fp::mul_wide(b, x1d, y1);
  Fp::mul_wide(c, sxd, sy);
  unsigned char b0 = 0, b1 = 0, b2 = 0, ck = 0;
  for (size_t i = 0; i < 2 * N; ++i) {
    b1 = subb_u64(b1, c[i], a[i], c[i]);
    b2 = subb_u64(b2, c[i], b[i], c[i]);
    b0 = subb_u64(b0, a[i], b[i], a[i]);
    ck = addc_u64(ck, a[i], kP382[i], a[i]);
  }
  return {{Fp::from_redc(r0), Fp::from_redc(r1)}, {Fp::from_redc(a), Fp::from_redc(c)}};
}

}  // namespace

void Fp12::fp4_sqr(Fp2& out0, Fp2& out1, const Fp2& x, const Fp2& y) {
  const Fp4Square s = fp4_square(x, y);
  out0 = s.c0;
  out1 = s.c1;
}

// Fp12 as Fp4[w] / (w^3 - s) with s = w^3: f = A + B w + C w^2 where
// A = c0.c0 + c1.c1 s, B = c1.c0 + c0.c2 s, C = c0.c1 + c1.c2 s. For f in the cyclotomic
// subgroup (Granger and Scott, PKC 2010):
//   A' = 3 A^2 - 2 conj(A),  B' = 3 s C^2 + 2 conj(B),  C' = 3 B^2 - 2 conj(C).
Fp12 Fp12::cyclotomic_sqr() const {
  const auto [a0, a1] = fp4_square(c0.c0, c1.c1);
  const auto [b0, b1] = fp4_square(c1.c0, c0.c2);
  const auto [d0, d1] = fp4_square(c0.c1, c1.c2);
  const auto three_minus_two = [](const Fp2& sq, const Fp2& old) {  // 3 sq - 2 old
    const Fp2 t = sq - old;
    return t.dbl() + sq;
  };
  const auto three_plus_two = [](const Fp2& sq, const Fp2& old) {  // 3 sq + 2 old
    const Fp2 t = sq + old;
    return t.dbl() + sq;
  };
  // Built in place (no zero-filled Fp12 to overwrite): C' from B^2, B' = 3 s C^2 + 2 conj(B).
  return {{three_minus_two(a0, c0.c0), three_minus_two(b0, c0.c1), three_minus_two(d0, c0.c2)},
          {three_plus_two(d1.mul_by_nonresidue(), c1.c0), three_plus_two(a1, c1.c1),
           three_plus_two(b1, c1.c2)}};
}

// The B' and C' halves of the Granger-Scott squaring above: in compressed coordinates
// h2 = 2 g2 + 3 xi (2 g4 g5), h3 = 3 (g4^2 + xi g5^2) - 2 g3, h4 = 3 (g2^2 + xi g3^2) - 2 g4,
// h5 = 2 g5 + 3 (2 g2 g3).
Fp12::Compressed Fp12::compressed_sqr(const Compressed& g) {
  const auto [b0, b1] = fp4_square(g.g2, g.g3);
  const auto [d0, d1] = fp4_square(g.g4, g.g5);
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
