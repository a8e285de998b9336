// Property tests of the optimal ate pairing: bilinearity, identities, non-degeneracy, the order
// of the target group, multi-pairing as a product, the final exponentiation against the plain
// power f^(3 (p^12 - 1) / r), and the optimised Miller loop against the reference one.
#include "ec/pairing.hpp"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "ec_test_util.hpp"

namespace cuzk {
namespace {

using ec_test::from_mpz;
using ec_test::group_order;
using ec_test::random_subgroup_point;
using Pair = std::pair<G1Affine, G2Affine>;

G1Affine random_g1(std::mt19937_64& rng) {
  return random_subgroup_point<G1Curve>(rng).to_affine();
}
G2Affine random_g2(std::mt19937_64& rng) {
  return random_subgroup_point<G2Curve>(rng).to_affine();
}
G1Affine mul(const G1Affine& p, const Fr& k) {
  return scalar_mul_wnaf(G1Jacobian::from_affine(p), k.to_canonical()).to_affine();
}
G2Affine mul(const G2Affine& q, const Fr& k) {
  return scalar_mul_wnaf(G2Jacobian::from_affine(q), k.to_canonical()).to_affine();
}

TEST(Pairing, IsBilinearInBothScalars) {
  std::mt19937_64 rng(0xa001);
  for (int i = 0; i < 2; ++i) {
    const G1Affine p = i == 0 ? G1Affine::generator() : random_g1(rng);
    const G2Affine q = i == 0 ? G2Affine::generator() : random_g2(rng);
    const Fr a = Fr::random(rng), b = Fr::random(rng);
    const Gt base = pairing(p, q);
    EXPECT_EQ(pairing(mul(p, a), mul(q, b)), base.pow((a * b).to_canonical())) << i;
    EXPECT_EQ(pairing(mul(p, a), q), pairing(p, mul(q, a))) << i;
  }
}

TEST(Pairing, IsLinearInEachArgument) {
  std::mt19937_64 rng(0xa002);
  const G1Affine p = random_g1(rng), p2 = random_g1(rng);
  const G2Affine q = random_g2(rng), r = random_g2(rng);
  const G2Affine qr = (G2Jacobian::from_affine(q) + G2Jacobian::from_affine(r)).to_affine();
  const G1Affine pp = (G1Jacobian::from_affine(p) + G1Jacobian::from_affine(p2)).to_affine();
  const Gt e_pq = pairing(p, q);
  EXPECT_EQ(pairing(p, qr), e_pq * pairing(p, r));
  EXPECT_EQ(pairing(pp, q), e_pq * pairing(p2, q));
  // Negation inverts (Gt elements are unitary: the inverse is the conjugate).
  EXPECT_EQ(pairing(-p, q), e_pq.conjugate());
  EXPECT_EQ(pairing(p, -q), e_pq.conjugate());
  EXPECT_TRUE((pairing(-p, q) * e_pq).is_one());
}

TEST(Pairing, IdentityOnEitherSideGivesOne) {
  std::mt19937_64 rng(0xa003);
  const G1Affine p = random_g1(rng);
  const G2Affine q = random_g2(rng);
  EXPECT_TRUE(pairing(p, G2Affine::identity()).is_one());
  EXPECT_TRUE(pairing(G1Affine::identity(), q).is_one());
  EXPECT_TRUE(pairing(G1Affine::identity(), G2Affine::identity()).is_one());
  EXPECT_TRUE(final_exponentiation(miller_loop_reference(p, G2Affine::identity())).is_one());
  EXPECT_TRUE(final_exponentiation(miller_loop_reference(G1Affine::identity(), q)).is_one());
}

TEST(Pairing, MultiPairingEqualsProductOfPairings) {
  std::mt19937_64 rng(0xa004);
  std::vector<Pair> pairs;
  Gt want = Gt::one();
  for (int i = 0; i < 3; ++i) {
    pairs.emplace_back(random_g1(rng), random_g2(rng));
    want = want * pairing(pairs.back().first, pairs.back().second);
  }
  EXPECT_EQ(multi_pairing(pairs), want);
  // Pairs with an identity contribute nothing.
  pairs.emplace_back(G1Affine::identity(), random_g2(rng));
  pairs.emplace_back(random_g1(rng), G2Affine::identity());
  EXPECT_EQ(multi_pairing(pairs), want);
  EXPECT_TRUE(multi_pairing({}).is_one());
  // The Groth16-style check: e(P, Q) e(-P, Q) = 1.
  const Pair both[2] = {{pairs[0].first, pairs[0].second}, {-pairs[0].first, pairs[0].second}};
  EXPECT_TRUE(multi_pairing(both).is_one());
}

TEST(Pairing, IsNonDegenerateAndLandsInTheOrderRSubgroup) {
  const Gt g = pairing(G1Affine::generator(), G2Affine::generator());
  EXPECT_FALSE(g.is_one());
  EXPECT_FALSE(g.is_zero());
  const mpz_class r = group_order();
  EXPECT_TRUE(g.pow(from_mpz<4>(r)).is_one());
  EXPECT_EQ(g.pow(from_mpz<4>(r - 1)), g.conjugate());
  // g has order exactly r (r is prime; g != 1).
  std::mt19937_64 rng(0xa005);
  const Gt h = pairing(random_g1(rng), random_g2(rng));
  EXPECT_TRUE(h.pow(from_mpz<4>(r)).is_one());
  EXPECT_FALSE(h.is_one());
}

TEST(Pairing, FinalExponentiationIsThePowerThreeTimesP12MinusOneOverR) {
  std::mt19937_64 rng(0xa006);
  const mpz_class p = ec_test::to_mpz(Fp::kModulus);
  mpz_class p12;
  mpz_pow_ui(p12.get_mpz_t(), p.get_mpz_t(), 12);
  const mpz_class e = 3 * (p12 - 1) / group_order();
  ASSERT_EQ(3 * (p12 - 1) % group_order(), 0);
  const auto e_big = from_mpz<72>(e);
  for (int i = 0; i < 2; ++i) {
    const Fp12 f = Fp12::random(rng);
    EXPECT_EQ(final_exponentiation(f), f.pow(e_big)) << i;
  }
  // And on a genuine Miller loop value.
  const Pair pq[1] = {{random_g1(rng), random_g2(rng)}};
  const Fp12 m = miller_loop(pq);
  EXPECT_EQ(final_exponentiation(m), m.pow(e_big));
}

TEST(Pairing, OptimizedMillerLoopMatchesReferenceAfterFinalExponentiation) {
  std::mt19937_64 rng(0xa007);
  for (int i = 0; i < 2; ++i) {
    const G1Affine p = random_g1(rng);
    const G2Affine q = random_g2(rng);
    const Pair pq[1] = {{p, q}};
    EXPECT_EQ(final_exponentiation(miller_loop(pq)),
              final_exponentiation(miller_loop_reference(p, q)))
        << i;
  }
}

}  // namespace
}  // namespace cuzk
