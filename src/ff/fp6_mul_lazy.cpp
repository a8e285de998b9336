// The Fp6 product with one Montgomery reduction per Fp coefficient: the six Fp2 products of the
// Karatsuba formula stay double-width (12 limbs), are combined exactly as integers and each of
// the six results is reduced once (6 reductions instead of the 12 of six reduced Fp2 products).
//
// Bounds. Every input component is < p (elements are fully reduced). The sums a_i + a_j are left
// unreduced (< 2p) and so are the Fp2 Karatsuba sums inside (< 4p < 2^384, within the wide
// product's operand range). No step reduces modulo p, so the Karatsuba identities hold over the
// integers and each result equals its schoolbook value, e.g. c0 = a0 b0 + xi (a1 b2 + a2 b1) in
// Z[u]/(u^2 + 1). Those values are bilinear in the components, so their extremes lie at corners
// of [0, p)^6 x [0, p)^6; with q = p^2 they are
//   c0 in (-5q, 3q) x (-2q, 6q),  c1 in (-4q, 3q) x (-q, 6q),  c2 in (-3q, 3q) x [0, 6q)
// (first and second Fp component). The sums are computed modulo 2^768 (two's complement) and
// shifted by a multiple of p: K0 = 5p 2^381 ~ 6.15 q on the first components, K1 = p 2^382 ~ 2.46 q
// on the second, which puts every one into (0, 9.2 q), below p R ~ 9.85 q, the range of
// from_redc. Fp6Lazy.* in tests/ff checks these ranges on all 4096 corner pairs.
#include "ff/fp6.hpp"
#include "ff/fp_wide_sum.hpp"

namespace cuzk {
namespace {

using fp_wide::combine;
using fp_wide::kN;
using fp_wide::kW;
using fp_wide::shifted_multiple_of_p;

constexpr auto kK0 = shifted_multiple_of_p(5, 381);
constexpr auto kK1 = shifted_multiple_of_p(1, 382);

// An Fp2 value with unreduced components (< 2p).
struct Fp2Sum {
  uint64_t c0[kN], c1[kN];
};
// Exact 768-bit integers (two's complement for the first component).
struct Fp2Wide {
  uint64_t c0[kW], c1[kW];
};

void add_n(uint64_t r[kN], const uint64_t a[kN], const uint64_t b[kN]) {
  unsigned char c = 0;
  for (size_t i = 0; i < kN; ++i)
    c = addc_u64(c, a[i], b[i], r[i]);
}
Fp2Sum sum(const Fp2& a, const Fp2& b) {
  Fp2Sum s;
  add_n(s.c0, a.c0.mont().w, b.c0.mont().w);
  add_n(s.c1, a.c1.mont().w, b.c1.mont().w);
  return s;
}

// (x0 y0 - x1 y1, x0 y1 + x1 y0) for components < 2p: three wide products.
void mul_wide(Fp2Wide& r, const uint64_t* x0, const uint64_t* x1, const uint64_t* y0,
              const uint64_t* y1) {
  uint64_t sx[kN], sy[kN], m1[kW];
  add_n(sx, x0, x1);
  add_n(sy, y0, y1);
  Fp::mul_wide(r.c0, x0, y0);
  Fp::mul_wide(m1, x1, y1);
  Fp::mul_wide(r.c1, sx, sy);
  unsigned char b0 = 0, b1 = 0, b2 = 0;
  for (size_t i = 0; i < kW; ++i) {
    b1 = subb_u64(b1, r.c1[i], r.c0[i], r.c1[i]);
    b2 = subb_u64(b2, r.c1[i], m1[i], r.c1[i]);
    b0 = subb_u64(b0, r.c0[i], m1[i], r.c0[i]);
  }
}
void mul_wide(Fp2Wide& r, const Fp2& x, const Fp2& y) {
  mul_wide(r, x.c0.mont().w, x.c1.mont().w, y.c0.mont().w, y.c1.mont().w);
}
void mul_wide(Fp2Wide& r, const Fp2Sum& x, const Fp2Sum& y) {
  mul_wide(r, x.c0, x.c1, y.c0, y.c1);
}

}  // namespace

void Fp6::mul_unreduced(uint64_t r[6][12], const Fp6& a, const Fp6& b) {
  Fp2Wide t0, t1, t2, s;
  mul_wide(t0, a.c0, b.c0);
  mul_wide(t1, a.c1, b.c1);
  mul_wide(t2, a.c2, b.c2);
  // c0 = xi X + t0 with X = (a1 + a2)(b1 + b2) - t1 - t2 = a1 b2 + a2 b1; xi X = (X0 - X1, X0 +
  // X1).
  mul_wide(s, sum(a.c1, a.c2), sum(b.c1, b.c2));
  combine<1, -1, -1, -1, 1, 1, 1>(r[0], kK0, s.c0, t1.c0, t2.c0, s.c1, t1.c1, t2.c1, t0.c0);
  combine<1, -1, -1, 1, -1, -1, 1>(r[1], kK1, s.c0, t1.c0, t2.c0, s.c1, t1.c1, t2.c1, t0.c1);
  // c1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi t2.
  mul_wide(s, sum(a.c0, a.c1), sum(b.c0, b.c1));
  combine<1, -1, -1, 1, -1>(r[2], kK0, s.c0, t0.c0, t1.c0, t2.c0, t2.c1);
  combine<1, -1, -1, 1, 1>(r[3], kK1, s.c1, t0.c1, t1.c1, t2.c0, t2.c1);
  // c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1.
  mul_wide(s, sum(a.c0, a.c2), sum(b.c0, b.c2));
  combine<1, -1, -1, 1>(r[4], kK0, s.c0, t0.c0, t2.c0, t1.c0);
  combine<1, -1, -1, 1>(r[5], kK1, s.c1, t0.c1, t2.c1, t1.c1);
}

// The sparse product by b0 + b1 v: the full product's formulas with b2 = 0, a face of the input
// box, so the same offsets hold. 5 Fp2 products, 6 reductions instead of 10.
void Fp6::mul_by_01_unreduced(uint64_t r[6][12], const Fp6& a, const Fp2& b0, const Fp2& b1) {
  Fp2Wide t0, t1, s;
  mul_wide(t0, a.c0, b0);
  mul_wide(t1, a.c1, b1);
  // c0 = xi X + t0 with X = (a1 + a2) b1 - t1 = a2 b1.
  const Fp2Sum a12 = sum(a.c1, a.c2);
  mul_wide(s, a12.c0, a12.c1, b1.c0.mont().w, b1.c1.mont().w);
  combine<1, -1, -1, 1, 1>(r[0], kK0, s.c0, t1.c0, s.c1, t1.c1, t0.c0);
  combine<1, -1, 1, -1, 1>(r[1], kK1, s.c0, t1.c0, s.c1, t1.c1, t0.c1);
  // c1 = (a0 + a1)(b0 + b1) - t0 - t1.
  mul_wide(s, sum(a.c0, a.c1), sum(b0, b1));
  combine<1, -1, -1>(r[2], kK0, s.c0, t0.c0, t1.c0);
  combine<1, -1, -1>(r[3], kK1, s.c1, t0.c1, t1.c1);
  // c2 = (a0 + a2) b0 - t0 + t1.
  const Fp2Sum a02 = sum(a.c0, a.c2);
  mul_wide(s, a02.c0, a02.c1, b0.c0.mont().w, b0.c1.mont().w);
  combine<1, -1, 1>(r[4], kK0, s.c0, t0.c0, t1.c0);
  combine<1, -1, 1>(r[5], kK1, s.c1, t0.c1, t1.c1);
}

Fp6 Fp6::from_unreduced(const uint64_t w[6][12]) {
  return {{Fp::from_redc(w[0]), Fp::from_redc(w[1])},
          {Fp::from_redc(w[2]), Fp::from_redc(w[3])},
          {Fp::from_redc(w[4]), Fp::from_redc(w[5])}};
}

Fp6 Fp6::mul_lazy(const Fp6& a, const Fp6& b) {
  uint64_t w[6][kW];
  mul_unreduced(w, a, b);
  return from_unreduced(w);
}

Fp6 Fp6::mul_by_01_lazy(const Fp6& a, const Fp2& b0, const Fp2& b1) {
  uint64_t w[6][kW];
  mul_by_01_unreduced(w, a, b0, b1);
  return from_unreduced(w);
}

}  // namespace cuzk
