// Property tests of G1 and G2 points: the Jacobian and xyzz formulas against the affine chord and
// tangent formulas written here, identity handling, equality across representatives, batch
// normalisation, the endomorphism-based scalar multiplications against wNAF, subgroup checks
// against the naive [r]P test (with torsion built from the cofactors), cofactor clearing, the
// G1 endomorphism and G2 psi eigenvalues and the naive MSM.
#include <gtest/gtest.h>

#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/curve_types.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ec/msm_naive.hpp"
#include "ec_test_util.hpp"

namespace cuzk {
namespace {

using ec_test::bls_x;
using ec_test::CurveOps;
using ec_test::from_mpz;
using ec_test::group_order;
using ec_test::random_curve_point;
using ec_test::random_nonzero;
using ec_test::random_subgroup_point;
using ec_test::rescale;
using ec_test::to_xyzz;

// ---- references written from the curve equation ----

// Chord-and-tangent addition on y^2 = x^3 + b in affine coordinates.
template <class Curve>
Affine<Curve> ref_add(const Affine<Curve>& p, const Affine<Curve>& q) {
  using F = typename Curve::Field;
  if (p.is_identity()) return q;
  if (q.is_identity()) return p;
  F slope;
  if (p.x == q.x) {
    if ((p.y + q.y).is_zero()) return Affine<Curve>::identity();  // vertical line
    const F x2 = p.x * p.x;
    slope = (x2 + x2 + x2) * (p.y + p.y).inv();  // tangent: 3 x^2 / 2 y
  } else {
    slope = (q.y - p.y) * (q.x - p.x).inv();  // chord
  }
  const F x3 = slope * slope - p.x - q.x;
  return Affine<Curve>::from_xy(x3, slope * (p.x - x3) - p.y);
}

// The affine point by hand (no to_affine): (X / Z^2, Y / Z^3).
template <class Curve>
Affine<Curve> ref_affine(const Jacobian<Curve>& p) {
  if (p.Z.is_zero()) return Affine<Curve>::identity();
  const auto zi = p.Z.inv();
  return Affine<Curve>::from_xy(p.X * zi * zi, p.Y * zi * zi * zi);
}

// Binary double-and-add, most significant bit first.
template <class Curve>
Jacobian<Curve> ref_mul(const Jacobian<Curve>& p, const mpz_class& k) {
  Jacobian<Curve> r;
  for (size_t i = mpz_sizeinbase(k.get_mpz_t(), 2); i-- > 0;) {
    r = r.dbl();
    if (mpz_tstbit(k.get_mpz_t(), i)) r = r + p;
  }
  return r;
}

// Scalars at the edges of the reductions inside g1_mul / g2_mul (all below 2^256).
std::vector<mpz_class> edge_scalars() {
  const mpz_class r = group_order();
  const mpz_class ax = -bls_x();  // |x|
  const mpz_class lambda("73eda753299d7d483339d80809a1d804a7780001fffcb7fcfffffffe00000001", 16);
  const mpz_class two256 = mpz_class(1) << 256;
  std::vector<mpz_class> v = {0,
                              1,
                              2,
                              3,
                              r - 1,
                              r,
                              r + 1,
                              (r - 1) / 2,
                              2 * r - 1,
                              2 * r,
                              2 * r + 1,
                              two256 - 1,
                              two256 - r,
                              mpz_class(1) << 255,
                              (mpz_class(1) << 128) - 1,
                              mpz_class(1) << 128,
                              ax * ax - 2,
                              ax * ax - 1,  // the GLV modulus x^2 - 1
                              ax * ax,
                              (ax * ax - 1) * (ax * ax - 1),
                              ax,
                              ax - 1,
                              ax + 1,
                              ax * ax * ax,
                              ax * ax * ax * ax - 1,
                              ax * ax * ax * ax,  // = r + x^2 - 1
                              lambda,
                              lambda + 1,
                              r - ax};
  for (const mpz_class& k : v) {
    if (k < 0 || k >= two256) throw std::logic_error("edge scalar out of range");
  }
  return v;
}

template <class Curve>
class CurvePoint : public ::testing::Test {
 protected:
  using Field = typename Curve::Field;
  using Jac = Jacobian<Curve>;
  using Aff = Affine<Curve>;
  using Xz = Xyzz<Curve>;
  using Ops = CurveOps<Curve>;

  Jac subgroup_point() { return random_subgroup_point<Curve>(rng_); }
  Aff curve_point() { return random_curve_point<Curve>(rng_); }
  Field lambda() { return random_nonzero<Field>(rng_); }
  // A mix of subgroup points and arbitrary curve points, as Jacobian with random Z.
  std::vector<Jac> mixed_points(int n) {
    std::vector<Jac> v;
    for (int i = 0; i < n; ++i) {
      const Jac p = i % 2 ? subgroup_point() : Jac::from_affine(curve_point());
      v.push_back(rescale(p, lambda()));
    }
    return v;
  }

  std::mt19937_64 rng_{std::is_same_v<Curve, G1Curve> ? 0x6101 : 0x6202};
};

TYPED_TEST_SUITE(CurvePoint, Curves, CurveNames);

TYPED_TEST(CurvePoint, GeneratorIsOnTheCurveAndHasOrderR) {
  using Jac = typename TestFixture::Jac;
  using Aff = typename TestFixture::Aff;
  const Aff g = Aff::generator();
  EXPECT_FALSE(g.is_identity());
  EXPECT_TRUE(g.is_on_curve());
  EXPECT_EQ(g.y.sqr(), g.x.sqr() * g.x + TypeParam::kB);
  const Jac gj = Jac::generator();
  EXPECT_TRUE(ref_mul(gj, group_order()).is_identity());
  EXPECT_EQ(ref_mul(gj, group_order() - 1), -gj);
  EXPECT_FALSE(ref_mul(gj, 2).is_identity());
}

TYPED_TEST(CurvePoint, JacobianAddMatchesAffineSlopeFormula) {
  const auto pts = this->mixed_points(40);
  for (size_t i = 0; i < pts.size(); ++i) {
    for (size_t j = i + 1; j < pts.size(); j += 5) {
      const auto sum = pts[i] + pts[j];
      const auto want = ref_add(ref_affine(pts[i]), ref_affine(pts[j]));
      ASSERT_TRUE(sum.is_on_curve()) << i << " + " << j;
      ASSERT_EQ(ref_affine(sum), want) << i << " + " << j;
      ASSERT_EQ(sum.to_affine(), want) << i << " + " << j;
    }
  }
}

TYPED_TEST(CurvePoint, JacobianDoublingMatchesAffineTangentFormula) {
  for (const auto& p : this->mixed_points(40)) {
    const auto a = ref_affine(p);
    const auto want = ref_add(a, a);
    ASSERT_EQ(ref_affine(p.dbl()), want);
    ASSERT_TRUE(p.dbl().is_on_curve());
    // Addition of two representatives of the same point must double.
    ASSERT_EQ(ref_affine(p + rescale(p, this->lambda())), want);
    ASSERT_EQ(ref_affine(p + p), want);
    ASSERT_EQ(ref_affine(p.add_mixed(a)), want);
  }
}

TYPED_TEST(CurvePoint, JacobianMixedAddMatchesFullAddAndAffineFormula) {
  using Jac = typename TestFixture::Jac;
  const auto pts = this->mixed_points(20);
  for (size_t i = 0; i + 1 < pts.size(); ++i) {
    const auto q = ref_affine(pts[i + 1]);
    const auto got = pts[i].add_mixed(q);
    ASSERT_EQ(ref_affine(got), ref_add(ref_affine(pts[i]), q)) << i;
    ASSERT_EQ(ref_affine(got), ref_affine(pts[i] + Jac::from_affine(q))) << i;
    ASSERT_TRUE(got.is_on_curve()) << i;
  }
}

TYPED_TEST(CurvePoint, PointPlusItsNegationIsIdentity) {
  for (const auto& p : this->mixed_points(10)) {
    const auto a = ref_affine(p);
    const auto q = rescale(-p, this->lambda());
    EXPECT_TRUE((p + (-p)).is_identity());
    EXPECT_TRUE((p + q).is_identity());
    EXPECT_TRUE((q + p).is_identity());
    EXPECT_TRUE((p - p).is_identity());
    EXPECT_TRUE(p.add_mixed(-a).is_identity());
    EXPECT_TRUE((-p).add_mixed(a).is_identity());
    const auto xa = to_xyzz(a, this->lambda());
    const auto xb = to_xyzz(-a, this->lambda());
    EXPECT_TRUE((xa + xb).is_identity());
    EXPECT_TRUE((xa + (-xa)).is_identity());
    EXPECT_TRUE(xa.add_mixed(-a).is_identity());
    EXPECT_TRUE(ref_add(a, -a).is_identity());  // sanity of the reference itself
  }
}

TYPED_TEST(CurvePoint, IdentityIsNeutralInEveryOperation) {
  using Jac = typename TestFixture::Jac;
  using Aff = typename TestFixture::Aff;
  using Xz = typename TestFixture::Xz;
  const Jac o = Jac::identity();
  const Aff oa = Aff::identity();
  const Xz ox = Xz::identity();
  EXPECT_TRUE(o.is_identity());
  EXPECT_TRUE(oa.is_identity());
  EXPECT_TRUE(ox.is_identity());
  EXPECT_TRUE(o.is_on_curve());
  EXPECT_TRUE(oa.is_on_curve());
  EXPECT_TRUE(o.dbl().is_identity());
  EXPECT_TRUE((o + o).is_identity());
  EXPECT_TRUE((-o).is_identity());
  EXPECT_TRUE(o.add_mixed(oa).is_identity());
  EXPECT_TRUE(o.to_affine().is_identity());
  EXPECT_TRUE(Jac::from_affine(oa).is_identity());
  EXPECT_TRUE((-oa).is_identity());
  EXPECT_TRUE(ox.dbl().is_identity());
  EXPECT_TRUE((ox + ox).is_identity());
  EXPECT_TRUE(ox.add_mixed(oa).is_identity());
  EXPECT_TRUE(ox.to_jacobian().is_identity());
  EXPECT_TRUE(ox.to_affine().is_identity());
  EXPECT_TRUE(Xz::from_affine(oa).is_identity());
  EXPECT_TRUE(scalar_mul_wnaf(o, BigInt<4>::from_u64(12345)).is_identity());
  EXPECT_TRUE(CurveOps<TypeParam>::endo_mul(o, BigInt<4>::from_u64(12345)).is_identity());
  for (const auto& p : this->mixed_points(6)) {
    const Aff a = ref_affine(p);
    EXPECT_EQ(ref_affine(p + o), a);
    EXPECT_EQ(ref_affine(o + p), a);
    EXPECT_EQ(ref_affine(p.add_mixed(oa)), a);
    EXPECT_EQ(ref_affine(o.add_mixed(a)), a);
    EXPECT_EQ(ref_add(a, oa), a);
    const Xz x = to_xyzz(a, this->lambda());
    EXPECT_EQ(x + ox, x);
    EXPECT_EQ(ox + x, x);
    EXPECT_EQ(x.add_mixed(oa), x);
    EXPECT_EQ(ref_affine(ox.add_mixed(a).to_jacobian()), a);
    EXPECT_NE(p, o);
    EXPECT_NE(o, p);
    EXPECT_NE(a, oa);
  }
}

TYPED_TEST(CurvePoint, XyzzOperationsAgreeWithJacobian) {
  const auto pts = this->mixed_points(40);
  for (size_t i = 0; i + 1 < pts.size(); ++i) {
    const auto a = ref_affine(pts[i]);
    const auto b = ref_affine(pts[i + 1]);
    const auto xa = to_xyzz(a, this->lambda());
    const auto xb = to_xyzz(b, this->lambda());
    ASSERT_EQ(ref_affine(xa.to_jacobian()), a) << i;
    ASSERT_EQ(xa.to_affine(), a) << i;
    ASSERT_EQ(ref_affine((xa + xb).to_jacobian()), ref_affine(pts[i] + pts[i + 1])) << i;
    ASSERT_EQ(ref_affine(xa.add_mixed(b).to_jacobian()), ref_affine(pts[i].add_mixed(b))) << i;
    ASSERT_EQ(ref_affine(xa.dbl().to_jacobian()), ref_affine(pts[i].dbl())) << i;
    // Doubling through the addition formulas (two representatives of one point).
    const auto xa2 = to_xyzz(a, this->lambda());
    ASSERT_EQ(ref_affine((xa + xa2).to_jacobian()), ref_add(a, a)) << i;
    ASSERT_EQ(ref_affine(xa.add_mixed(a).to_jacobian()), ref_add(a, a)) << i;
    ASSERT_TRUE((xa + xb).to_jacobian().is_on_curve()) << i;
    // Mixed comparisons.
    ASSERT_TRUE((xa + xb) == pts[i] + pts[i + 1]) << i;
    ASSERT_FALSE((xa + xb) == pts[i] + (-pts[i + 1])) << i;
  }
}

TYPED_TEST(CurvePoint, EqualityIgnoresTheRepresentative) {
  using Jac = typename TestFixture::Jac;
  for (const auto& p : this->mixed_points(10)) {
    const Jac q = rescale(p, this->lambda());
    const auto a = ref_affine(p);
    EXPECT_TRUE(p == q);
    EXPECT_TRUE(q == p);
    EXPECT_TRUE(p == a);
    EXPECT_TRUE(q == a);
    EXPECT_FALSE(p == -q);  // same x, other y
    EXPECT_FALSE(p == q.dbl());
    EXPECT_FALSE(p == Jac::identity());
    EXPECT_FALSE(a == -a);
    const auto x1 = to_xyzz(a, this->lambda());
    const auto x2 = to_xyzz(a, this->lambda());
    EXPECT_TRUE(x1 == x2);
    EXPECT_TRUE(x1 == q);
    EXPECT_FALSE(x1 == -x2);
    EXPECT_FALSE(x1 == -q);
  }
  // Z = 0 is the identity whatever X and Y hold.
  Jac junk_identity = Jac::generator();
  junk_identity.Z = typename TestFixture::Field{};
  EXPECT_TRUE(junk_identity.is_identity());
  EXPECT_TRUE(junk_identity == Jac::identity());
}

TYPED_TEST(CurvePoint, BatchToAffineMatchesPerPointConversionIncludingIdentities) {
  using Jac = typename TestFixture::Jac;
  using Aff = typename TestFixture::Aff;
  for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{17}}) {
    std::vector<Jac> in = this->mixed_points(static_cast<int>(n));
    for (size_t i = 0; i < n; i += 4)
      in[i] = Jac::identity();
    if (n > 1) in[n - 1] = Jac::identity();
    std::vector<Aff> out(n);
    batch_to_affine(std::span<const Jac>(in), std::span<Aff>(out));
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], in[i].to_affine()) << "n = " << n << ", i = " << i;
      ASSERT_EQ(out[i], ref_affine(in[i])) << "n = " << n << ", i = " << i;
      ASSERT_EQ(out[i].is_identity(), in[i].is_identity()) << "n = " << n << ", i = " << i;
    }
  }
}

TYPED_TEST(CurvePoint, EndomorphismMulMatchesWnafOnRandomAndEdgeScalars) {
  using Ops = typename TestFixture::Ops;
  auto& rng = this->rng_;
  for (int i = 0; i < 40; ++i) {
    const auto p = rescale(this->subgroup_point(), this->lambda());
    BigInt<4> k;
    for (auto& w : k.w)
      w = rng();
    ASSERT_EQ(Ops::endo_mul(p, k), scalar_mul_wnaf(p, k)) << "k = " << ec_test::to_mpz(k);
    const Fr kf = Fr::random(rng);
    ASSERT_EQ(Ops::endo_mul(p, kf.to_canonical()), scalar_mul_wnaf(p, kf.to_canonical()));
  }
  const auto p = this->subgroup_point();
  const auto g = TestFixture::Jac::generator();
  for (const mpz_class& e : edge_scalars()) {
    const BigInt<4> k = from_mpz<4>(e);
    const auto want = scalar_mul_wnaf(p, k);
    ASSERT_EQ(Ops::endo_mul(p, k), want) << "k = 0x" << e.get_str(16);
    ASSERT_EQ(Ops::endo_mul(g, k), scalar_mul_wnaf(g, k)) << "k = 0x" << e.get_str(16);
    // Against the independent double-and-add as well.
    ASSERT_EQ(want, ref_mul(p, e)) << "k = 0x" << e.get_str(16);
  }
}

TYPED_TEST(CurvePoint, GroupOrderAnnihilatesSubgroupPoints) {
  using Ops = typename TestFixture::Ops;
  const BigInt<4> r = from_mpz<4>(group_order());
  const BigInt<4> r1 = from_mpz<4>(group_order() + 1);
  for (int i = 0; i < 4; ++i) {
    const auto p = this->subgroup_point();
    ASSERT_FALSE(p.is_identity());
    ASSERT_TRUE(scalar_mul_wnaf(p, r).is_identity());
    ASSERT_EQ(scalar_mul_wnaf(p, r1), p);
    ASSERT_TRUE(Ops::endo_mul(p, r).is_identity());
  }
}

TYPED_TEST(CurvePoint, WnafMulDistributesOverScalarAddition) {
  auto& rng = this->rng_;
  for (int i = 0; i < 12; ++i) {
    // Subgroup and non-subgroup points; scalars of the full 256-bit range, summed without any
    // reduction (a + b needs 257 bits).
    const auto p =
        i % 2 ? this->subgroup_point()
              : rescale(TestFixture::Jac::from_affine(this->curve_point()), this->lambda());
    BigInt<4> a, b;
    for (auto& w : a.w)
      w = rng();
    for (auto& w : b.w)
      w = rng();
    const mpz_class sum = ec_test::to_mpz(a) + ec_test::to_mpz(b);
    const auto lhs = scalar_mul_wnaf(p, from_mpz<5>(sum));
    ASSERT_EQ(lhs, scalar_mul_wnaf(p, a) + scalar_mul_wnaf(p, b)) << i;
    ASSERT_EQ(lhs, ref_mul(p, sum)) << i;
  }
}

TYPED_TEST(CurvePoint, WnafMulMatchesBinaryDoubleAndAdd) {
  const auto p = rescale(TestFixture::Jac::from_affine(this->curve_point()), this->lambda());
  for (uint64_t k = 0; k < 70; ++k) {
    ASSERT_EQ(scalar_mul_wnaf(p, BigInt<1>::from_u64(k)), ref_mul(p, mpz_class(k))) << k;
  }
  for (int i = 0; i < 4; ++i) {
    BigInt<6> k;
    for (auto& w : k.w)
      w = this->rng_();
    if (i == 0) k.w[5] = ~uint64_t{0};  // top digit carries
    ASSERT_EQ(scalar_mul_wnaf(p, k), ref_mul(p, ec_test::to_mpz(k))) << i;
  }
  // Digits around the window boundaries: 2^j - 1, 2^j, 2^j + 1.
  for (unsigned j = 1; j < 70; j += 3) {
    for (int d = -1; d <= 1; ++d) {
      const mpz_class k = (mpz_class(1) << j) + d;
      ASSERT_EQ(scalar_mul_wnaf(p, from_mpz<2>(k)), ref_mul(p, k)) << "2^" << j << " + " << d;
    }
  }
}

TYPED_TEST(CurvePoint, SubgroupCheckAcceptsSubgroupPointsAndIdentity) {
  using Ops = typename TestFixture::Ops;
  using Jac = typename TestFixture::Jac;
  for (int i = 0; i < 6; ++i) {
    const Jac p = rescale(this->subgroup_point(), this->lambda());
    EXPECT_TRUE(Ops::in_subgroup(p));
    EXPECT_TRUE(Ops::in_subgroup(p.to_affine()));
  }
  EXPECT_TRUE(Ops::in_subgroup(Jac::identity()));
  EXPECT_TRUE(Ops::in_subgroup(Jac::generator()));
  // Off the curve: not in any subgroup.
  Jac off = this->subgroup_point();
  off.Y = off.Y + TestFixture::Field::one();
  EXPECT_FALSE(off.is_on_curve());
  EXPECT_FALSE(Ops::in_subgroup(off));
}

TYPED_TEST(CurvePoint, SubgroupCheckRejectsRandomCurvePointsLikeTheNaiveCheck) {
  using Ops = typename TestFixture::Ops;
  using Jac = typename TestFixture::Jac;
  const BigInt<4> r = from_mpz<4>(group_order());
  for (int i = 0; i < 16; ++i) {
    const auto a = this->curve_point();
    ASSERT_TRUE(a.is_on_curve());
    const Jac p = rescale(Jac::from_affine(a), this->lambda());
    ASSERT_FALSE(scalar_mul_wnaf(p, r).is_identity()) << "naive check: [r]P != O";
    ASSERT_FALSE(Ops::in_subgroup(p));
    ASSERT_FALSE(Ops::in_subgroup(a));
  }
}

TYPED_TEST(CurvePoint, SubgroupCheckRejectsEveryTorsionComponent) {
  // For each prime l of the cofactor h, a point T of order l: T and T + G lie outside G.
  using Ops = typename TestFixture::Ops;
  using Jac = typename TestFixture::Jac;
  const mpz_class r = group_order();
  const mpz_class h = Ops::cofactor();
  std::vector<mpz_class> primes;
  if (std::is_same_v<TypeParam, G1Curve>) {
    primes = {3, 11, 10177, 859267, 52437899};
  } else {
    primes = {13, 23, 2713, 11953, 262069};
    mpz_class big = h;
    for (const mpz_class& l : primes) {
      while (big % l == 0)
        big /= l;
    }
    ASSERT_GT(mpz_probab_prime_p(big.get_mpz_t(), 30), 0) << "large factor of h2";
    primes.push_back(big);
  }
  mpz_class rest = h;
  for (const mpz_class& l : primes) {
    ASSERT_NE(mpz_divisible_p(h.get_mpz_t(), l.get_mpz_t()), 0) << l;
    while (mpz_divisible_p(rest.get_mpz_t(), l.get_mpz_t()))
      rest /= l;
  }
  ASSERT_EQ(rest, 1) << "the primes do not cover the cofactor";
  for (const mpz_class& l : primes) {
    // Project onto the l-primary part ([r h / l^v], v the valuation of l in h), then multiply
    // by l until the order is exactly l (the l-part may be Z/l x Z/l or Z/l^2).
    mpz_class co = r * h;
    while (mpz_divisible_p(co.get_mpz_t(), l.get_mpz_t()))
      co /= l;
    Jac t;
    for (int tries = 0; tries < 20 && t.is_identity(); ++tries) {
      t = ec_test::mul(Jac::from_affine(this->curve_point()), co);
    }
    ASSERT_FALSE(t.is_identity()) << "l = " << l;
    while (!ec_test::mul(t, l).is_identity())
      t = ec_test::mul(t, l);
    ASSERT_FALSE(t.is_identity()) << "l = " << l;
    ASSERT_TRUE(t.is_on_curve()) << "l = " << l;
    EXPECT_FALSE(Ops::in_subgroup(t)) << "l = " << l;
    const Jac mixed = t + this->subgroup_point();
    EXPECT_FALSE(Ops::in_subgroup(mixed)) << "l = " << l;
    EXPECT_FALSE(ec_test::mul(mixed, r).is_identity()) << "l = " << l;
  }
}

TYPED_TEST(CurvePoint, ClearCofactorMapsIntoTheSubgroupAsTheEffectiveCofactor) {
  using Ops = typename TestFixture::Ops;
  using Jac = typename TestFixture::Jac;
  const BigInt<4> r = from_mpz<4>(group_order());
  const mpz_class h_eff = Ops::effective_cofactor();
  for (int i = 0; i < 4; ++i) {
    const Jac p = rescale(Jac::from_affine(this->curve_point()), this->lambda());
    const Jac c = Ops::clear_cofactor(p);
    ASSERT_FALSE(c.is_identity());
    ASSERT_TRUE(c.is_on_curve());
    ASSERT_TRUE(scalar_mul_wnaf(c, r).is_identity()) << "naive check on the output";
    ASSERT_TRUE(Ops::in_subgroup(c));
    ASSERT_EQ(c, ec_test::mul(p, h_eff)) << "clear_cofactor(P) must be [h_eff] P";
  }
  EXPECT_TRUE(Ops::clear_cofactor(Jac::identity()).is_identity());
  const Jac g = Jac::generator();
  EXPECT_EQ(Ops::clear_cofactor(g), ec_test::mul(g, h_eff % group_order()));
}

TYPED_TEST(CurvePoint, MsmNaiveMatchesExplicitSum) {
  using Jac = typename TestFixture::Jac;
  using Aff = typename TestFixture::Aff;
  auto& rng = this->rng_;
  for (size_t n = 0; n <= 5; ++n) {
    std::vector<Aff> points;
    std::vector<BigInt<4>> scalars;
    Jac want;
    for (size_t i = 0; i < n; ++i) {
      Aff p = i % 2 ? this->subgroup_point().to_affine() : this->curve_point();
      BigInt<4> k;
      for (auto& w : k.w)
        w = rng();
      if (i == 2) p = Aff::identity();
      if (i == 3) k = BigInt<4>{};
      points.push_back(p);
      scalars.push_back(k);
      want = want + ref_mul(Jac::from_affine(p), ec_test::to_mpz(k));
    }
    const Jac got =
        msm_naive<TypeParam>(std::span<const Aff>(points), std::span<const BigInt<4>>(scalars));
    ASSERT_EQ(got, want) << "n = " << n;
  }
  std::vector<Aff> two(2, Aff::generator());
  std::vector<BigInt<4>> one(1);
  EXPECT_THROW((msm_naive<TypeParam>(std::span<const Aff>(two), std::span<const BigInt<4>>(one))),
               std::invalid_argument);
}

// ---- curve-specific endomorphisms ----

TEST(G1, EndomorphismActsAsMultiplicationByLambda) {
  // lambda = -x^2 mod r
  const mpz_class lambda("73eda753299d7d483339d80809a1d804a7780001fffcb7fcfffffffe00000001", 16);
  const mpz_class x = bls_x();
  ASSERT_EQ(lambda, ((-x * x) % group_order() + group_order()) % group_order());
  std::mt19937_64 rng(0x6103);
  std::vector<G1Jacobian> pts = {G1Jacobian::generator()};
  for (int i = 0; i < 5; ++i) {
    pts.push_back(rescale(random_subgroup_point<G1Curve>(rng), random_nonzero<Fp>(rng)));
  }
  for (const auto& p : pts) {
    EXPECT_EQ(g1_endomorphism(p), scalar_mul_wnaf(p, from_mpz<4>(lambda)));
    EXPECT_TRUE(g1_endomorphism(p).is_on_curve());
  }
  // On the whole curve phi is an automorphism of order 3: phi^3 = id, phi != id.
  const auto q = G1Jacobian::from_affine(random_curve_point<G1Curve>(rng));
  EXPECT_EQ(g1_endomorphism(g1_endomorphism(g1_endomorphism(q))), q);
  EXPECT_NE(g1_endomorphism(q), q);
  EXPECT_TRUE(g1_endomorphism(G1Jacobian::identity()).is_identity());
}

TEST(G1, PointsOfOrderThreeAreRejectedBySubgroupCheck) {
  // x = 0 gives the inflection points (0, +-2), of order 3.
  for (const Fp& y : {Fp::from_u64(2), -Fp::from_u64(2)}) {
    const G1Affine t = G1Affine::from_xy(Fp::zero(), y);
    ASSERT_TRUE(t.is_on_curve());
    const G1Jacobian tj = G1Jacobian::from_affine(t);
    ASSERT_TRUE(scalar_mul_wnaf(tj, BigInt<1>::from_u64(3)).is_identity());
    EXPECT_FALSE(g1_is_in_subgroup(t));
    EXPECT_FALSE(g1_is_in_subgroup(tj + G1Jacobian::generator()));
    EXPECT_TRUE(g1_clear_cofactor(tj).is_identity());  // [1 - x] kills 3-torsion: 3 | 1 - x
  }
}

TEST(G2, PsiActsAsMultiplicationByX) {
  std::mt19937_64 rng(0x6203);
  std::vector<G2Jacobian> pts = {G2Jacobian::generator()};
  for (int i = 0; i < 5; ++i) {
    pts.push_back(rescale(random_subgroup_point<G2Curve>(rng), random_nonzero<Fp2>(rng)));
  }
  const BigInt<1> x_abs = BigInt<1>::from_u64(kBlsXAbs);
  ASSERT_EQ(ec_test::to_mpz(x_abs), -bls_x());
  for (const auto& p : pts) {
    const G2Jacobian want = -scalar_mul_wnaf(p, x_abs);  // [x] P with x = -|x|
    EXPECT_EQ(g2_psi(p), want);
    EXPECT_EQ(g2_psi(p), ec_test::mul(p, bls_x() + group_order()));
    EXPECT_TRUE(g2_psi(p).is_on_curve());
  }
  EXPECT_TRUE(g2_psi(G2Jacobian::identity()).is_identity());
}

TEST(G2, PsiSatisfiesTheFrobeniusCharacteristicPolynomialOnTheWholeTwist) {
  // psi^2 - t psi + p = 0 with trace t = x + 1, for every point of E'(Fp2).
  std::mt19937_64 rng(0x6204);
  const mpz_class t = bls_x() + 1;
  const mpz_class p = ec_test::to_mpz(Fp::kModulus);
  for (int i = 0; i < 3; ++i) {
    const G2Jacobian q = rescale(G2Jacobian::from_affine(random_curve_point<G2Curve>(rng)),
                                 random_nonzero<Fp2>(rng));
    const G2Jacobian psi_q = g2_psi(q);
    EXPECT_TRUE(psi_q.is_on_curve());
    const G2Jacobian lhs = g2_psi(psi_q) + ec_test::mul(psi_q, -t) + ec_test::mul(q, p);  // t < 0
    EXPECT_TRUE(lhs.is_identity()) << i;
  }
}

}  // namespace
}  // namespace cuzk
