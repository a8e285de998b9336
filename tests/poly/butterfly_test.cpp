// The branch-free add/sub of the butterflies against Fr's own + and - (its reference twin) on the
// edge values crossed with each other and with random values, with aliased outputs too.
#include "poly/butterfly.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "poly_test_util.hpp"

namespace cuzk {
namespace {

// add_sub works on Montgomery limbs, so the edges are limb patterns: 0, 1, 2, p-1, p-2, (p-1)/2,
// (p+1)/2, a full low limb, and a single bit at the top limb.
std::vector<Fr> edge_values() {
  using Int = Fr::Int;
  const Int p = Fr::kModulus;
  Int full_low, top_limb_bit;
  full_low.w[0] = ~0ULL;
  top_limb_bit.w[3] = 1;
  const Int limbs[] = {Int{},   Int::from_u64(1),    Int::from_u64(2), sub_u64(p, 1), sub_u64(p, 2),
                       shr1(p), add_u64(shr1(p), 1), full_low,         top_limb_bit};
  std::vector<Fr> out;
  for (const Int& v : limbs)
    out.push_back(Fr::from_mont(v));
  return out;
}

TEST(Butterfly, AddSubEqualsFrAdditionAndSubtractionOnEdgeAndRandomValues) {
  std::mt19937_64 rng(31);
  auto values = edge_values();
  const auto randoms = random_vector(40, rng);
  values.insert(values.end(), randoms.begin(), randoms.end());
  for (const Fr& a : values) {
    for (const Fr& b : values) {
      Fr sum, diff;
      fft_detail::add_sub(a, b, sum, diff);
      ASSERT_EQ(sum, a + b) << a.to_hex() << " + " << b.to_hex();
      ASSERT_EQ(diff, a - b) << a.to_hex() << " - " << b.to_hex();
    }
  }
}

TEST(Butterfly, AddSubAllowsTheOutputsToAliasTheInputs) {
  std::mt19937_64 rng(32);
  for (int i = 0; i < 100; ++i) {
    const Fr a = Fr::random(rng), b = Fr::random(rng);
    Fr x = a, y = b;
    fft_detail::add_sub(x, y, x, y);
    EXPECT_EQ(x, a + b);
    EXPECT_EQ(y, a - b);
    x = a;
    y = b;
    fft_detail::add_sub(x, y, y, x);  // the inverse order of outputs
    EXPECT_EQ(y, a + b);
    EXPECT_EQ(x, a - b);
  }
}

}  // namespace
}  // namespace cuzk
