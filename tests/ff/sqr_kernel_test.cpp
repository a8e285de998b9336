// The dedicated Montgomery squaring kernels (out of line, 4 and 6 limbs; inline, 4 limbs) and the
// inline 4-limb product against GMP, on edge values where the doubled off-diagonal sum and the
// diagonal carries are widest, and on random values; and sqr_in_place against sqr.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "ff/mont_field.hpp"
#include "ff_test_util.hpp"

namespace cuzk {
namespace {

using ff_test::from_mpz;
using ff_test::mod;
using ff_test::to_mpz;

template <class F>
class SqrKernel : public ::testing::Test {};
using Fields = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(SqrKernel, Fields);

// Raw limb values in [0, p): p-1 ... p-64, p - 2^k for every k, 2^k in the bottom and top limbs,
// 0, 1, and 3,000 uniform values.
template <class F>
std::vector<mpz_class> edge_and_random_values() {
  const mpz_class p = to_mpz(F::kModulus);
  std::vector<mpz_class> v = {0, 1};
  for (int i = 1; i <= 64; ++i)
    v.push_back(p - i);
  for (size_t k = 0; k < F::kBits; ++k) {
    const mpz_class pow2 = mpz_class(1) << k;
    if (pow2 < p) v.push_back(p - pow2);
    if ((k < 64 || k >= 64 * (F::kLimbs - 1)) && pow2 < p) v.push_back(pow2);
  }
  std::mt19937_64 rng(0x5c0a12e);
  for (int i = 0; i < 3000; ++i)
    v.push_back(to_mpz(F::random(rng).mont()));
  return v;
}

// a^2 / R mod p, the Montgomery square of raw limbs.
template <class F>
mpz_class mont_sqr_ref(const mpz_class& a) {
  const mpz_class p = to_mpz(F::kModulus);
  mpz_class r_inv, r = mpz_class(1) << (64 * F::kLimbs);
  mpz_invert(r_inv.get_mpz_t(), r.get_mpz_t(), p.get_mpz_t());
  return mod(a * a * r_inv, p);
}

TYPED_TEST(SqrKernel, SquaringKernelMatchesGmp) {
  using F = TypeParam;
  CUZK_SKIP_WITHOUT_ADX();
  constexpr size_t N = F::kLimbs;
  for (const mpz_class& a : edge_and_random_values<F>()) {
    const auto x = from_mpz<N>(a);
    const mpz_class want = mont_sqr_ref<F>(a);
    uint64_t r[N];
    if constexpr (N == 4) {
      cuzk_mont_sqr_adx_4(r, x.w, F::kModulus.w, F::kInv);
    } else {
      cuzk_mont_sqr_adx_6(r, x.w, F::kModulus.w, F::kInv);
    }
    ASSERT_EQ(to_mpz(r, N), want) << "a = " << a.get_str(16);
    if constexpr (N == 4) {
      cuzk_mont_sqr_inline_4(r, x.w, F::kModulus.w, F::kInv);
      ASSERT_EQ(to_mpz(r, N), want) << "inline, a = " << a.get_str(16);
    }
    ASSERT_EQ(to_mpz(F::sqr_raw(x)), want) << "a = " << a.get_str(16);
    ASSERT_EQ(to_mpz(F::mul_portable(x, x)), want) << "a = " << a.get_str(16);
  }
}

TYPED_TEST(SqrKernel, SquaringKernelWritesInPlace) {
  using F = TypeParam;
  CUZK_SKIP_WITHOUT_ADX();
  constexpr size_t N = F::kLimbs;
  for (const mpz_class& a : edge_and_random_values<F>()) {
    auto x = from_mpz<N>(a);
    if constexpr (N == 4) {
      cuzk_mont_sqr_adx_4(x.w, x.w, F::kModulus.w, F::kInv);
    } else {
      cuzk_mont_sqr_adx_6(x.w, x.w, F::kModulus.w, F::kInv);
    }
    ASSERT_EQ(to_mpz(x), mont_sqr_ref<F>(a)) << "a = " << a.get_str(16);
  }
}

TYPED_TEST(SqrKernel, SqrInPlaceMatchesSqr) {
  using F = TypeParam;
  std::mt19937_64 rng(0x1d2e3f);
  for (int i = 0; i < 3000; ++i) {
    const F a = F::random(rng);
    F b = a;
    b.sqr_in_place();
    ASSERT_EQ(b, a.sqr()) << a.to_hex();
    ASSERT_EQ(b, a * a) << a.to_hex();
    b.sqr_in_place().sqr_in_place();  // chained through the returned reference
    ASSERT_EQ(b, a.sqr().sqr().sqr()) << a.to_hex();
  }
  F m = -F::one();
  m.sqr_in_place();
  EXPECT_EQ(m, F::one());
  F z = F::zero();
  z.sqr_in_place();
  EXPECT_TRUE(z.is_zero());
}

// The 12-limb square (no reduction) of any 6-limb value: the edge values above, their sums with
// p (the unreduced operands below 2p of the Fp4 square), and 2^384 - 1.
TEST(WideSquareKernel, MatchesGmpBelowTwoToThe384) {
  const mpz_class p = to_mpz(Fp::kModulus);
  std::vector<mpz_class> values = edge_and_random_values<Fp>();
  const size_t base = values.size();
  for (size_t i = 0; i < base; ++i)
    values.push_back(values[i] + p);
  values.push_back((mpz_class(1) << 384) - 1);
  for (const mpz_class& a : values) {
    const auto x = from_mpz<6>(a);
    uint64_t r[12];
    Fp::sqr_wide(r, x.w);
    ASSERT_EQ(to_mpz(r, 12), a * a) << "a = " << a.get_str(16);
  }
}

// The inline 4-limb product (Fr `x = x * y`) on the same edge values, paired in both orders.
TEST(InlineMulKernel, ProductMatchesGmp) {
  CUZK_SKIP_WITHOUT_ADX();
  const auto values = edge_and_random_values<Fr>();
  const mpz_class p = to_mpz(Fr::kModulus);
  mpz_class r_inv, r = mpz_class(1) << 256;
  mpz_invert(r_inv.get_mpz_t(), r.get_mpz_t(), p.get_mpz_t());
  for (size_t i = 0; i < values.size(); ++i) {
    const mpz_class& a = values[i];
    const mpz_class& b = values[values.size() - 1 - i];
    const auto x = from_mpz<4>(a);
    const auto y = from_mpz<4>(b);
    uint64_t out[4];
    cuzk_mont_mul_inline_4(out, x.w, y.w, Fr::kModulus.w, Fr::kInv);
    ASSERT_EQ(to_mpz(out, 4), mod(a * b * r_inv, p)) << a.get_str(16) << " " << b.get_str(16);
    cuzk_mont_mul_inline_4(out, x.w, x.w, Fr::kModulus.w, Fr::kInv);
    ASSERT_EQ(to_mpz(out, 4), mod(a * a * r_inv, p)) << a.get_str(16);
  }
}

}  // namespace
}  // namespace cuzk
