// The two bucket accumulators are twins: for any window of any input, batch-affine (at any
// batch size, so with many flushes, collisions, doublings and cancellations) equals XYZZ.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "msm/bucket_affine.hpp"
#include "msm/bucket_xyzz.hpp"
#include "msm_test_util.hpp"

namespace cuzk {
namespace {

template <class Curve>
void expect_twins(const std::vector<Affine<Curve>>& bases, const std::vector<Fr>& scalars,
                  unsigned c, const char* what) {
  unsigned bits = 0;
  std::vector<BigInt<4>> k(scalars.size());
  for (size_t i = 0; i < k.size(); ++i) {
    k[i] = scalars[i].to_canonical();
    bits = std::max(bits, static_cast<unsigned>(k[i].num_bits()));
  }
  const SignedWindows sw(c, bits);
  for (auto& x : k)
    x = sw.prepare(x);
  std::vector<uint32_t> idx(k.size());
  for (size_t i = 0; i < idx.size(); ++i)
    idx[i] = static_cast<uint32_t>(i);
  for (unsigned w = 0; w < sw.num_windows(); ++w) {
    const Xyzz<Curve> want = window_sum_xyzz<Curve>(sw, w, k, idx, bases);
    for (size_t batch : {1, 2, 3, 16, 0}) {
      const Xyzz<Curve> got = window_sum_batch_affine<Curve>(sw, w, k, idx, bases, batch);
      ASSERT_EQ(got.to_jacobian(), want.to_jacobian())
          << what << ": window " << w << " batch " << batch;
    }
  }
}

template <class Curve>
void run_twin_cases(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto pts = msm_test::random_bases<Curve>(200, rng);
  expect_twins<Curve>(pts, msm_test::random_scalars(pts.size(), rng), 6, "random");

  // One point many times with one scalar: the first fills the bucket, the next is a doubling,
  // the rest collide; after each flush the pattern repeats on the doubled bucket.
  const std::vector<Affine<Curve>> same(60, pts[0]);
  const Fr k = Fr::random(rng);
  expect_twins<Curve>(same, std::vector<Fr>(same.size(), k), 5, "one point");

  // P, -P, P, -P...: bucket additions that cancel to the identity and refill.
  std::vector<Affine<Curve>> alternating;
  for (int i = 0; i < 60; ++i)
    alternating.push_back(i % 2 ? -pts[1] : pts[1]);
  expect_twins<Curve>(alternating, std::vector<Fr>(alternating.size(), k), 5, "P, -P");

  // A few points, a few small scalars, identities mixed in.
  std::vector<Affine<Curve>> few;
  std::vector<Fr> small;
  for (int i = 0; i < 150; ++i) {
    few.push_back(i % 11 == 0 ? Affine<Curve>::identity() : pts[rng() % 3]);
    small.push_back(Fr::from_u64(rng() % 9));
    if (rng() % 4 == 0) few.back() = -few.back();
  }
  expect_twins<Curve>(few, small, 3, "few points, small scalars");
}

TEST(BucketAccumulators, BatchAffineEqualsXyzzOnEveryWindowOnG1) {
  run_twin_cases<G1Curve>(31);
}
TEST(BucketAccumulators, BatchAffineEqualsXyzzOnEveryWindowOnG2) {
  run_twin_cases<G2Curve>(32);
}

}  // namespace
}  // namespace cuzk
