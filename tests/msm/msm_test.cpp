// msm_pippenger against msm_naive: every size 1..64 and larger powers of two, both bucket modes,
// chunked windows, 1/2/4 threads, edge scalars, identity and repeated bases, the 0/1 fast path.
#include "msm/msm.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/curve_types.hpp"
#include "msm_test_util.hpp"

namespace cuzk {
namespace {

using msm_test::naive;
using msm_test::random_bases;
using msm_test::random_scalars;

template <class Curve>
class MsmPippenger : public ::testing::Test {
 protected:
  ThreadPool one_{1}, two_{2}, four_{4};

  // Every path must give `want`: the planner's choice on 1, 2 and 4 threads, each bucket mode
  // forced, a forced chunk split, and the fast path off; Fr and canonical scalars alike.
  void expect_all_paths(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars,
                        const Jacobian<Curve>& want, const std::string& what) {
    const std::vector<BigInt<4>> canon = msm_test::canonical(scalars);
    MsmConfig xyzz, affine, chunked, slow;
    xyzz.buckets = BucketMode::kXyzz;
    affine.buckets = BucketMode::kBatchAffine;
    chunked.chunks = 3;
    slow.trivial_fast_path = false;
    EXPECT_EQ(msm_pippenger<Curve>(bases, scalars, one_), want) << what << " auto, 1 thread";
    EXPECT_EQ(msm_pippenger<Curve>(bases, scalars, two_), want) << what << " auto, 2 threads";
    EXPECT_EQ(msm_pippenger<Curve>(bases, scalars, four_), want) << what << " auto, 4 threads";
    EXPECT_EQ(msm_pippenger<Curve>(bases, scalars, two_, xyzz), want) << what << " xyzz";
    EXPECT_EQ(msm_pippenger<Curve>(bases, scalars, two_, affine), want) << what << " affine";
    EXPECT_EQ(msm_pippenger<Curve>(bases, scalars, four_, chunked), want) << what << " chunked";
    EXPECT_EQ(msm_pippenger<Curve>(bases, scalars, two_, slow), want) << what << " no fast path";
    EXPECT_EQ(msm_pippenger<Curve>(bases, std::span<const BigInt<4>>(canon), two_), want)
        << what << " canonical scalars";
  }
};

TYPED_TEST_SUITE(MsmPippenger, Curves, CurveNames);

TYPED_TEST(MsmPippenger, MatchesNaiveForEverySizeFrom1To64) {
  std::mt19937_64 rng(1);
  const auto bases = random_bases<TypeParam>(64, rng);
  for (size_t n = 1; n <= 64; ++n) {
    const std::span<const Affine<TypeParam>> b(bases.data(), n);
    const std::vector<Fr> s = random_scalars(n, rng);
    this->expect_all_paths(b, s, naive<TypeParam>(b, s), "n=" + std::to_string(n));
  }
}

TYPED_TEST(MsmPippenger, MatchesNaiveAtPowersOfTwo) {
  std::mt19937_64 rng(2);
  // G2 points cost ~3x as much; 2^10 there keeps the suite fast.
  const std::vector<size_t> sizes = std::is_same_v<TypeParam, G1Curve>
                                        ? std::vector<size_t>{1 << 10, 1 << 12}
                                        : std::vector<size_t>{1 << 10};
  for (size_t n : sizes) {
    const auto b = random_bases<TypeParam>(n, rng);
    const std::vector<Fr> s = random_scalars(n, rng);
    this->expect_all_paths(b, s, naive<TypeParam>(b, s), "n=" + std::to_string(n));
  }
}

TYPED_TEST(MsmPippenger, ForcedWindowWidthsFrom1To16AllAgree) {
  std::mt19937_64 rng(3);
  const auto b = random_bases<TypeParam>(100, rng);
  const std::vector<Fr> s = random_scalars(100, rng);
  const Jacobian<TypeParam> want = naive<TypeParam>(b, s);
  // Every width on G1; on G2 (3x the cost per point) a spread that keeps the suite fast.
  const std::vector<unsigned> widths =
      std::is_same_v<TypeParam, G1Curve>
          ? std::vector<unsigned>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
          : std::vector<unsigned>{1, 2, 3, 5, 8, 12, 16};
  for (unsigned c : widths) {
    for (BucketMode mode : {BucketMode::kXyzz, BucketMode::kBatchAffine}) {
      MsmConfig cfg;
      cfg.window_bits = c;
      cfg.buckets = mode;
      EXPECT_EQ(msm_pippenger<TypeParam>(b, s, this->two_, cfg), want) << "c=" << c;
    }
  }
}

TYPED_TEST(MsmPippenger, EdgeScalarsZeroOneTwoAndRMinusOne) {
  std::mt19937_64 rng(4);
  const Fr r_minus_1 = -Fr::one();
  const std::vector<Fr> edges = {Fr::zero(),
                                 Fr::one(),
                                 Fr::from_u64(2),
                                 r_minus_1,
                                 r_minus_1 - Fr::one(),
                                 Fr::from_u64(3),
                                 Fr::from_u64(1ull << 63)};
  const auto b = random_bases<TypeParam>(edges.size() * 5, rng);
  std::vector<Fr> s;
  for (size_t i = 0; i < b.size(); ++i)
    s.push_back(edges[i % edges.size()]);
  this->expect_all_paths(b, s, naive<TypeParam>(b, s), "edge scalars");
  // Each edge value alone, on every base.
  for (const Fr& e : edges) {
    const std::vector<Fr> same(b.size(), e);
    this->expect_all_paths(b, same, naive<TypeParam>(b, same), "all " + e.to_hex());
  }
}

TYPED_TEST(MsmPippenger, SmallScalarsUseFewerWindowsAndStillMatch) {
  std::mt19937_64 rng(5);
  const auto b = random_bases<TypeParam>(300, rng);
  for (unsigned bits : {2u, 5u, 8u, 20u, 64u}) {
    std::vector<Fr> s(b.size());
    for (auto& x : s)
      x = Fr::from_u64(rng() & ((uint64_t{1} << bits) - 1));
    this->expect_all_paths(b, s, naive<TypeParam>(b, s), "bits=" + std::to_string(bits));
  }
}

TYPED_TEST(MsmPippenger, AllZeroScalarsGiveTheIdentity) {
  std::mt19937_64 rng(6);
  const auto b = random_bases<TypeParam>(200, rng);
  const std::vector<Fr> s(b.size(), Fr::zero());
  this->expect_all_paths(b, s, Jacobian<TypeParam>::identity(), "all zero");
  EXPECT_TRUE(msm_pippenger<TypeParam>(b, s, this->two_).is_identity());
}

TYPED_TEST(MsmPippenger, EmptyInputGivesTheIdentity) {
  EXPECT_TRUE(msm_pippenger<TypeParam>(std::span<const Affine<TypeParam>>(), std::span<const Fr>(),
                                       this->two_)
                  .is_identity());
}

TYPED_TEST(MsmPippenger, IdentityBasesContributeNothing) {
  std::mt19937_64 rng(7);
  auto b = random_bases<TypeParam>(150, rng);
  for (size_t i = 0; i < b.size(); i += 3)
    b[i] = Affine<TypeParam>::identity();
  std::vector<Fr> s = random_scalars(b.size(), rng);
  for (size_t i = 0; i < s.size(); i += 5)
    s[i] = Fr::one();  // the fast path meets identities too
  this->expect_all_paths(b, s, naive<TypeParam>(b, s), "identity bases");
  const std::vector<Affine<TypeParam>> all_identity(50);
  const std::vector<Fr> s50 = random_scalars(50, rng);
  this->expect_all_paths(all_identity, s50, Jacobian<TypeParam>::identity(), "all identity");
}

TYPED_TEST(MsmPippenger, RepeatedBasesAndNegatedPairs) {
  // Equal points landing in one bucket force the doubling branches, P and -P the cancelling ones.
  std::mt19937_64 rng(8);
  const auto pts = random_bases<TypeParam>(3, rng);
  std::vector<Affine<TypeParam>> b;
  for (int i = 0; i < 40; ++i) {
    b.push_back(pts[0]);
    b.push_back(-pts[0]);
    b.push_back(pts[1]);
    b.push_back(pts[i % 3]);
  }
  const Fr k = Fr::random(rng);
  const std::vector<Fr> same(b.size(), k);
  this->expect_all_paths(b, same, naive<TypeParam>(b, same), "equal scalars");
  std::vector<Fr> few(b.size());
  for (size_t i = 0; i < few.size(); ++i)
    few[i] = i % 2 ? k : Fr::from_u64(rng() % 4 + 2);
  this->expect_all_paths(b, few, naive<TypeParam>(b, few), "few distinct scalars");
  const std::vector<Fr> s = random_scalars(b.size(), rng);
  this->expect_all_paths(b, s, naive<TypeParam>(b, s), "random scalars");
}

TYPED_TEST(MsmPippenger, MixedZeroOneAndRandomScalarsTakeTheFastPath) {
  std::mt19937_64 rng(9);
  const auto b = random_bases<TypeParam>(700, rng);
  for (int percent_trivial : {0, 50, 90, 100}) {
    std::vector<Fr> s(b.size());
    for (auto& x : s) {
      const int roll = static_cast<int>(rng() % 100);
      x = roll >= percent_trivial ? Fr::random(rng) : (rng() % 2 ? Fr::one() : Fr::zero());
    }
    this->expect_all_paths(b, s, naive<TypeParam>(b, s), std::to_string(percent_trivial) + "% 0/1");
  }
  const std::vector<Fr> ones(b.size(), Fr::one());
  this->expect_all_paths(b, ones, naive<TypeParam>(b, ones), "all one");
}

TYPED_TEST(MsmPippenger, RejectsMismatchedLengthsAndOverwideScalars) {
  std::mt19937_64 rng(10);
  const auto b = random_bases<TypeParam>(4, rng);
  const std::vector<Fr> s = random_scalars(3, rng);
  EXPECT_THROW(msm_pippenger<TypeParam>(b, s, this->two_), std::invalid_argument);
  std::vector<BigInt<4>> wide(4);
  wide[2].w[3] = uint64_t{1} << 63;
  EXPECT_THROW(msm_pippenger<TypeParam>(b, std::span<const BigInt<4>>(wide), this->two_),
               std::invalid_argument);
}

TYPED_TEST(MsmPippenger, CanonicalScalarsAboveRMultiplyAsIntegers) {
  std::mt19937_64 rng(11);
  const auto b = random_bases<TypeParam>(20, rng);
  std::vector<BigInt<4>> s(b.size());
  for (auto& k : s) {
    k = msm_test::random_u256(rng);
    k.w[3] &= ~(uint64_t{1} << 63);  // below 2^255, often above r
  }
  const Jacobian<TypeParam> want = msm_naive<TypeParam, 4>(b, std::span<const BigInt<4>>(s));
  EXPECT_EQ(msm_pippenger<TypeParam>(b, std::span<const BigInt<4>>(s), this->two_), want);
}

TEST(MsmPippengerThreads, ResultsAreTheSamePointFor1To4ThreadsAndAnyChunking) {
  std::mt19937_64 rng(12);
  const auto b = random_bases<G1Curve>(3000, rng);
  const std::vector<Fr> s = random_scalars(b.size(), rng);
  const G1Jacobian want = naive<G1Curve>(b, s);
  for (unsigned threads : {1u, 2u, 4u}) {
    ThreadPool pool(threads);
    for (unsigned chunks : {0u, 1u, 2u, 5u, 16u, 5000u}) {  // 5000 > n: some chunks are empty
      MsmConfig cfg;
      cfg.chunks = chunks;
      EXPECT_EQ(msm_pippenger<G1Curve>(b, s, pool, cfg), want)
          << threads << " threads, " << chunks << " chunks";
    }
  }
}

}  // namespace
}  // namespace cuzk
