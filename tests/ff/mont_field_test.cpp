// Property tests of the prime fields Fp and Fr (MontField) against GMP as the reference:
// arithmetic on random and edge values, canonical outputs, aliasing, the mulx/adx kernel against
// the portable one, square roots, batch inversion, byte encodings, sampling and ring axioms.
#include "ff/mont_field.hpp"

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "ff/cpu_features.hpp"
#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "ff_test_util.hpp"
#include "field_reference.hpp"

namespace cuzk {
namespace {

constexpr int kRandomPairs = 3000;

// ---- GMP bridge (ff_test_util.hpp) and reference values (field_reference.hpp) ----

using ff_test::from_mpz;
using ff_test::gmp_export_be;
using ff_test::hex;
using ff_test::Matches;
using ff_test::mod;
using ff_test::Ref;
using ff_test::reversed;
using ff_test::to_mpz;

template <class F>
class PrimeField : public ::testing::Test {
 protected:
  using R = Ref<F>;
  using Int = typename F::Int;

  // Calls fn(a, b) for kRandomPairs random pairs, then for the edge table crossed with itself.
  template <class Fn>
  void for_pairs(Fn fn) {
    for (int i = 0; i < kRandomPairs; ++i)
      fn(R::random(rng_), R::random(rng_));
    for (const mpz_class& a : R::edges()) {
      for (const mpz_class& b : R::edges())
        fn(a, b);
    }
  }
  // Calls fn(a) for kRandomPairs random values, then for each edge value.
  template <class Fn>
  void for_values(Fn fn) {
    for (int i = 0; i < kRandomPairs; ++i)
      fn(R::random(rng_));
    for (const mpz_class& a : R::edges())
      fn(a);
  }

  std::mt19937_64 rng_{0x5eed0f1e1dULL + F::kLimbs};
};

struct FieldNames {
  template <class F>
  static std::string GetName(int) {
    return std::is_same_v<F, Fp> ? "Fp" : "Fr";
  }
};
using FieldTypes = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(PrimeField, FieldTypes, FieldNames);

// ---- constants ----

TYPED_TEST(PrimeField, DerivedConstantsMatchGmp) {
  using F = TypeParam;
  using R = Ref<F>;
  const mpz_class& p = R::p();
  EXPECT_EQ(to_mpz(F::kR), R::r_mont());
  EXPECT_EQ(to_mpz(F::kR2), mod(R::r_mont() * R::r_mont(), p));
  EXPECT_EQ(to_mpz(F::kModulusMinus2), p - 2);
  EXPECT_EQ(to_mpz(F::kHalfModulus), (p - 1) / 2);
  EXPECT_EQ(F::kBits, mpz_sizeinbase(p.get_mpz_t(), 2));
  EXPECT_EQ(F::kBytes, (F::kBits + 7) / 8);
  // kInv = -p^-1 mod 2^64.
  EXPECT_EQ(static_cast<uint64_t>(F::kInv * F::kModulus.w[0]), ~uint64_t{0});
  // p - 1 = 2^s * t with t odd.
  const mpz_class t = to_mpz(F::kOddPart);
  EXPECT_TRUE(mpz_odd_p(t.get_mpz_t()));
  EXPECT_EQ(t << F::kTwoAdicity, p - 1);
  EXPECT_TRUE(F::one().is_one());
  EXPECT_TRUE(Matches(F::one(), 1));
  EXPECT_TRUE(Matches(F::zero(), 0));
  EXPECT_TRUE(F::zero().is_zero());
  EXPECT_FALSE(F::one().is_zero());
}

TYPED_TEST(PrimeField, FromCanonicalRoundTripsAndRejectsValuesFromP) {
  using F = TypeParam;
  using R = Ref<F>;
  this->for_values([&](const mpz_class& a) {
    const auto f = F::from_canonical(from_mpz<F::kLimbs>(a));
    ASSERT_TRUE(f.has_value()) << hex(a);
    ASSERT_TRUE(Matches(*f, a)) << "a = " << hex(a);
  });
  const mpz_class& p = R::p();
  for (const mpz_class& bad : {mpz_class(p), mpz_class(p + 1), mpz_class(2 * p - 1),
                               mpz_class((mpz_class(1) << (64 * F::kLimbs)) - 1)}) {
    EXPECT_FALSE(F::from_canonical(from_mpz<F::kLimbs>(bad)).has_value()) << hex(bad);
  }
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{12345}, ~uint64_t{0}}) {
    EXPECT_TRUE(Matches(F::from_u64(v), mpz_class(v)));
  }
  const mpz_class pm1 = p - 1;
  EXPECT_TRUE(Matches(F::from_hex(hex(pm1)), pm1));
  EXPECT_THROW(F::from_hex(hex(p)), std::invalid_argument);
}

// ---- arithmetic against GMP ----

TYPED_TEST(PrimeField, AddMatchesGmpReference) {
  using F = TypeParam;
  using R = Ref<F>;
  this->for_pairs([&](const mpz_class& a, const mpz_class& b) {
    const F fa = R::make(a), fb = R::make(b);
    ASSERT_TRUE(Matches(fa + fb, mod(a + b, R::p()))) << "a = " << hex(a) << ", b = " << hex(b);
    ASSERT_TRUE(Matches(fa.dbl(), mod(2 * a, R::p()))) << "a = " << hex(a);
  });
}

TYPED_TEST(PrimeField, SubMatchesGmpReference) {
  using F = TypeParam;
  using R = Ref<F>;
  this->for_pairs([&](const mpz_class& a, const mpz_class& b) {
    const F fa = R::make(a), fb = R::make(b);
    ASSERT_TRUE(Matches(fa - fb, mod(a - b, R::p()))) << "a = " << hex(a) << ", b = " << hex(b);
  });
}

TYPED_TEST(PrimeField, MulMatchesGmpReference) {
  using F = TypeParam;
  using R = Ref<F>;
  this->for_pairs([&](const mpz_class& a, const mpz_class& b) {
    const F fa = R::make(a), fb = R::make(b);
    ASSERT_TRUE(Matches(fa * fb, mod(a * b, R::p()))) << "a = " << hex(a) << ", b = " << hex(b);
  });
}

TYPED_TEST(PrimeField, SqrMatchesGmpReference) {
  using F = TypeParam;
  using R = Ref<F>;
  this->for_values([&](const mpz_class& a) {
    ASSERT_TRUE(Matches(R::make(a).sqr(), mod(a * a, R::p()))) << "a = " << hex(a);
  });
}

TYPED_TEST(PrimeField, NegMatchesGmpReference) {
  using F = TypeParam;
  using R = Ref<F>;
  this->for_values([&](const mpz_class& a) {
    ASSERT_TRUE(Matches(-R::make(a), mod(-a, R::p()))) << "a = " << hex(a);
  });
  EXPECT_TRUE((-F::zero()).is_zero());
}

TYPED_TEST(PrimeField, InvMatchesGmpReferenceAndZeroMapsToZero) {
  using F = TypeParam;
  using R = Ref<F>;
  this->for_values([&](const mpz_class& a) {
    ASSERT_TRUE(Matches(R::make(a).inv(), R::inv(a))) << "a = " << hex(a);
  });
  EXPECT_TRUE(F::zero().inv().is_zero());
}

TYPED_TEST(PrimeField, PowMatchesGmpReference) {
  using F = TypeParam;
  using R = Ref<F>;
  auto& rng = this->rng_;
  auto check = [&](const mpz_class& a, const auto& e) {
    ASSERT_TRUE(Matches(R::make(a).pow(e), R::powm(a, to_mpz(e))))
        << "a = " << hex(a) << ", e = " << hex(to_mpz(e));
  };
  for (int i = 0; i < 100; ++i) {
    const mpz_class a = R::random(rng);
    check(a, BigInt<1>::from_u64(rng()));
    check(a, BigInt<1>::from_u64(rng() % 64));
    BigInt<F::kLimbs> e;
    for (auto& w : e.w)
      w = rng();
    check(a, e);
    BigInt<8> wide;
    for (auto& w : wide.w)
      w = rng();
    check(a, wide);
  }
  const mpz_class& p = R::p();
  std::vector<mpz_class> exps = {0, 1, 2, 3, 15, 16, 17, p - 2, p - 1, p, p + 1, (p - 1) / 2};
  exps.push_back((mpz_class(1) << (64 * F::kLimbs)) - 1);
  for (const mpz_class& a : R::edges()) {
    for (const mpz_class& e : exps)
      check(a, from_mpz<F::kLimbs>(e));
  }
  // The uint64_t overload.
  EXPECT_TRUE(Matches(F::from_u64(3).pow(uint64_t{1000}), R::powm(3, 1000)));
  // Fermat: a^(p-1) = 1 for a != 0.
  for (int i = 0; i < 20; ++i) {
    const F a = R::make(R::random(rng));
    if (!a.is_zero()) {
      EXPECT_TRUE(a.pow(from_mpz<F::kLimbs>(p - 1)).is_one());
    }
  }
}

// ---- canonical outputs and aliasing ----

TYPED_TEST(PrimeField, OperandAliasingGivesTheSameResults) {
  using F = TypeParam;
  using R = Ref<F>;
  const mpz_class& p = R::p();
  this->for_values([&](const mpz_class& a) {
    F x = R::make(a);
    x = x * x;
    ASSERT_TRUE(Matches(x, mod(a * a, p))) << "x = x * x, a = " << hex(a);
    x = R::make(a);
    x *= x;
    ASSERT_TRUE(Matches(x, mod(a * a, p))) << "x *= x, a = " << hex(a);
    x = R::make(a);
    x += x;
    ASSERT_TRUE(Matches(x, mod(2 * a, p))) << "x += x, a = " << hex(a);
    x = R::make(a);
    x -= x;
    ASSERT_TRUE(Matches(x, 0)) << "x -= x, a = " << hex(a);
    x = R::make(a);
    x = x.sqr();
    ASSERT_TRUE(Matches(x, mod(a * a, p))) << "x = x.sqr(), a = " << hex(a);
    x = R::make(a);
    x = -x;
    ASSERT_TRUE(Matches(x, mod(-a, p))) << "x = -x, a = " << hex(a);
  });
}

// ---- the two Montgomery kernels ----

TYPED_TEST(PrimeField, PortableKernelComputesMontgomeryProduct) {
  using F = TypeParam;
  using R = Ref<F>;
  this->for_pairs([&](const mpz_class& a, const mpz_class& b) {
    const auto got = F::mul_portable(from_mpz<F::kLimbs>(a), from_mpz<F::kLimbs>(b));
    ASSERT_EQ(to_mpz(got), mod(a * b * R::r_inv(), R::p()))
        << "a = " << hex(a) << ", b = " << hex(b);
  });
}

TYPED_TEST(PrimeField, AdxKernelMatchesPortableKernel) {
  using F = TypeParam;
  using R = Ref<F>;
  CUZK_SKIP_WITHOUT_ADX();
#if CUZK_HAVE_X86_ASM
  this->for_pairs([&](const mpz_class& a, const mpz_class& b) {
    const auto ia = from_mpz<F::kLimbs>(a), ib = from_mpz<F::kLimbs>(b);
    const auto got = F::mul_adx(ia, ib);
    ASSERT_EQ(got, F::mul_portable(ia, ib)) << "a = " << hex(a) << ", b = " << hex(b);
    ASSERT_EQ(to_mpz(got), mod(a * b * R::r_inv(), R::p()))
        << "a = " << hex(a) << ", b = " << hex(b);
  });
#else
  GTEST_SKIP() << "no x86-64 assembly kernels in this build";
#endif
}

TYPED_TEST(PrimeField, AdxKernelAllowsOutputToAliasInputs) {
  using F = TypeParam;
  using R = Ref<F>;
  CUZK_SKIP_WITHOUT_ADX();
#if CUZK_HAVE_X86_ASM
  const auto kernel = [](uint64_t* r, const uint64_t* a, const uint64_t* b) {
    if constexpr (F::kLimbs == 4) {
      cuzk_mont_mul_adx_4(r, a, b, F::kModulus.w, F::kInv);
    } else {
      cuzk_mont_mul_adx_6(r, a, b, F::kModulus.w, F::kInv);
    }
  };
  for (int i = 0; i < 200; ++i) {
    const mpz_class a = R::random(this->rng_), b = R::random(this->rng_);
    const mpz_class ab = mod(a * b * R::r_inv(), R::p());
    auto x = from_mpz<F::kLimbs>(a);
    const auto y = from_mpz<F::kLimbs>(b);
    kernel(x.w, x.w, y.w);  // r aliases a
    ASSERT_EQ(to_mpz(x), ab) << "r == a, a = " << hex(a) << ", b = " << hex(b);
    x = from_mpz<F::kLimbs>(a);
    auto z = y;
    kernel(z.w, x.w, z.w);  // r aliases b
    ASSERT_EQ(to_mpz(z), ab) << "r == b, a = " << hex(a) << ", b = " << hex(b);
    kernel(x.w, x.w, x.w);  // r == a == b
    ASSERT_EQ(to_mpz(x), mod(a * a * R::r_inv(), R::p())) << "r == a == b, a = " << hex(a);
  }
#else
  GTEST_SKIP() << "no x86-64 assembly kernels in this build";
#endif
}

// ---- square roots and the Legendre symbol ----

TYPED_TEST(PrimeField, SqrtOfRandomSquareSquaresBackToTheInput) {
  using F = TypeParam;
  using R = Ref<F>;
  const mpz_class& p = R::p();
  for (int i = 0; i < 300; ++i) {
    const mpz_class a = R::random(this->rng_);
    const F s = R::make(a).sqr();
    const auto root = s.sqrt();
    ASSERT_TRUE(root.has_value()) << "a = " << hex(a);
    ASSERT_EQ(root->sqr(), s) << "a = " << hex(a);
    const mpz_class v = R::value(*root);
    ASSERT_TRUE(v == a || v == mod(-a, p)) << "a = " << hex(a) << ", root = " << hex(v);
  }
  for (const mpz_class& a : R::edges()) {
    const F s = R::make(mod(a * a, p));
    const auto root = s.sqrt();
    ASSERT_TRUE(root.has_value()) << "a = " << hex(a);
    ASSERT_EQ(root->sqr(), s) << "a = " << hex(a);
  }
  EXPECT_TRUE(F::zero().sqrt().has_value() && F::zero().sqrt()->is_zero());
}

TYPED_TEST(PrimeField, SqrtOfNonSquareIsNullopt) {
  using F = TypeParam;
  using R = Ref<F>;
  int found = 0;
  for (int i = 0; found < 200 && i < 10000; ++i) {
    const mpz_class a = R::random(this->rng_);
    if (mpz_legendre(a.get_mpz_t(), R::p().get_mpz_t()) != -1) continue;
    ++found;
    ASSERT_FALSE(R::make(a).sqrt().has_value()) << "a = " << hex(a);
  }
  EXPECT_EQ(found, 200);
  for (const mpz_class& a : R::edges()) {
    if (mpz_legendre(a.get_mpz_t(), R::p().get_mpz_t()) == -1) {
      EXPECT_FALSE(R::make(a).sqrt().has_value()) << "a = " << hex(a);
    }
  }
}

TYPED_TEST(PrimeField, LegendreMatchesGmp) {
  using R = Ref<TypeParam>;
  int minus = 0;
  this->for_values([&](const mpz_class& a) {
    const int want = mpz_legendre(a.get_mpz_t(), R::p().get_mpz_t());
    minus += want == -1;
    ASSERT_EQ(R::make(a).legendre(), want) << "a = " << hex(a);
  });
  EXPECT_GT(minus, 100);  // both signs were exercised
}

TYPED_TEST(PrimeField, LexicographicallyLargestMeansAboveHalfModulus) {
  using R = Ref<TypeParam>;
  const mpz_class half = (R::p() - 1) / 2;
  this->for_values([&](const mpz_class& a) {
    ASSERT_EQ(R::make(a).is_lexicographically_largest(), a > half) << "a = " << hex(a);
  });
}

// ---- batch inversion ----

TYPED_TEST(PrimeField, BatchInvertMatchesPerElementInverseAndKeepsZeros) {
  using F = TypeParam;
  for (size_t n : {size_t{1}, size_t{2}, size_t{7}, size_t{64}}) {
    std::vector<F> v(n);
    for (size_t i = 0; i < n; ++i) {
      v[i] = (i % 5 == 0 || i + 1 == n) ? F::zero() : F::random(this->rng_);
    }
    if (n == 64) v[1] = F::one();
    const std::vector<F> orig = v;
    batch_invert(std::span<F>(v));
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(v[i], orig[i].inv()) << "n = " << n << ", i = " << i;
      if (orig[i].is_zero()) {
        ASSERT_TRUE(v[i].is_zero()) << "n = " << n << ", i = " << i;
      } else {
        ASSERT_TRUE((v[i] * orig[i]).is_one()) << "n = " << n << ", i = " << i;
      }
    }
  }
  std::vector<F> none;
  batch_invert(std::span<F>(none));  // no crash on empty input
  std::vector<F> nonzero(33);
  for (F& x : nonzero)
    x = F::random(this->rng_);
  std::vector<F> inv = nonzero;
  batch_invert(std::span<F>(inv));
  for (size_t i = 0; i < nonzero.size(); ++i)
    EXPECT_TRUE((inv[i] * nonzero[i]).is_one()) << i;
}

// ---- byte encodings ----

TYPED_TEST(PrimeField, ByteEncodingsMatchGmpExportAndRoundTrip) {
  using F = TypeParam;
  using R = Ref<F>;
  constexpr size_t B = F::kBytes;
  this->for_values([&](const mpz_class& a) {
    const F f = R::make(a);
    const auto be = f.to_bytes_be();
    const auto le = f.to_bytes_le();
    const auto want = gmp_export_be<B>(a);
    ASSERT_EQ(be, want) << "a = " << hex(a);
    ASSERT_EQ(le, reversed(want)) << "a = " << hex(a);
    const auto from_be = F::from_bytes_be(be);
    const auto from_le = F::from_bytes_le(le);
    ASSERT_TRUE(from_be.has_value() && *from_be == f) << "a = " << hex(a);
    ASSERT_TRUE(from_le.has_value() && *from_le == f) << "a = " << hex(a);
    const std::string h = a.get_str(16);
    ASSERT_EQ(f.to_hex(), "0x" + std::string(2 * B - h.size(), '0') + h);
  });
}

TYPED_TEST(PrimeField, FromBytesRejectsNonCanonicalValues) {
  using F = TypeParam;
  using R = Ref<F>;
  constexpr size_t B = F::kBytes;
  const mpz_class& p = R::p();
  for (const mpz_class& bad : {mpz_class(p), mpz_class(p + 1), mpz_class(2 * p),
                               mpz_class((mpz_class(1) << (8 * B)) - 1)}) {
    const auto be = gmp_export_be<B>(bad);
    EXPECT_FALSE(F::from_bytes_be(be).has_value()) << "big-endian " << hex(bad);
    EXPECT_FALSE(F::from_bytes_le(reversed(be)).has_value()) << "little-endian " << hex(bad);
  }
  const mpz_class top = p - 1;
  const auto be = gmp_export_be<B>(top);
  const auto f = F::from_bytes_be(be);
  ASSERT_TRUE(f.has_value());
  EXPECT_TRUE(Matches(*f, top));
  const auto g = F::from_bytes_le(reversed(be));
  ASSERT_TRUE(g.has_value());
  EXPECT_TRUE(Matches(*g, top));
}

// ---- sampling and ring axioms ----

TYPED_TEST(PrimeField, RandomIsCanonicalAndSpreadOut) {
  using F = TypeParam;
  using R = Ref<F>;
  const mpz_class half = R::p() / 2;
  std::set<std::string> seen;
  int high = 0, high_mont = 0;
  for (int i = 0; i < 2000; ++i) {
    const F f = F::random(this->rng_);
    const mpz_class m = to_mpz(f.mont());
    ASSERT_LT(m, R::p());
    const mpz_class v = R::value(f);
    ASSERT_LT(v, R::p());
    high += v > half;
    high_mont += m > half;
    seen.insert(v.get_str(16));
  }
  EXPECT_EQ(seen.size(), 2000u);
  // Roughly half above p/2, both as values and as stored limbs (the sampler draws limbs).
  EXPECT_GT(high, 800);
  EXPECT_LT(high, 1200);
  EXPECT_GT(high_mont, 800);
  EXPECT_LT(high_mont, 1200);
  std::mt19937_64 a(7), b(7);
  EXPECT_EQ(F::random(a), F::random(b));  // deterministic for a seeded generator
}

TYPED_TEST(PrimeField, RingAxiomsHoldOnRandomValues) {
  using F = TypeParam;
  auto& rng = this->rng_;
  for (int i = 0; i < 500; ++i) {
    const F a = F::random(rng), b = F::random(rng), c = F::random(rng);
    ASSERT_EQ((a + b) + c, a + (b + c));
    ASSERT_EQ((a * b) * c, a * (b * c));
    ASSERT_EQ(a + b, b + a);
    ASSERT_EQ(a * b, b * a);
    ASSERT_EQ(a * (b + c), a * b + a * c);
    ASSERT_EQ((a - b) * c, a * c - b * c);
    ASSERT_EQ(a + F::zero(), a);
    ASSERT_EQ(a * F::one(), a);
    ASSERT_TRUE((a * F::zero()).is_zero());
    ASSERT_TRUE((a + (-a)).is_zero());
    ASSERT_EQ(a - b, a + (-b));
    ASSERT_EQ(a.dbl(), a + a);
    ASSERT_EQ(a.sqr(), a * a);
    if (!a.is_zero()) {
      ASSERT_TRUE((a * a.inv()).is_one());
    }
  }
}

// ---- Fr specifics ----

TEST(Fr, TwoAdicRootHasOrderExactlyTwoToThe32) {
  Fr x = kFrTwoAdicRoot;
  for (int i = 0; i < 31; ++i)
    x = x.sqr();
  EXPECT_FALSE(x.is_one()) << "omega^(2^31) must not be 1";
  EXPECT_EQ(x, -Fr::one()) << "omega^(2^31) must be -1";
  x = x.sqr();
  EXPECT_TRUE(x.is_one()) << "omega^(2^32) must be 1";
  EXPECT_TRUE(kFrTwoAdicRoot.pow(BigInt<1>::from_u64(uint64_t{1} << 32)).is_one());
  EXPECT_FALSE(kFrTwoAdicRoot.pow(BigInt<1>::from_u64(uint64_t{1} << 31)).is_one());
  // It is 7^t with r - 1 = 2^32 t.
  using R = Ref<Fr>;
  EXPECT_TRUE(Matches(kFrTwoAdicRoot, R::powm(7, (R::p() - 1) >> 32)));
}

TEST(Fr, SqrtHandlesElementsDeepInTheTwoSylowSubgroup) {
  // Squares of roots of unity of order 2^k stress every iteration count of Tonelli-Shanks.
  Fr w = kFrTwoAdicRoot;  // order 2^32
  std::mt19937_64 rng(32);
  for (int k = 32; k >= 1; --k) {
    const Fr c = Fr::random(rng);
    for (const Fr& s : {w.sqr(), (w * c).sqr(), w}) {
      const int legendre = s.legendre();
      const auto root = s.sqrt();
      if (legendre == 1) {
        ASSERT_TRUE(root.has_value()) << "k = " << k;
        ASSERT_EQ(root->sqr(), s) << "k = " << k;
      } else {
        ASSERT_FALSE(root.has_value()) << "k = " << k;
      }
    }
    w = w.sqr();
  }
  // 5 is the smallest non-residue mod r.
  for (uint64_t v : {2, 3, 4})
    EXPECT_EQ(Fr::from_u64(v).legendre(), 1) << v;
  EXPECT_EQ(Fr::from_u64(5).legendre(), -1);
  EXPECT_FALSE(Fr::from_u64(5).sqrt().has_value());
}

// ---- kernel dispatch ----

TEST(FieldDispatch, PortableEnvironmentVariableSelectsThePortableKernel) {
  const char* env = std::getenv("CUZK_FF_PORTABLE");
  if (env != nullptr && std::strcmp(env, "1") == 0) {
    EXPECT_FALSE(ff::kUseAdx) << "CUZK_FF_PORTABLE=1 must select the portable path";
  } else if (env == nullptr) {
    EXPECT_EQ(ff::kUseAdx, ff::cpu_has_bmi2_adx());
  }
}

// Decimal text of whole-width values against GMP: 77+ digit values need five 19-digit chunks
// (the digit buffer once had room for 81 characters, and values of 10^76 and up, a sixth of all
// Fr, overflowed it: found by fuzz_snarkjs_json under ASan).
template <size_t N>
void expect_decimal_like_gmp(const BigInt<N>& v) {
  EXPECT_EQ(to_decimal(v), to_mpz(v).get_str(10));
  const auto back = from_decimal<N>(to_decimal(v));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, v);
}

TEST(BigIntDecimal, EveryWidthAndLengthMatchesGmp) {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 2000; ++trial) {
    BigInt<4> a;
    BigInt<6> b;
    const int bits4 = trial % 257, bits6 = trial % 385;
    for (size_t i = 0; i < 4; ++i)
      a.w[i] = rng();
    for (size_t i = 0; i < 6; ++i)
      b.w[i] = rng();
    expect_decimal_like_gmp(from_mpz<4>(to_mpz(a) >> (256 - bits4)));
    expect_decimal_like_gmp(from_mpz<6>(to_mpz(b) >> (384 - bits6)));
  }
  BigInt<4> max4;
  BigInt<6> max6;
  for (auto& w : max4.w)
    w = ~uint64_t{0};
  for (auto& w : max6.w)
    w = ~uint64_t{0};
  expect_decimal_like_gmp(max4);
  expect_decimal_like_gmp(max6);
  EXPECT_EQ(to_decimal((Fr::zero() - Fr::one()).to_canonical()),
            "52435875175126190479447740508185965837690552500527637822603658699938581184512");
  EXPECT_EQ(to_decimal(BigInt<4>{}), "0");
}

}  // namespace
}  // namespace cuzk
