// The affine point's storage: a point is its two coordinates (what the GPU's kernels read and
// what crosses the bus when bases stream: 96 bytes in G1, 192 in G2), and the point at infinity
// is marked by x's spare bit, which no field element sets: not p - 1 (the largest, in Montgomery
// limbs), 0, 1 or -1, nor the coordinates of curve points.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <type_traits>

#include "common/curve_types.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ec_test_util.hpp"

namespace cuzk {
namespace {

template <class Curve>
class AffineStorage : public ::testing::Test {};

TYPED_TEST_SUITE(AffineStorage, Curves, CurveNames);

TYPED_TEST(AffineStorage, APointIsItsTwoCoordinates) {
  using Aff = Affine<TypeParam>;
  using Field = typename TypeParam::Field;
  EXPECT_EQ(sizeof(Aff), 2 * sizeof(Field));
  EXPECT_EQ(sizeof(Aff), (std::is_same_v<TypeParam, G1Curve> ? 96u : 192u));
}

TYPED_TEST(AffineStorage, TheIdentityIsMarkedInXsSpareBitWhichNoElementSets) {
  using Aff = Affine<TypeParam>;
  using Field = typename TypeParam::Field;
  const Fp largest = Fp::from_mont(sub_u64(Fp::kModulus, 1));
  for (const Fp c : {largest, Fp::zero(), Fp::one(), -Fp::one()}) {
    EXPECT_FALSE(c.spare_bit());
    Field f{};
    if constexpr (std::is_same_v<Field, Fp>) {
      f = c;
    } else {
      f = Field{c, c};
    }
    EXPECT_FALSE(f.spare_bit());
    EXPECT_FALSE(Aff::from_xy(f, f).is_identity());
  }
  EXPECT_TRUE(Field::with_spare_bit().spare_bit());
  EXPECT_TRUE(Aff{}.is_identity());
  EXPECT_TRUE(Aff::identity().x.spare_bit());
  std::mt19937_64 rng(std::is_same_v<TypeParam, G1Curve> ? 0xaff1 : 0xaff2);
  for (int i = 0; i < 8; ++i) {
    const Aff a = ec_test::random_curve_point<TypeParam>(rng);
    EXPECT_FALSE(a.is_identity());
    EXPECT_FALSE((-a).is_identity());
    EXPECT_FALSE(a.y.spare_bit());
  }
}

// Writing coordinates over the identity makes a point (the CPU MSM's affine buckets do so).
TYPED_TEST(AffineStorage, CoordinatesWrittenOverTheIdentityMakeAPoint) {
  using Aff = Affine<TypeParam>;
  Aff b = Aff::identity();
  b.x = Aff::generator().x;
  b.y = Aff::generator().y;
  EXPECT_FALSE(b.is_identity());
  EXPECT_EQ(b, Aff::generator());
}

}  // namespace
}  // namespace cuzk
