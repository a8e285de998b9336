// affine_sum_denominator / affine_sum (the batch-affine MSM rounds' formulas) against the
// Jacobian addition: random pairs and every special case (P = Q, Q = -P, identity operands) in
// one batch whose denominators share a single inversion, as the device does.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ec/affine_sum.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ec_test_util.hpp"

namespace cuzk {
namespace {

template <class Curve>
void check_batch(uint64_t seed) {
  using Field = typename Curve::Field;
  std::mt19937_64 rng(seed);
  const auto point = [&] { return ec_test::random_subgroup_point<Curve>(rng).to_affine(); };
  std::vector<std::pair<Affine<Curve>, Affine<Curve>>> pairs;
  for (int i = 0; i < 40; ++i)
    pairs.emplace_back(point(), point());
  const Affine<Curve> p = point();
  pairs.emplace_back(p, p);                          // a doubling
  pairs.emplace_back(p, -p);                         // the identity
  pairs.emplace_back(Affine<Curve>::identity(), p);  // identity operands
  pairs.emplace_back(p, Affine<Curve>::identity());
  pairs.emplace_back(Affine<Curve>::identity(), Affine<Curve>::identity());
  const Affine<Curve> q = point();
  pairs.emplace_back(q, q);
  pairs.emplace_back(-q, -q);

  // Montgomery's trick: prefix products, one inversion, then each inverse from the back.
  std::vector<Field> prefix(pairs.size());
  Field acc = Field::one();
  for (size_t i = 0; i < pairs.size(); ++i) {
    const Field d = affine_sum_denominator(pairs[i].first, pairs[i].second);
    ASSERT_FALSE(d.is_zero()) << "pair " << i;
    prefix[i] = acc;
    acc *= d;
  }
  Field inv = acc.inv();
  for (size_t i = pairs.size(); i-- > 0;) {
    const auto& [a, b] = pairs[i];
    const Field d = affine_sum_denominator(a, b);
    const Affine<Curve> got = affine_sum(a, b, inv * prefix[i]);
    inv *= d;
    const Affine<Curve> want =
        (Jacobian<Curve>::from_affine(a) + Jacobian<Curve>::from_affine(b)).to_affine();
    EXPECT_TRUE(got == want) << "pair " << i;
    EXPECT_TRUE(got.is_on_curve()) << "pair " << i;
  }
  EXPECT_TRUE(affine_sum(p, -p, Field::one()).is_identity());
}

TEST(AffineSum, G1BatchWithOneInversionEqualsJacobianAddition) {
  check_batch<G1Curve>(71);
}
TEST(AffineSum, G2BatchWithOneInversionEqualsJacobianAddition) {
  check_batch<G2Curve>(72);
}

}  // namespace
}  // namespace cuzk
