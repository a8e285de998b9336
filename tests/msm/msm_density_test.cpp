// The density-filtered MSM against the naive sum over the selected indices (bellperson's
// multiexp with a DensityTracker: the k-th set bit's scalar takes the k-th base).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "msm/msm.hpp"
#include "msm_test_util.hpp"

namespace cuzk {
namespace {

using msm_test::naive;
using msm_test::random_bases;
using msm_test::random_scalars;

DensityTracker random_density(size_t n, int percent, std::mt19937_64& rng) {
  DensityTracker d;
  for (size_t i = 0; i < n; ++i) {
    d.add_element();
    if (static_cast<int>(rng() % 100) < percent) d.set(i);
  }
  return d;
}

template <class Curve>
void check_density(size_t n, int percent, std::mt19937_64& rng, ThreadPool& pool) {
  const DensityTracker density = random_density(n, percent, rng);
  const auto bases = random_bases<Curve>(density.popcount(), rng);
  std::vector<Fr> s = random_scalars(n, rng);
  for (size_t i = 0; i < n; i += 3)
    s[i] = rng() % 2 ? Fr::one() : Fr::zero();  // bits, as witnesses mostly are
  std::vector<Fr> selected;
  for (size_t i = 0; i < n; ++i)
    if (density.get(i)) selected.push_back(s[i]);
  const Jacobian<Curve> want = naive<Curve>(bases, selected);
  const std::string what = "n=" + std::to_string(n) + " density " + std::to_string(percent) + "%";
  EXPECT_EQ(msm_pippenger<Curve>(bases, density, s, pool), want) << what;
  const std::vector<BigInt<4>> canon = msm_test::canonical(s);
  EXPECT_EQ(msm_pippenger<Curve>(bases, density, std::span<const BigInt<4>>(canon), pool), want)
      << what << " canonical";
  MsmConfig affine;
  affine.buckets = BucketMode::kBatchAffine;
  affine.trivial_fast_path = false;
  EXPECT_EQ(msm_pippenger<Curve>(bases, density, s, pool, affine), want) << what << " affine";
}

TEST(MsmDensity, EqualsTheNaiveSumOverTheSelectedIndicesOnG1) {
  std::mt19937_64 rng(21);
  ThreadPool pool(2);
  for (size_t n :
       {size_t{1}, size_t{5}, size_t{63}, size_t{64}, size_t{65}, size_t{130}, size_t{1000}}) {
    for (int percent : {0, 10, 50, 90, 100})
      check_density<G1Curve>(n, percent, rng, pool);
  }
}

TEST(MsmDensity, EqualsTheNaiveSumOverTheSelectedIndicesOnG2) {
  std::mt19937_64 rng(22);
  ThreadPool pool(2);
  for (size_t n : {size_t{7}, size_t{64}, size_t{200}}) {
    for (int percent : {0, 30, 100})
      check_density<G2Curve>(n, percent, rng, pool);
  }
}

TEST(MsmDensity, UnselectedScalarsAreIgnoredWhateverTheirValue) {
  std::mt19937_64 rng(23);
  ThreadPool pool(2);
  const DensityTracker density = random_density(300, 40, rng);
  const auto bases = random_bases<G1Curve>(density.popcount(), rng);
  std::vector<Fr> s = random_scalars(300, rng);
  const G1Jacobian first = msm_pippenger<G1Curve>(bases, density, s, pool);
  for (size_t i = 0; i < s.size(); ++i)
    if (!density.get(i)) s[i] = Fr::random(rng);
  EXPECT_EQ(msm_pippenger<G1Curve>(bases, density, s, pool), first);
}

TEST(MsmDensity, SameResultOn1To4Threads) {
  std::mt19937_64 rng(24);
  const DensityTracker density = random_density(2000, 70, rng);
  const auto bases = random_bases<G1Curve>(density.popcount(), rng);
  const std::vector<Fr> s = random_scalars(2000, rng);
  ThreadPool one(1);
  const G1Jacobian want = msm_pippenger<G1Curve>(bases, density, s, one);
  for (unsigned threads : {2u, 4u}) {
    ThreadPool pool(threads);
    EXPECT_EQ(msm_pippenger<G1Curve>(bases, density, s, pool), want) << threads;
  }
}

TEST(MsmDensity, RejectsScalarsOrBasesThatDoNotFitTheMask) {
  std::mt19937_64 rng(25);
  ThreadPool pool(1);
  const DensityTracker density = random_density(100, 50, rng);
  const auto bases = random_bases<G1Curve>(density.popcount(), rng);
  const std::vector<Fr> s = random_scalars(100, rng);
  const std::vector<Fr> short_s(s.begin(), s.end() - 1);
  EXPECT_THROW(msm_pippenger<G1Curve>(bases, density, short_s, pool), std::invalid_argument);
  const std::span<const G1Affine> fewer(bases.data(), bases.size() - 1);
  EXPECT_THROW(msm_pippenger<G1Curve>(fewer, density, s, pool), std::invalid_argument);
  auto more = bases;
  more.push_back(G1Affine::generator());
  EXPECT_THROW(msm_pippenger<G1Curve>(more, density, s, pool), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk
