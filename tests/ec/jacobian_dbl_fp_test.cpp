// The double-width G1 doubling (ec/jacobian_dbl_fp.hpp) against dbl-2009-l written with reduced
// Fp operations, on any coordinate triple (the formula is an identity of the field, on the curve
// or not): edge limbs, random triples, and triples that push its two offset sums to their ends.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ec/g1.hpp"

namespace cuzk {
namespace {

struct Triple {
  Fp x, y, z;
};

Triple reference_dbl(const Fp& x, const Fp& y, const Fp& z) {
  const Fp a = x * x;
  const Fp b = y * y;
  const Fp c = b * b;
  const Fp d = ((x + b) * (x + b) - a - c).dbl();
  const Fp e = a.dbl() + a;
  const Fp x3 = e * e - d.dbl();
  return {x3, e * (d - x3) - c.dbl().dbl().dbl(), (y * z).dbl()};
}

void expect_same(const Fp& x, const Fp& y, const Fp& z) {
  Triple got;
  jacobian_dbl_fp(got.x, got.y, got.z, x, y, z);
  const Triple want = reference_dbl(x, y, z);
  ASSERT_EQ(got.x, want.x) << x.to_hex() << " " << y.to_hex() << " " << z.to_hex();
  ASSERT_EQ(got.y, want.y) << x.to_hex() << " " << y.to_hex() << " " << z.to_hex();
  ASSERT_EQ(got.z, want.z) << x.to_hex() << " " << y.to_hex() << " " << z.to_hex();
}

Fp raw(const BigInt<6>& limbs) {
  return Fp::from_mont(limbs);
}

TEST(JacobianDblFp, MatchesReducedFormulaOnEdgeAndRandomTriples) {
  const std::vector<Fp> e = {Fp::zero(),
                             raw(BigInt<6>::from_u64(1)),
                             raw(sub_u64(Fp::kModulus, 1)),
                             raw(sub_u64(Fp::kModulus, 2)),
                             Fp::one(),
                             -Fp::one()};
  for (const Fp& x : e) {
    for (const Fp& y : e) {
      for (const Fp& z : e)
        expect_same(x, y, z);
    }
  }
  std::mt19937_64 rng(21);
  for (int i = 0; i < 3000; ++i)
    expect_same(Fp::random(rng), Fp::random(rng), Fp::random(rng));
}

// X3 = K + E^2 - 8 X B is smallest for X and B = Y^2 near p with E = 3 X^2 small, and
// Y3 = K + E (D - X3) - 8 B^2 for B near p (raw Montgomery limbs, which the sums see).
TEST(JacobianDblFp, MatchesReducedFormulaWhereItsSumsAreSmallest) {
  const BigInt<6> p = Fp::kModulus;
  Fp x;
  BigInt<6> best_e = p;
  for (uint64_t k = 1; k < 20000; ++k) {  // X near p with the smallest raw E
    const Fp cand = raw(sub_u64(p, k));
    const Fp e = cand * cand * Fp::from_u64(3);
    if (cmp(e.mont(), best_e) < 0) {
      best_e = e.mont();
      x = cand;
    }
  }
  ASSERT_LT(best_e.w[5], p.w[5] >> 10);  // E < p / 1024
  int tested = 0;
  for (uint64_t j = 1; j < 200 && tested < 20; ++j) {  // B = Y^2 near p
    const auto y = raw(sub_u64(p, j)).sqrt();
    if (!y) continue;
    ++tested;
    expect_same(x, *y, raw(sub_u64(p, 1)));
    expect_same(x, -*y, Fp::one());
  }
  EXPECT_EQ(tested, 20);
}

TEST(JacobianDblFp, G1DoublingMatchesTheFormulaAndStaysOnTheCurve) {
  G1Jacobian p = G1Jacobian::generator();
  for (int i = 0; i < 50; ++i) {
    const G1Jacobian q = p.dbl();
    const Triple want = reference_dbl(p.X, p.Y, p.Z);
    ASSERT_EQ(q.X, want.x);
    ASSERT_EQ(q.Y, want.y);
    ASSERT_EQ(q.Z, want.z);
    ASSERT_TRUE(q.is_on_curve());
    p = q + G1Jacobian::generator();
  }
  EXPECT_TRUE(G1Jacobian::identity().dbl().is_identity());
}

}  // namespace
}  // namespace cuzk
