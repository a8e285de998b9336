// Property tests of the extension tower Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - (u + 1)),
// Fp12 = Fp6[w]/(w^2 - v): products against schoolbook references written here from the defining
// polynomials, squarings, inverses, Frobenius maps against p-th powers, the cyclotomic squaring,
// the sparse Miller-loop products and Fp2 square roots.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ff/fp12.hpp"
#include "ff/fp2.hpp"
#include "ff/fp6.hpp"

namespace cuzk {
namespace {

// Fp2::to_string trips GCC 12's -Wrestrict false positive at -O3 (GCC bug 105329), so failure
// messages format Fp2 values here.
std::string str(const Fp2& a) {
  std::ostringstream os;
  os << "{" << a.c0.to_hex() << ", " << a.c1.to_hex() << "}";
  return os.str();
}

// ---- schoolbook references from the defining polynomials ----

// (a0 + a1 u)(b0 + b1 u) with u^2 = -1.
Fp2 ref_mul(const Fp2& a, const Fp2& b) {
  return {a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0};
}

const Fp2 kXi = {Fp::one(), Fp::one()};  // u + 1

// Product of two quadratics in v (5 coefficients), then v^3 = xi, v^4 = xi v.
Fp6 ref_mul(const Fp6& a, const Fp6& b) {
  const Fp2 x[3] = {a.c0, a.c1, a.c2};
  const Fp2 y[3] = {b.c0, b.c1, b.c2};
  Fp2 c[5] = {};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      c[i + j] = c[i + j] + ref_mul(x[i], y[j]);
  }
  return {c[0] + ref_mul(kXi, c[3]), c[1] + ref_mul(kXi, c[4]), c[2]};
}

// (a0 + a1 w)(b0 + b1 w) with w^2 = v.
Fp12 ref_mul(const Fp12& a, const Fp12& b) {
  const Fp6 v = {Fp2::zero(), Fp2::one(), Fp2::zero()};
  return {ref_mul(a.c0, b.c0) + ref_mul(v, ref_mul(a.c1, b.c1)),
          ref_mul(a.c0, b.c1) + ref_mul(a.c1, b.c0)};
}

// Left-to-right square-and-multiply with the reference product.
template <class F, size_t M>
F ref_pow(const F& a, const BigInt<M>& e) {
  F r = F::one();
  for (size_t i = e.num_bits(); i-- > 0;) {
    r = ref_mul(r, r);
    if (e.bit(i)) r = ref_mul(r, a);
  }
  return r;
}

// x -> x^p.
template <class F>
F pow_p(const F& a) {
  return ref_pow(a, Fp::kModulus);
}

// (p^2 - 1) / 2, the Euler-criterion exponent of Fp2, computed by GMP.
BigInt<12> fp2_euler_exponent() {
  mpz_class p;
  mpz_import(p.get_mpz_t(), 6, -1, sizeof(uint64_t), 0, 0, Fp::kModulus.w);
  const mpz_class e = (p * p - 1) / 2;
  BigInt<12> r;
  size_t count = 0;
  mpz_export(r.w, &count, -1, sizeof(uint64_t), 0, 0, e.get_mpz_t());
  return r;
}

// Elements with zero, one and extreme coordinates, plus random ones.
std::vector<Fp> edge_fp() {
  return {Fp::zero(),
          Fp::one(),
          -Fp::one(),
          Fp::from_u64(2),
          Fp::from_mont(Fp::kR),
          *Fp::from_canonical(Fp::kHalfModulus)};
}
std::vector<Fp2> edge_fp2() {
  std::vector<Fp2> v;
  for (const Fp& a : edge_fp()) {
    for (const Fp& b : edge_fp())
      v.push_back({a, b});
  }
  return v;
}

// ================================ Fp2 ================================

TEST(Fp2, DefiningRelationUSquaredIsMinusOne) {
  const Fp2 u = {Fp::zero(), Fp::one()};
  EXPECT_EQ(u * u, -Fp2::one());
  EXPECT_EQ(u.sqr(), -Fp2::one());
  EXPECT_EQ(kXi * kXi, (Fp2{Fp::zero(), Fp::from_u64(2)}));  // (1 + u)^2 = 2u
}

TEST(Fp2, MulMatchesSchoolbookReference) {
  std::mt19937_64 rng(2001);
  for (int i = 0; i < 2000; ++i) {
    const Fp2 a = Fp2::random(rng), b = Fp2::random(rng);
    ASSERT_EQ(a * b, ref_mul(a, b)) << str(a) << " * " << str(b);
  }
  for (const Fp2& a : edge_fp2()) {
    for (const Fp2& b : edge_fp2()) {
      ASSERT_EQ(a * b, ref_mul(a, b)) << str(a) << " * " << str(b);
    }
  }
  Fp2 a = Fp2::random(rng);
  const Fp2 want = ref_mul(a, a);
  a *= a;  // aliasing
  EXPECT_EQ(a, want);
}

TEST(Fp2, SqrEqualsMulBySelf) {
  std::mt19937_64 rng(2002);
  std::vector<Fp2> xs = edge_fp2();
  for (int i = 0; i < 1000; ++i)
    xs.push_back(Fp2::random(rng));
  for (const Fp2& a : xs)
    ASSERT_EQ(a.sqr(), ref_mul(a, a)) << str(a);
}

TEST(Fp2, InverseTimesElementIsOne) {
  std::mt19937_64 rng(2003);
  std::vector<Fp2> xs = edge_fp2();
  for (int i = 0; i < 300; ++i)
    xs.push_back(Fp2::random(rng));
  for (const Fp2& a : xs) {
    if (a.is_zero()) continue;
    ASSERT_TRUE(ref_mul(a.inv(), a).is_one()) << str(a);
  }
  EXPECT_TRUE(Fp2::zero().inv().is_zero());
}

TEST(Fp2, ConjugateNormAndNonResidueMatchDefinitions) {
  std::mt19937_64 rng(2004);
  for (int i = 0; i < 300; ++i) {
    const Fp2 a = Fp2::random(rng);
    const Fp s = Fp::random(rng);
    EXPECT_EQ(a.conjugate(), (Fp2{a.c0, -a.c1}));
    EXPECT_EQ(ref_mul(a, a.conjugate()), (Fp2{a.norm(), Fp::zero()}));
    EXPECT_EQ(a.mul_by_nonresidue(), ref_mul(a, kXi));
    EXPECT_EQ(a.mul_by_fp(s), ref_mul(a, {s, Fp::zero()}));
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ(a - a, Fp2::zero());
    EXPECT_EQ(a + (-a), Fp2::zero());
  }
}

TEST(Fp2, FrobeniusEqualsPowerOfP) {
  std::mt19937_64 rng(2005);
  for (int i = 0; i < 10; ++i) {
    const Fp2 a = Fp2::random(rng);
    Fp2 want = a;
    for (unsigned k = 0; k <= 4; ++k) {
      ASSERT_EQ(a.frobenius(k), want) << "k = " << k << ", a = " << str(a);
      want = pow_p(want);
    }
  }
}

TEST(Fp2, PowMatchesSquareAndMultiplyReference) {
  std::mt19937_64 rng(2006);
  for (int i = 0; i < 20; ++i) {
    const Fp2 a = Fp2::random(rng);
    BigInt<4> e;
    for (auto& w : e.w)
      w = rng();
    ASSERT_EQ(a.pow(e), ref_pow(a, e));
  }
  const Fp2 a = Fp2::random(rng);
  EXPECT_TRUE(a.pow(BigInt<1>{}).is_one());
  EXPECT_EQ(a.pow(BigInt<1>::from_u64(1)), a);
}

TEST(Fp2, LegendreMatchesEulerCriterion) {
  std::mt19937_64 rng(2007);
  const BigInt<12> e = fp2_euler_exponent();
  int squares = 0, non_squares = 0;
  for (int i = 0; i < 60; ++i) {
    const Fp2 a = Fp2::random(rng);
    const Fp2 euler = ref_pow(a, e);
    ASSERT_TRUE(euler.is_one() || euler == -Fp2::one());
    const int want = euler.is_one() ? 1 : -1;
    (want == 1 ? squares : non_squares)++;
    ASSERT_EQ(a.legendre(), want) << str(a);
  }
  EXPECT_GT(squares, 10);
  EXPECT_GT(non_squares, 10);
  EXPECT_EQ(Fp2::zero().legendre(), 0);
}

TEST(Fp2, SqrtOfSquareSquaresBackToTheInput) {
  std::mt19937_64 rng(2008);
  std::vector<Fp2> xs = edge_fp2();
  for (int i = 0; i < 300; ++i)
    xs.push_back(Fp2::random(rng));
  // Purely real and purely imaginary elements, square or not in Fp.
  for (int i = 0; i < 20; ++i) {
    const Fp c = Fp::random(rng);
    xs.push_back({c, Fp::zero()});
    xs.push_back({Fp::zero(), c});
  }
  for (const Fp2& a : xs) {
    const Fp2 s = a.sqr();
    const auto root = s.sqrt();
    ASSERT_TRUE(root.has_value()) << str(a);
    ASSERT_EQ(root->sqr(), s) << str(a);
    ASSERT_TRUE(*root == a || *root == -a) << str(a) << " vs " << str(*root);
  }
  // Every element of Fp is a square in Fp2, including the non-residues of Fp.
  for (int i = 0; i < 40; ++i) {
    const Fp2 s = {Fp::random(rng), Fp::zero()};
    const auto root = s.sqrt();
    ASSERT_TRUE(root.has_value()) << str(s);
    ASSERT_EQ(root->sqr(), s) << str(s);
  }
  const auto i_root = (-Fp2::one()).sqrt();
  ASSERT_TRUE(i_root.has_value());
  EXPECT_EQ(i_root->sqr(), -Fp2::one());
}

TEST(Fp2, SqrtOfNonSquareIsNullopt) {
  std::mt19937_64 rng(2009);
  const BigInt<12> e = fp2_euler_exponent();
  int found = 0;
  for (int i = 0; i < 200 && found < 30; ++i) {
    const Fp2 a = Fp2::random(rng);
    if (ref_pow(a, e) != -Fp2::one()) continue;
    ++found;
    ASSERT_FALSE(a.sqrt().has_value()) << str(a);
  }
  EXPECT_EQ(found, 30);
}

TEST(Fp2, ExactlyOneOfYAndMinusYIsLexicographicallyLargest) {
  std::mt19937_64 rng(2010);
  for (int i = 0; i < 500; ++i) {
    Fp2 y = Fp2::random(rng);
    if (i % 4 == 0) y.c1 = Fp::zero();  // decided by c0
    if (y.is_zero()) continue;
    ASSERT_NE(y.is_lexicographically_largest(), (-y).is_lexicographically_largest()) << str(y);
    if (!y.c1.is_zero()) {
      ASSERT_EQ(y.is_lexicographically_largest(), y.c1.is_lexicographically_largest());
    } else {
      ASSERT_EQ(y.is_lexicographically_largest(), y.c0.is_lexicographically_largest());
    }
  }
  EXPECT_FALSE(Fp2::zero().is_lexicographically_largest());
}

// ================================ Fp6 ================================

std::vector<Fp6> sample_fp6(std::mt19937_64& rng, int n) {
  std::vector<Fp6> v = {Fp6::zero(), Fp6::one(), -Fp6::one()};
  for (int i = 0; i < n; ++i) {
    Fp6 a = Fp6::random(rng);
    if (i % 5 == 1) a.c1 = Fp2::zero();
    if (i % 5 == 2) a.c2 = Fp2::zero();
    if (i % 5 == 3) a.c0 = -Fp2::one();
    v.push_back(a);
  }
  return v;
}

TEST(Fp6, DefiningRelationVCubedIsXi) {
  const Fp6 v = {Fp2::zero(), Fp2::one(), Fp2::zero()};
  EXPECT_EQ(v * v, (Fp6{Fp2::zero(), Fp2::zero(), Fp2::one()}));
  EXPECT_EQ(v * v * v, (Fp6{kXi, Fp2::zero(), Fp2::zero()}));
}

TEST(Fp6, MulMatchesSchoolbookReference) {
  std::mt19937_64 rng(6001);
  const auto xs = sample_fp6(rng, 40);
  for (const Fp6& a : xs) {
    for (const Fp6& b : xs)
      ASSERT_EQ(a * b, ref_mul(a, b));
  }
}

TEST(Fp6, SqrEqualsMulBySelf) {
  std::mt19937_64 rng(6002);
  for (const Fp6& a : sample_fp6(rng, 300))
    ASSERT_EQ(a.sqr(), ref_mul(a, a));
}

TEST(Fp6, InverseTimesElementIsOne) {
  std::mt19937_64 rng(6003);
  for (const Fp6& a : sample_fp6(rng, 200)) {
    if (a.is_zero()) continue;
    ASSERT_TRUE(ref_mul(a.inv(), a).is_one());
  }
  EXPECT_TRUE(Fp6::zero().inv().is_zero());
}

TEST(Fp6, SparseAndScalarProductsMatchDenseMultiplication) {
  std::mt19937_64 rng(6004);
  const Fp6 v = {Fp2::zero(), Fp2::one(), Fp2::zero()};
  for (const Fp6& a : sample_fp6(rng, 200)) {
    const Fp2 b0 = Fp2::random(rng), b1 = Fp2::random(rng);
    ASSERT_EQ(a.mul_by_01(b0, b1), ref_mul(a, {b0, b1, Fp2::zero()}));
    ASSERT_EQ(a.mul_by_1(b1), ref_mul(a, {Fp2::zero(), b1, Fp2::zero()}));
    ASSERT_EQ(a.mul_by_fp2(b0), ref_mul(a, {b0, Fp2::zero(), Fp2::zero()}));
    ASSERT_EQ(a.mul_by_nonresidue(), ref_mul(a, v));
    ASSERT_EQ(a.dbl(), a + a);
    ASSERT_TRUE((a - a).is_zero());
    ASSERT_TRUE((a + (-a)).is_zero());
  }
}

TEST(Fp6, FrobeniusEqualsPowerOfP) {
  std::mt19937_64 rng(6005);
  for (int i = 0; i < 3; ++i) {
    const Fp6 a = Fp6::random(rng);
    Fp6 want = a;
    for (unsigned k = 0; k <= 7; ++k) {
      ASSERT_EQ(a.frobenius(k), want) << "k = " << k;
      want = pow_p(want);
    }
  }
}

// ================================ Fp12 ================================

std::vector<Fp12> sample_fp12(std::mt19937_64& rng, int n) {
  std::vector<Fp12> v = {Fp12::zero(), Fp12::one(), -Fp12::one()};
  for (int i = 0; i < n; ++i) {
    Fp12 a = Fp12::random(rng);
    if (i % 4 == 1) a.c1 = Fp6::zero();
    if (i % 4 == 2) a.c0 = Fp6::zero();
    v.push_back(a);
  }
  return v;
}

// f^((p^6 - 1)(p^2 + 1)): the easy part of the final exponentiation, lands in the cyclotomic
// subgroup.
Fp12 to_cyclotomic(const Fp12& f) {
  Fp12 g = ref_mul(f.conjugate(), f.inv());
  return ref_mul(g.frobenius(2), g);
}

TEST(Fp12, DefiningRelationWSquaredIsV) {
  const Fp12 w = {Fp6::zero(), Fp6::one()};
  const Fp6 v = {Fp2::zero(), Fp2::one(), Fp2::zero()};
  EXPECT_EQ(w * w, (Fp12{v, Fp6::zero()}));
  // w^6 = v^3 = xi.
  const Fp12 w2 = w * w;
  EXPECT_EQ(w2 * w2 * w2, (Fp12{{kXi, Fp2::zero(), Fp2::zero()}, Fp6::zero()}));
}

TEST(Fp12, MulMatchesSchoolbookReference) {
  std::mt19937_64 rng(12001);
  const auto xs = sample_fp12(rng, 20);
  for (const Fp12& a : xs) {
    for (const Fp12& b : xs)
      ASSERT_EQ(a * b, ref_mul(a, b));
  }
  Fp12 a = Fp12::random(rng);
  const Fp12 want = ref_mul(a, a);
  a *= a;  // aliasing
  EXPECT_EQ(a, want);
}

TEST(Fp12, SqrEqualsMulBySelf) {
  std::mt19937_64 rng(12002);
  for (const Fp12& a : sample_fp12(rng, 200))
    ASSERT_EQ(a.sqr(), ref_mul(a, a));
}

TEST(Fp12, InverseTimesElementIsOne) {
  std::mt19937_64 rng(12003);
  for (const Fp12& a : sample_fp12(rng, 100)) {
    if (a.is_zero()) continue;
    ASSERT_TRUE(ref_mul(a.inv(), a).is_one());
  }
  EXPECT_TRUE(Fp12::zero().inv().is_zero());
}

TEST(Fp12, FrobeniusEqualsPowerOfP) {
  std::mt19937_64 rng(12004);
  for (int i = 0; i < 2; ++i) {
    const Fp12 a = Fp12::random(rng);
    Fp12 want = a;
    for (unsigned k = 0; k <= 12; ++k) {
      ASSERT_EQ(a.frobenius(k), want) << "k = " << k;
      want = pow_p(want);
    }
  }
}

TEST(Fp12, ConjugateIsFrobeniusSix) {
  std::mt19937_64 rng(12005);
  for (int i = 0; i < 2; ++i) {
    const Fp12 a = Fp12::random(rng);
    Fp12 want = a;
    for (int k = 0; k < 6; ++k)
      want = pow_p(want);
    ASSERT_EQ(a.conjugate(), want);
  }
}

TEST(Fp12, PowMatchesSquareAndMultiplyReference) {
  std::mt19937_64 rng(12006);
  for (int i = 0; i < 5; ++i) {
    const Fp12 a = Fp12::random(rng);
    BigInt<4> e;
    for (auto& w : e.w)
      w = rng();
    ASSERT_EQ(a.pow(e), ref_pow(a, e));
  }
}

TEST(Fp12, CyclotomicSqrEqualsSqrInCyclotomicSubgroup) {
  std::mt19937_64 rng(12007);
  for (int i = 0; i < 50; ++i) {
    const Fp12 g = to_cyclotomic(Fp12::random(rng));
    // Precondition: unitary, g^(p^6 + 1) = g conj(g) = 1.
    ASSERT_TRUE(ref_mul(g, g.conjugate()).is_one());
    Fp12 x = g;
    for (int j = 0; j < 4; ++j) {  // stays in the subgroup under squaring
      ASSERT_EQ(x.cyclotomic_sqr(), ref_mul(x, x)) << "i = " << i << ", j = " << j;
      x = x.cyclotomic_sqr();
    }
  }
  EXPECT_TRUE(Fp12::one().cyclotomic_sqr().is_one());
}

TEST(Fp12, CompressedSqrMatchesSqrAndDecompressesInTheCyclotomicSubgroup) {
  std::mt19937_64 rng(12009);
  for (int i = 0; i < 30; ++i) {
    const Fp12 g = to_cyclotomic(Fp12::random(rng));
    Fp12 x = g;
    Fp12::Compressed c = g.compress();
    std::vector<Fp12::Compressed> cs;
    std::vector<Fp12> want;
    for (int j = 0; j < 6; ++j) {  // a chain of squarings, compared at every step
      x = ref_mul(x, x);
      c = Fp12::compressed_sqr(c);
      const Fp12::Compressed w = x.compress();
      ASSERT_TRUE(c.g2 == w.g2 && c.g3 == w.g3 && c.g4 == w.g4 && c.g5 == w.g5)
          << "i = " << i << ", j = " << j;
      cs.push_back(c);
      want.push_back(x);
    }
    std::vector<Fp12> got(cs.size());
    ASSERT_TRUE(Fp12::decompress(cs, got));
    for (size_t j = 0; j < got.size(); ++j)
      ASSERT_EQ(got[j], want[j]) << "i = " << i << ", j = " << j;
  }
}

TEST(Fp12, DecompressReportsAZeroG2) {
  // One compresses to all zeros; the formula divides by 4 g2, so it must refuse.
  std::mt19937_64 rng(12010);
  const Fp12::Compressed cs[2] = {to_cyclotomic(Fp12::random(rng)).compress(),
                                  Fp12::one().compress()};
  Fp12 out[2];
  EXPECT_FALSE(Fp12::decompress(cs, out));
  std::vector<Fp12> none;
  EXPECT_TRUE(Fp12::decompress({}, none));
}

TEST(Fp12, MulBy014EqualsMultiplicationByTheDenseElement) {
  std::mt19937_64 rng(12008);
  for (const Fp12& f : sample_fp12(rng, 200)) {
    const Fp2 l0 = Fp2::random(rng), l1 = Fp2::random(rng), l4 = Fp2::random(rng);
    // Slots 0, 1, 4 of (c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2).
    const Fp12 dense = {{l0, l1, Fp2::zero()}, {Fp2::zero(), l4, Fp2::zero()}};
    ASSERT_EQ(f.mul_by_014(l0, l1, l4), ref_mul(f, dense));
  }
}

}  // namespace
}  // namespace cuzk
