// MontF64's host twin (the device's own steps, std::fma for __fma_rn) against ff/ and Mont32:
// runs in every configuration, CUDA or not (the device side is tests/gpu/field_test.cpp).
#include "gpu/arith/mont_f64.cuh"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "field_edges.hpp"

namespace cuzk::gpu {
namespace {

namespace d = f64_detail;

// H 2^51 + d of one limb product through mad, as a 128-bit integer.
__int128 split_value(double a, double b) {
  uint64_t lo = 0, hi = 0;
  d::mad(lo, hi, a, b);
  return (static_cast<__int128>(static_cast<int64_t>(hi)) << d::kW) + static_cast<int64_t>(lo);
}

TEST(MontF64, HostFmaIsOneRoundingIeee) {
  // (2^52 + 1)(2^52 - 1) - 2^104 = -1 with one rounding; a product rounded first gives 0.
  volatile double a = 0x1p52 + 1, b = 0x1p52 - 1, c = -0x1p104;
  EXPECT_EQ(std::fma(a, b, c), -1.0);
  EXPECT_EQ(d::fma_rn(a, b, c), -1.0);
}

TEST(MontF64, LimbSplitIsExactOnTiesAndExtremes) {
  const uint64_t m = d::kMask;
  // Ties (a b = 2^50 mod 2^51) round H to even, both ways; the largest products; small ones.
  const uint64_t cases[][2] = {{0, 0},
                               {1, 1},
                               {uint64_t{1} << 50, 1},
                               {uint64_t{1} << 50, 3},
                               {uint64_t{3} << 49, 1},
                               {m, m},
                               {m, 1},
                               {m - 1, m},
                               {uint64_t{1} << 50, uint64_t{1} << 50},
                               {(uint64_t{1} << 51) - 3, (uint64_t{1} << 26) + 1}};
  for (const auto& c : cases) {
    const unsigned __int128 want = static_cast<unsigned __int128>(c[0]) * c[1];
    EXPECT_EQ(split_value(d::to_f64(c[0]), d::to_f64(c[1])), static_cast<__int128>(want))
        << c[0] << " x " << c[1];
  }
  // (2^51 - 1)^2 = 2^102 - 2^52 + 1: a product rounded before the addition (an FMA that is not
  // fused, or a contracted host expression) loses the final 1.
  EXPECT_EQ(split_value(d::to_f64(m), d::to_f64(m)) & 1, 1);
  // The doubled cross products of the square: (2 a) b < 2^103.
  EXPECT_EQ(split_value(d::to_f64(2 * m), d::to_f64(m)),
            static_cast<__int128>(static_cast<unsigned __int128>(2 * m) * m));
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t a = rng() & m, b = rng() & m;
    ASSERT_EQ(split_value(d::to_f64(a), d::to_f64(b)),
              static_cast<__int128>(static_cast<unsigned __int128>(a) * b))
        << a << " x " << b;
  }
}

// The signed split of Karatsuba's differences, |u|, |v| < 2^51.
__int128 signed_split_value(int64_t u, int64_t v) {
  uint64_t lo = 0, hi = 0;
  d::mad_signed(lo, hi, static_cast<double>(u), static_cast<double>(v));
  return (static_cast<__int128>(static_cast<int64_t>(hi)) << d::kW) + static_cast<int64_t>(lo);
}

TEST(MontF64, SignedLimbSplitIsExactOnTiesAndExtremes) {
  const int64_t m = static_cast<int64_t>(d::kMask), t = int64_t{1} << 50;
  const int64_t cases[][2] = {{0, 0}, {1, -1}, {-1, -1}, {t, 1},   {-t, 1}, {t, 3},     {-t, 3},
                              {m, m}, {-m, m}, {m, -m},  {-m, -m}, {-m, 1}, {m - 1, -m}};
  for (const auto& c : cases)
    EXPECT_EQ(signed_split_value(c[0], c[1]), static_cast<__int128>(c[0]) * c[1])
        << c[0] << " x " << c[1];
  std::mt19937_64 rng(12);
  for (int i = 0; i < 100000; ++i) {
    const int64_t u = static_cast<int64_t>(rng() & m) - static_cast<int64_t>(rng() & m);
    const int64_t v = static_cast<int64_t>(rng() & m) - static_cast<int64_t>(rng() & m);
    ASSERT_EQ(signed_split_value(u, v), static_cast<__int128>(u) * v) << u << " x " << v;
  }
}

// Raw MontF64 elements at the limb boundaries of its own form (the host's edge values sit at
// 64-bit boundaries): 2^(51 t) and 2^(51 t) - 1, every limb at its maximum below p, p - 1,
// p - 2, (p - 1) / 2, (p + 1) / 2, 0, 1.
template <class F>
std::vector<MontF64<F>> raw_edges() {
  using D = MontF64<F>;
  std::vector<D> v;
  auto from_int = [](const typename F::Int& x) {
    uint32_t w[D::kN32];
    std::memcpy(w, x.w, sizeof(w));
    return D::from_words(w);
  };
  const typename F::Int p = F::kModulus;
  v.push_back(from_int(sub_u64(p, 1)));
  v.push_back(from_int(sub_u64(p, 2)));
  v.push_back(from_int(F::kHalfModulus));
  v.push_back(from_int(add_u64(F::kHalfModulus, 1)));
  v.push_back(from_int(typename F::Int{}));
  v.push_back(from_int(F::Int::from_u64(1)));
  for (int t = 1; t < D::K; ++t) {
    typename F::Int x;
    x.w[(51 * t) / 64] = uint64_t{1} << ((51 * t) % 64);
    v.push_back(from_int(x));
    v.push_back(from_int(sub_u64(x, 1)));
  }
  D all = D::zero();  // every limb 2^51 - 1 below the top one, and the top one of p - 1
  const D pm1 = from_int(sub_u64(p, 1));
  for (int t = 0; t < D::K - 1; ++t)
    all.l[t] = d::kMask;
  all.l[D::K - 1] = pm1.l[D::K - 1] - 1;
  v.push_back(all);
  return v;
}

// Limbs below 2^51 and the value below p (through the host's words).
template <class F>
bool canonical(const MontF64<F>& x) {
  for (uint64_t limb : x.l)
    if (limb > d::kMask) return false;
  uint32_t w[MontF64<F>::kN32];
  x.to_words(w);
  typename F::Int v;
  std::memcpy(v.w, w, sizeof(w));
  return cmp(v, F::kModulus) < 0 && MontF64<F>::from_words(w) == x;
}

template <class F>
bool same_bytes(const Mont32<F>& a, const Mont32<F>& b) {
  return std::memcmp(a.l, b.l, sizeof(a.l)) == 0;
}

template <class F>
void expect_matches_host_and_mont32(uint64_t seed) {
  using D = MontF64<F>;
  std::mt19937_64 rng(seed);
  std::vector<D> ops = raw_edges<F>();
  for (const F& f : testing::edge_values<F>())
    ops.push_back(D::from_host(f));
  const size_t edges = ops.size();
  std::vector<std::pair<D, D>> pairs;
  for (size_t i = 0; i < edges; ++i)
    for (size_t j = 0; j < edges; ++j)
      pairs.push_back({ops[i], ops[j]});
  for (size_t i = 0; i < 2000; ++i)
    pairs.push_back(
        {D::from_host(F::random(rng)), i % 3 == 0 ? ops[i % edges] : D::from_host(F::random(rng))});
  for (size_t i = 0; i < pairs.size(); ++i) {
    const auto& [x, y] = pairs[i];
    ASSERT_TRUE(canonical(x)) << i;
    const F a = x.to_host(), b = y.to_host();
    ASSERT_EQ(D::from_host(a), x) << "round trip " << i;
    const D prod = x * y, sq = x.sqr(), sum = x + y, diff = x - y, neg = -x;
    for (const D* r : {&prod, &sq, &sum, &diff, &neg})
      ASSERT_TRUE(canonical(*r)) << i;
    ASSERT_EQ(prod.to_host(), a * b) << "mul " << i;
    ASSERT_EQ(sq.to_host(), a.sqr()) << "sqr " << i;
    ASSERT_EQ(sq, x * x) << "sqr = mul " << i;
    ASSERT_EQ(D::mul_karatsuba(x, y), prod) << "Karatsuba = mul " << i;
    ASSERT_EQ(sum.to_host(), a + b) << "add " << i;
    ASSERT_EQ(diff.to_host(), a - b) << "sub " << i;
    ASSERT_EQ(neg.to_host(), -a) << "neg " << i;
    ASSERT_EQ(x == y, a == b) << i;
    const Mont32<F> x32 = x.to_mont32(), y32 = y.to_mont32();
    ASSERT_TRUE(same_bytes(prod.to_mont32(), x32 * y32)) << "mul vs Mont32 " << i;
    ASSERT_TRUE(same_bytes(sq.to_mont32(), x32.sqr())) << "sqr vs Mont32 " << i;
    ASSERT_TRUE(same_bytes(sum.to_mont32(), x32 + y32)) << "add vs Mont32 " << i;
    ASSERT_TRUE(same_bytes(diff.to_mont32(), x32 - y32)) << "sub vs Mont32 " << i;
    ASSERT_EQ(D::from_mont32(x32), x) << "from_mont32 " << i;
  }
  EXPECT_EQ(D::one().to_host(), F::one());
  EXPECT_TRUE(D::zero().to_host().is_zero());
}

// The product-level hybrid's premise (mont_f64.cuh): with the limbs only repacked, a MontF64
// product of x R' and y R is x y R (Mont32's form) and a Mont32 product of the same two is
// x y R' (MontF64's).
template <class F>
void expect_cross_form_products(uint64_t seed) {
  using D = MontF64<F>;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 500; ++i) {
    const F a = F::random(rng), b = F::random(rng);
    const D x = D::from_host(a);                  // a R'
    const Mont32<F> y = Mont32<F>::from_host(b);  // b R
    const D y_raw = D::from_words(y.l);           // b R, in 51-bit limbs
    Mont32<F> x_raw;                              // a R', in 32-bit words
    x.to_words(x_raw.l);
    Mont32<F> prod32;
    D::mul(x, y_raw).to_words(prod32.l);
    ASSERT_TRUE(same_bytes(prod32, Mont32<F>::from_host(a * b))) << i;
    ASSERT_EQ(D::from_words((x_raw * y).l), D::from_host(a * b)) << i;
  }
}

TEST(MontF64, CrossFormProductsLandInTheOtherForm) {
  expect_cross_form_products<Fr>(23);
  expect_cross_form_products<Fp>(24);
}

TEST(MontF64, FrMatchesHostAndMont32OnEdgesAndRandoms) {
  expect_matches_host_and_mont32<Fr>(21);
}

TEST(MontF64, FpMatchesHostAndMont32OnEdgesAndRandoms) {
  expect_matches_host_and_mont32<Fp>(22);
}

}  // namespace
}  // namespace cuzk::gpu
