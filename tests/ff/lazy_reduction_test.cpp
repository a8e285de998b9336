// Double-width Fp arithmetic (MontField::mul_wide / from_redc, the mulx/adx kernels and their
// portable twins) against GMP, and the lazily reduced Fp2 product and square and Fp6 product
// against the same formulas written with fully reduced Fp operations.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "ff/cpu_features.hpp"
#include "ff/fp12.hpp"
#include "ff_test_util.hpp"

namespace cuzk {
namespace {

using ff_test::from_mpz;
using ff_test::to_mpz;

const mpz_class& p() {
  static const mpz_class v = to_mpz(Fp::kModulus.w, 6);
  return v;
}
const mpz_class& r_inv() {  // 2^-384 mod p
  static const mpz_class v = [] {
    mpz_class r = mpz_class(1) << 384, out;
    mpz_invert(out.get_mpz_t(), r.get_mpz_t(), p().get_mpz_t());
    return out;
  }();
  return v;
}

// 384-bit operands for the wide product: random, all-ones, p - 1, 2p - 1 (unreduced sums).
std::vector<mpz_class> wide_operands(std::mt19937_64& rng) {
  std::vector<mpz_class> v = {0,
                              1,
                              p() - 1,
                              2 * p() - 1,
                              (mpz_class(1) << 384) - 1,
                              mpz_class(1) << 383,
                              (mpz_class(1) << 64) - 1};
  for (int i = 0; i < 200; ++i) {
    uint64_t w[6];
    for (uint64_t& x : w)
      x = rng();
    v.push_back(to_mpz(w, 6));
  }
  return v;
}

TEST(FpWide, ProductMatchesGmpForAny384BitOperands) {
  std::mt19937_64 rng(11);
  const auto ops = wide_operands(rng);
  for (const mpz_class& a : ops) {
    for (size_t k = 0; k < ops.size(); k += 7) {
      const mpz_class& b = ops[k];
      uint64_t aw[6], bw[6], got[12], got_portable[12];
      from_mpz(aw, 6, a);
      from_mpz(bw, 6, b);
      Fp::mul_wide(got, aw, bw);
      Fp::mul_wide_portable(got_portable, aw, bw);
      ASSERT_EQ(to_mpz(got, 12), a * b) << a.get_str(16) << " * " << b.get_str(16);
      ASSERT_EQ(to_mpz(got_portable, 12), a * b) << a.get_str(16) << " * " << b.get_str(16);
    }
  }
}

TEST(FpWide, ReductionMatchesGmpBelowPTimesR) {
  std::mt19937_64 rng(12);
  const mpz_class bound = p() << 384;  // from_redc takes t < p R
  std::vector<mpz_class> ts = {0,
                               1,
                               bound - 1,
                               p() * p(),
                               4 * p() * p() - 1,
                               p() << 383,
                               (mpz_class(1) << 384) - 1,
                               bound - (mpz_class(1) << 384)};
  for (int i = 0; i < 3000; ++i) {
    uint64_t w[12];
    for (uint64_t& x : w)
      x = rng();
    ts.push_back(to_mpz(w, 12) % bound);
  }
  for (const mpz_class& t : ts) {
    uint64_t tw[12];
    from_mpz(tw, 12, t);
    const mpz_class want = (t * r_inv()) % p();
    const Fp got = Fp::from_redc(tw);
    ASSERT_EQ(to_mpz(got.mont().w, 6), want) << t.get_str(16);
    const auto portable = Fp::redc_portable(tw);
    ASSERT_EQ(to_mpz(portable.w, 6), want) << t.get_str(16);
  }
}

#if CUZK_HAVE_X86_ASM
TEST(FpWide, ReductionMayWriteOverItsInput) {
  CUZK_SKIP_WITHOUT_ADX();
  std::mt19937_64 rng(13);
  for (int i = 0; i < 100; ++i) {
    const Fp a = Fp::random(rng), b = Fp::random(rng);
    uint64_t t[12];
    Fp::mul_wide(t, a.mont().w, b.mont().w);
    cuzk_mont_redc_adx_6(t, t, Fp::kModulus.w, Fp::kInv);
    ASSERT_EQ(to_mpz(t, 6), to_mpz((a * b).mont().w, 6));
  }
}
#endif

// from_product on operands below 2p (unreduced sums, as Fp2::sqr_lazy passes them): the fused
// kernel (and the portable path) against GMP, fully reduced. Edge operands: around p and 2p, and
// values whose low limbs are all ones (the longest carry runs).
TEST(FpWide, ProductOfOperandsBelowTwoPMatchesGmp) {
  std::mt19937_64 rng(17);
  const mpz_class two_p = 2 * p();
  std::vector<mpz_class> ops = {0, 1, 2, p() - 1, p(), p() + 1, two_p - 2, two_p - 1};
  for (int k = 1; k < 6; ++k) {
    const mpz_class ones = (mpz_class(1) << (64 * k)) - 1;
    ops.push_back(((two_p - 1) >> (64 * k) << (64 * k)) + ones - (mpz_class(1) << (64 * k)));
    ops.push_back((p() >> (64 * k) << (64 * k)) + ones);
  }
  for (int i = 0; i < 40; ++i) {
    uint64_t w[6];
    for (uint64_t& x : w)
      x = rng();
    ops.push_back(two_p - 1 - (to_mpz(w, 6) % (mpz_class(1) << 200)));
    ops.push_back(to_mpz(w, 6) % two_p);
  }
  const auto check = [&](const mpz_class& a, const mpz_class& b) {
    uint64_t aw[6], bw[6];
    from_mpz(aw, 6, a);
    from_mpz(bw, 6, b);
    const Fp got = Fp::from_product(aw, bw);
    ASSERT_EQ(to_mpz(got.mont().w, 6), (a * b * r_inv()) % p())
        << a.get_str(16) << " * " << b.get_str(16);
  };
  for (const mpz_class& a : ops) {
    ASSERT_LT(a, two_p);
    for (const mpz_class& b : ops)
      check(a, b);
  }
  for (int i = 0; i < 20000; ++i) {
    uint64_t w[6], v[6];
    for (size_t j = 0; j < 6; ++j) {
      w[j] = rng();
      v[j] = rng();
    }
    check(to_mpz(w, 6) % two_p, to_mpz(v, 6) % two_p);
  }
}

// The lazy Fp2 product and square against the Karatsuba formulas over reduced Fp operations.
Fp2 reduced_mul(const Fp2& a, const Fp2& b) {
  const Fp t0 = a.c0 * b.c0;
  const Fp t1 = a.c1 * b.c1;
  return {t0 - t1, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
}
Fp2 reduced_sqr(const Fp2& a) {
  return {(a.c0 + a.c1) * (a.c0 - a.c1), (a.c0 * a.c1).dbl()};
}

std::vector<Fp2> fp2_inputs(std::mt19937_64& rng) {
  const std::vector<Fp> e = {Fp::zero(),
                             Fp::one(),
                             -Fp::one(),
                             -Fp::from_u64(2),
                             Fp::from_mont(sub_u64(Fp::kModulus, 1)),
                             Fp::from_mont(Fp::kR)};
  std::vector<Fp2> v;
  for (const Fp& x : e) {
    for (const Fp& y : e)
      v.push_back({x, y});
  }
  for (int i = 0; i < 2000; ++i)
    v.push_back(Fp2::random(rng));
  return v;
}

TEST(Fp2Lazy, ProductMatchesReducedKaratsuba) {
  std::mt19937_64 rng(14);
  const auto in = fp2_inputs(rng);
  for (size_t i = 0; i < in.size(); ++i) {
    const Fp2& a = in[i];
    const Fp2& b = in[(i * 7 + 3) % in.size()];
    ASSERT_EQ(Fp2::mul_lazy(a, b), reduced_mul(a, b)) << i;
    ASSERT_EQ(Fp2::mul_lazy(a, a), reduced_mul(a, a)) << i;
  }
}

TEST(Fp2Lazy, SquareMatchesReducedFormula) {
  std::mt19937_64 rng(15);
  for (const Fp2& a : fp2_inputs(rng)) {
    const Fp2 got = Fp2::sqr_lazy(a);
    ASSERT_EQ(got, reduced_sqr(a));
    ASSERT_TRUE(cmp(got.c0.mont(), Fp::kModulus) < 0 && cmp(got.c1.mont(), Fp::kModulus) < 0);
  }
}

// The Fp6 Karatsuba product over reduced Fp2 operations (reduced_mul above, no lazy step).
Fp6 reduced_mul6(const Fp6& a, const Fp6& b) {
  const Fp2 t0 = reduced_mul(a.c0, b.c0);
  const Fp2 t1 = reduced_mul(a.c1, b.c1);
  const Fp2 t2 = reduced_mul(a.c2, b.c2);
  return {(reduced_mul(a.c1 + a.c2, b.c1 + b.c2) - t1 - t2).mul_by_nonresidue() + t0,
          reduced_mul(a.c0 + a.c1, b.c0 + b.c1) - t0 - t1 + t2.mul_by_nonresidue(),
          reduced_mul(a.c0 + a.c2, b.c0 + b.c2) - t0 - t2 + t1};
}
bool fully_reduced(const Fp6& x) {
  for (const Fp2* c : {&x.c0, &x.c1, &x.c2}) {
    if (cmp(c->c0.mont(), Fp::kModulus) >= 0 || cmp(c->c1.mont(), Fp::kModulus) >= 0) return false;
  }
  return true;
}
// Component k (0..5) of an Fp6 value: c0.c0, c0.c1, c1.c0, ...
Fp& component(Fp6& x, int k) {
  Fp2& c = k < 2 ? x.c0 : k < 4 ? x.c1 : x.c2;
  return k % 2 ? c.c1 : c.c0;
}

// The 64 corners {0, p - 1}^6 of the box of Fp6 values, as raw Montgomery limbs (which the
// unreduced sums see).
std::vector<Fp6> fp6_corners() {
  const Fp top = Fp::from_mont(sub_u64(Fp::kModulus, 1));
  std::vector<Fp6> corners(64);
  for (int m = 0; m < 64; ++m) {
    for (int k = 0; k < 6; ++k)
      component(corners[m], k) = (m >> k) & 1 ? top : Fp::zero();
  }
  return corners;
}

// Checks six unreduced coefficients against the product: each below p R (from_redc's input
// range) and congruent to the coefficient times R; widens [lo, hi] to the values seen.
void check_unreduced(const uint64_t (&w)[6][12], Fp6 want, mpz_class& lo, mpz_class& hi) {
  const mpz_class bound = p() << 384;
  for (int k = 0; k < 6; ++k) {
    const mpz_class t = to_mpz(w[k], 12);
    ASSERT_LT(t, bound) << k;
    ASSERT_EQ((t * r_inv()) % p(), to_mpz(component(want, k).mont().w, 6)) << k;
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
}

// Every unreduced coefficient of mul_lazy is bilinear in the 12 input components, so its extremes
// over [0, p)^12 lie at the corners: the 4096 corner pairs reach the bounds its offsets were
// chosen for.
TEST(Fp6Lazy, UnreducedCoefficientsStayBelowPTimesRAtEveryCorner) {
  const std::vector<Fp6> corners = fp6_corners();
  mpz_class lo = p() << 384, hi = 0;
  for (const Fp6& a : corners) {
    for (const Fp6& b : corners) {
      const Fp6 want = reduced_mul6(a, b);
      uint64_t w[6][12];
      Fp6::mul_unreduced(w, a, b);
      check_unreduced(w, want, lo, hi);
      const Fp6 got = Fp6::mul_lazy(a, b);
      ASSERT_EQ(got, want);
      ASSERT_TRUE(fully_reduced(got));
    }
  }
  // The extremes really were reached: within 2 p^2 of both ends of [0, p R).
  EXPECT_LT(lo, 2 * p() * p());
  EXPECT_GT(hi, (p() << 384) - 2 * p() * p());
}

// The sparse product by b0 + b1 v, at every corner of its (smaller) box.
TEST(Fp6Lazy, SparseProductStaysBelowPTimesRAtEveryCorner) {
  const std::vector<Fp6> corners = fp6_corners();
  mpz_class lo = p() << 384, hi = 0;
  for (const Fp6& a : corners) {
    for (int m = 0; m < 16; ++m) {  // corners with b2 = 0
      const Fp6& b = corners[m];
      const Fp6 want = reduced_mul6(a, b);
      uint64_t w[6][12];
      Fp6::mul_by_01_unreduced(w, a, b.c0, b.c1);
      check_unreduced(w, want, lo, hi);
      ASSERT_EQ(Fp6::mul_by_01_lazy(a, b.c0, b.c1), want);
    }
  }
  EXPECT_LT(lo, 2 * p() * p());
  EXPECT_GT(hi, (p() << 384) - 3 * p() * p());
}

TEST(Fp6Lazy, ProductMatchesReducedKaratsubaOnEdgeAndRandomInputs) {
  std::mt19937_64 rng(16);
  const std::vector<Fp> e = {Fp::zero(),
                             Fp::one(),
                             -Fp::one(),
                             -Fp::from_u64(2),
                             Fp::from_mont(Fp::kR),
                             Fp::from_mont(Fp::kHalfModulus)};
  std::vector<Fp6> in;
  for (int i = 0; i < 600; ++i) {  // components drawn from the edge values, then random
    Fp6 x;
    for (int k = 0; k < 6; ++k)
      component(x, k) = i < 300 ? e[rng() % e.size()] : Fp::random(rng);
    in.push_back(x);
  }
  for (size_t i = 0; i < in.size(); ++i) {
    const Fp6& a = in[i];
    const Fp6& b = in[(i * 7 + 3) % in.size()];
    ASSERT_EQ(Fp6::mul_lazy(a, b), reduced_mul6(a, b)) << i;
    ASSERT_EQ(Fp6::mul_lazy(a, a), reduced_mul6(a, a)) << i;
    ASSERT_EQ(Fp6::mul_by_01_lazy(a, b.c0, b.c1), reduced_mul6(a, {b.c0, b.c1, Fp2::zero()})) << i;
  }
}

// Fp12::fp4_sqr against (x^2 + xi y^2, (x + y)^2 - x^2 - y^2) over reduced operations: on every
// corner of raw limbs {0, p - 1}^4 (where its non-negative sums are largest), edge and random
// values.
TEST(Fp4Lazy, SquareMatchesReducedFormula) {
  const auto reference = [](const Fp2& x, const Fp2& y, Fp2& r0, Fp2& r1) {
    const Fp2 x2 = reduced_sqr(x), y2 = reduced_sqr(y);
    r0 = y2.mul_by_nonresidue() + x2;
    r1 = reduced_sqr(x + y) - x2 - y2;
  };
  const Fp top = Fp::from_mont(sub_u64(Fp::kModulus, 1));
  std::vector<Fp2> in;
  for (int m = 0; m < 4; ++m)
    in.push_back({m & 1 ? top : Fp::zero(), m & 2 ? top : Fp::zero()});
  std::mt19937_64 rng(18);
  for (const Fp2& v : fp2_inputs(rng))
    in.push_back(v);
  for (size_t i = 0; i < in.size(); ++i) {
    for (size_t j :
         {i, (i * 7 + 3) % in.size(), i < 4 ? 0 : i, i < 4 ? 1 : i, i < 4 ? 2 : i, i < 4 ? 3 : i}) {
      Fp2 got0, got1, want0, want1;
      Fp12::fp4_sqr(got0, got1, in[i], in[j]);
      reference(in[i], in[j], want0, want1);
      ASSERT_EQ(got0, want0) << i << " " << j;
      ASSERT_EQ(got1, want1) << i << " " << j;
    }
  }
}

}  // namespace
}  // namespace cuzk
