// The transforms of fft.hpp against the O(n^2) naive DFT (every size 2^0..2^10), round trips up
// to 2^18, cosets, both roots of unity, every kernel variant, and independence of the thread count.
#include "poly/fft.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "poly/fft_kernels.hpp"
#include "poly/naive_dft.hpp"
#include "poly_test_util.hpp"

namespace cuzk {
namespace {

constexpr size_t kNaiveMaxLog = 10;
constexpr size_t kRoundTripMaxLog = 18;

TEST(Fft, EqualsTheNaiveDftForEverySizeUpTo1024) {
  ThreadPool pool(2);
  std::mt19937_64 rng(1);
  for (size_t k = 0; k <= kNaiveMaxLog; ++k) {
    const EvaluationDomain d(k);
    const auto coeffs = random_vector(d.size(), rng);
    auto fast = coeffs;
    fft(fast, d, pool);
    ASSERT_EQ(fast, naive_dft(coeffs, d.omega())) << "n = " << d.size();
  }
}

TEST(Fft, IfftEqualsTheScaledNaiveInverseDftForEverySizeUpTo1024) {
  ThreadPool pool(2);
  std::mt19937_64 rng(2);
  for (size_t k = 0; k <= kNaiveMaxLog; ++k) {
    const EvaluationDomain d(k);
    const auto evals = random_vector(d.size(), rng);
    auto fast = evals;
    ifft(fast, d, pool);
    auto expected = naive_dft(evals, d.omega_inv());
    for (auto& x : expected)
      x *= d.n_inv();
    ASSERT_EQ(fast, expected) << "n = " << d.size();
  }
}

TEST(Fft, IfftUndoesFftForEverySizeUpTo2To18) {
  ThreadPool pool(2);
  std::mt19937_64 rng(3);
  for (size_t k = 0; k <= kRoundTripMaxLog; ++k) {
    const EvaluationDomain d(k);
    const auto x = random_vector(d.size(), rng);
    auto y = x;
    fft(y, d, pool);
    if (d.size() > 1) {
      ASSERT_NE(y, x);
    }
    ifft(y, d, pool);
    ASSERT_EQ(y, x) << "n = " << d.size();
  }
}

TEST(Fft, CosetFftEqualsNaiveEvaluationAtTheShiftedPoints) {
  ThreadPool pool(2);
  std::mt19937_64 rng(4);
  for (size_t k = 0; k <= kNaiveMaxLog; ++k) {
    const EvaluationDomain d(k);
    const auto coeffs = random_vector(d.size(), rng);
    auto fast = coeffs;
    coset_fft(fast, d, pool);
    ASSERT_EQ(fast, naive_dft(coeffs, d.omega(), d.g())) << "n = " << d.size();
  }
}

TEST(Fft, IcosetFftUndoesCosetFftForEverySizeUpTo2To16) {
  ThreadPool pool(2);
  std::mt19937_64 rng(5);
  for (size_t k = 0; k <= 16; ++k) {
    const EvaluationDomain d(k);
    const auto x = random_vector(d.size(), rng);
    auto y = x;
    coset_fft(y, d, pool);
    icoset_fft(y, d, pool);
    ASSERT_EQ(y, x) << "n = " << d.size();
  }
}

TEST(Fft, WorksOnTheSnarkjsRootAndAnotherCosetShift) {
  ThreadPool pool(2);
  std::mt19937_64 rng(6);
  const EvaluationDomain d(9, snarkjs_two_adic_root(), Fr::from_u64(5));
  const auto coeffs = random_vector(d.size(), rng);
  auto plain = coeffs, coset = coeffs;
  fft(plain, d, pool);
  coset_fft(coset, d, pool);
  EXPECT_EQ(plain, naive_dft(coeffs, d.omega()));
  EXPECT_EQ(coset, naive_dft(coeffs, d.omega(), Fr::from_u64(5)));
}

TEST(Fft, DistributePowersMultipliesEntryIByGToTheI) {
  ThreadPool pool(2);
  std::mt19937_64 rng(7);
  for (size_t n : {0, 1, 2, 3, 1000, 5000}) {
    const auto x = random_vector(n, rng);
    const Fr g = Fr::random(rng);
    auto y = x;
    distribute_powers(y, g, pool);
    Fr p = Fr::one();
    for (size_t i = 0; i < n; ++i, p *= g)
      ASSERT_EQ(y[i], x[i] * p) << "i = " << i << " of " << n;
  }
}

std::vector<Fr> bit_reversed(std::vector<Fr> v) {
  ThreadPool pool(1);
  fft_detail::bit_reverse(v, pool);
  return v;
}

TEST(Fft, BitReverseSwapsEachIndexWithItsMirroredBits) {
  ThreadPool pool(2);
  std::vector<Fr> v(16);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = Fr::from_u64(i);
  fft_detail::bit_reverse(v, pool);
  const uint64_t expected[16] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
  for (size_t i = 0; i < v.size(); ++i)
    EXPECT_EQ(v[i], Fr::from_u64(expected[i])) << "i = " << i;
}

// The network under every plan (unblocked, and blocks of 2^1 up to larger than n) against the
// naive DFT in bit-reversed order.
TEST(Fft, TheNetworkEqualsTheBitReversedNaiveDftUnderEveryBlockSize) {
  ThreadPool pool(2);
  std::mt19937_64 rng(8);
  for (size_t k = 0; k <= kNaiveMaxLog; ++k) {
    const EvaluationDomain d(k);
    const auto tw = fft_detail::twiddle_table(d.omega(), d.size(), pool);
    const auto x = random_vector(d.size(), rng);
    const auto expected = bit_reversed(naive_dft(x, d.omega()));
    for (bool blocked : {false, true}) {
      for (size_t log_block : {1, 2, 3, 5, 12}) {
        auto y = x;
        fft_detail::dft_natural_to_bitrev(y, tw, pool, {blocked, log_block});
        ASSERT_EQ(y, expected) << "k = " << k << " blocked " << blocked << " log_block "
                               << log_block;
      }
    }
  }
}

// Blocked and unblocked agree where both the passes and the block phase run.
TEST(Fft, BlockedAndUnblockedNetworksAgreeOnLargeSizes) {
  ThreadPool pool(2);
  std::mt19937_64 rng(10);
  for (size_t k : {13, 16}) {
    const EvaluationDomain d(k);
    const auto tw = fft_detail::twiddle_table(d.omega(), d.size(), pool);
    const auto x = random_vector(d.size(), rng);
    auto y = x, z = x;
    fft_detail::dft_natural_to_bitrev(y, tw, pool, {false, 0});
    fft_detail::dft_natural_to_bitrev(z, tw, pool, {true, 10});
    ASSERT_EQ(y, z) << "k = " << k;
  }
}

TEST(Fft, TwiddleTableHoldsBitReversedPowers) {
  ThreadPool pool(2);
  for (size_t k : {1, 2, 5, 14}) {
    const EvaluationDomain d(k);
    const auto tw = fft_detail::twiddle_table(d.omega(), d.size(), pool);
    ASSERT_EQ(tw.size(), d.size() / 2);
    std::vector<Fr> powers(tw.size());
    Fr x = Fr::one();
    for (auto& p : powers) {
      p = x;
      x *= d.omega();
    }
    EXPECT_EQ(tw, bit_reversed(powers)) << "k = " << k;
  }
}

TEST(Fft, ResultsAreIdenticalWithOneTwoAndFourThreads) {
  std::mt19937_64 rng(9);
  const EvaluationDomain d(15);
  const auto x = random_vector(d.size(), rng);
  std::vector<std::vector<Fr>> results;  // per thread count: coset_fft(x), then ifft(x)
  for (unsigned threads : {1u, 2u, 4u}) {
    ThreadPool pool(threads);
    auto y = x, z = x;
    coset_fft(y, d, pool);
    ifft(z, d, pool);
    results.push_back(y);
    results.push_back(z);
  }
  for (size_t i = 2; i < results.size(); ++i)
    EXPECT_EQ(results[i], results[i % 2]) << "result " << i % 2 << " with thread count #" << i / 2;
}

TEST(Fft, RejectsASpanOfTheWrongSize) {
  ThreadPool pool(1);
  std::vector<Fr> v(7);
  const EvaluationDomain d(3);
  EXPECT_THROW(fft(v, d, pool), std::invalid_argument);
  EXPECT_THROW(ifft(v, d, pool), std::invalid_argument);
  EXPECT_THROW(coset_fft(v, d, pool), std::invalid_argument);
  EXPECT_THROW(icoset_fft(v, d, pool), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk
