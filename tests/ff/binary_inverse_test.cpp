// The variable-time binary-GCD inversion (ff/binary_inverse.hpp) against GMP's mpz_invert and
// against the Fermat inverse, on random values and on inputs that steer the GCD into its edge
// paths: tiny and huge values, powers of two (long runs of shifts), p - 2^k, values whose
// approximations tie, and moduli that are not prime (gcd != 1 must be reported, not hidden).
#include "ff/binary_inverse.hpp"

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "ff_test_util.hpp"

namespace cuzk {
namespace {

using ff_test::from_mpz;
using ff_test::mod;
using ff_test::to_mpz;

uint64_t neg_inv64(uint64_t m0) {
  uint64_t x = 1;
  for (int i = 0; i < 7; ++i)
    x *= 2 - m0 * x;
  return ~x + 1;
}

template <class F>
class BinaryInverse : public ::testing::Test {
 protected:
  static mpz_class p() { return to_mpz(F::kModulus); }

  // Canonical values that exercise the GCD's paths, all in [1, p).
  std::vector<mpz_class> inputs() {
    const mpz_class m = p();
    std::vector<mpz_class> v;
    for (int i = 1; i <= 300; ++i) {
      v.push_back(i);
      v.push_back(m - i);
    }
    for (size_t k = 1; k < F::kBits; ++k) {
      v.push_back(mpz_class(1) << k);
      v.push_back(m - (mpz_class(1) << k));
      v.push_back((mpz_class(1) << k) - 1);
      v.push_back((mpz_class(1) << k) + 1);
    }
    v.push_back((m - 1) / 2);
    v.push_back((m + 1) / 2);
    v.push_back(m / 3);
    v.push_back(m / 3 + 1);
    // Top bits equal to p's, low bits different: the approximations of a and b agree at first.
    for (int k : {1, 31, 62, 63, 64, 65, 127, 128}) {
      v.push_back(m - (mpz_class(1) << k) + 1);
      v.push_back((m >> k) << k);
    }
    std::mt19937_64 rng(0xb1c0de + F::kLimbs);
    for (int i = 0; i < 20000; ++i) {
      typename F::Int x;
      for (size_t j = 0; j < F::kLimbs; ++j)
        x.w[j] = rng();
      // Vary the length too, so that short operands and the exact rounds get covered.
      const size_t bits = 1 + rng() % F::kBits;
      mpz_class z = mod(to_mpz(x), m) >> (F::kBits - bits);
      if (z == 0) z = 1;
      v.push_back(z);
    }
    for (auto& z : v)
      z = mod(z, m);
    return v;
  }
};

using FieldTypes = ::testing::Types<Fp, Fr>;
struct FieldNames {
  template <class F>
  static std::string GetName(int) {
    return std::is_same_v<F, Fp> ? "Fp" : "Fr";
  }
};
TYPED_TEST_SUITE(BinaryInverse, FieldTypes, FieldNames);

TYPED_TEST(BinaryInverse, RawInverseMatchesGmp) {
  using F = TypeParam;
  constexpr size_t N = F::kLimbs;
  const mpz_class m = this->p();
  for (const mpz_class& x : this->inputs()) {
    if (x == 0) continue;
    BigInt<N> got;
    ASSERT_TRUE(binary_inverse(got, from_mpz<N>(x), F::kModulus, F::kInv)) << x.get_str(16);
    mpz_class want;
    mpz_invert(want.get_mpz_t(), x.get_mpz_t(), m.get_mpz_t());
    ASSERT_EQ(to_mpz(got), want) << "x = 0x" << x.get_str(16);
  }
}

TYPED_TEST(BinaryInverse, FieldInverseMatchesFermatInverse) {
  using F = TypeParam;
  for (const mpz_class& x : this->inputs()) {
    const F a = *F::from_canonical(from_mpz<F::kLimbs>(x));
    const F got = a.inv();
    ASSERT_EQ(got, a.inv_fermat()) << "x = 0x" << x.get_str(16);
    ASSERT_TRUE(cmp(got.mont(), F::kModulus) < 0);
  }
  EXPECT_TRUE(F::zero().inv().is_zero());
  EXPECT_TRUE(F::one().inv().is_one());
  EXPECT_EQ((-F::one()).inv(), -F::one());
}

// An odd modulus sharing a factor with x: no inverse, and the function must say so.
TYPED_TEST(BinaryInverse, ReportsANonTrivialGcd) {
  using F = TypeParam;
  constexpr size_t N = F::kLimbs;
  // m = 3 * 5 * q (odd, close to the field's size), x = 3 * y or 5 * y.
  const mpz_class q = this->p() / 15;
  const mpz_class m = 15 * (q % 2 == 0 ? q + 1 : q);
  const uint64_t minv = neg_inv64(from_mpz<N>(m).w[0]);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200; ++i) {
    const mpz_class y = 1 + mod(mpz_class(static_cast<unsigned long>(rng())) << 70, q);
    const mpz_class x = mod((i % 2 ? 3 : 5) * y, m);
    BigInt<N> out;
    EXPECT_FALSE(binary_inverse(out, from_mpz<N>(x), from_mpz<N>(m), minv)) << x.get_str(16);
  }
  // And for x coprime to that m it still inverts.
  const mpz_class x = 2;
  BigInt<N> out;
  ASSERT_TRUE(binary_inverse(out, from_mpz<N>(x), from_mpz<N>(m), minv));
  EXPECT_EQ(mod(to_mpz(out) * x, m), 1);
}

}  // namespace
}  // namespace cuzk
