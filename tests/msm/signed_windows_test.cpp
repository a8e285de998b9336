#include "msm/signed_windows.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk {
namespace {

// Adds v * 2^bit into a 5-limb accumulator (room for the carries of a 256-bit sum).
void add_shifted(BigInt<5>& acc, uint64_t v, unsigned bit) {
  BigInt<5> t;
  t.w[bit / 64] = v << (bit % 64);
  if (bit % 64 != 0 && bit / 64 + 1 < 5) t.w[bit / 64 + 1] = v >> (64 - bit % 64);
  add_with_carry(acc, acc, t);
}

std::vector<BigInt<4>> edge_and_random_scalars(unsigned bits) {
  std::mt19937_64 rng(7);
  std::vector<BigInt<4>> out;
  auto clip = [&](BigInt<4> k) {
    for (unsigned b = bits; b < 256; ++b)
      k.w[b / 64] &= ~(uint64_t{1} << (b % 64));
    return k;
  };
  out.push_back(BigInt<4>{});
  out.push_back(clip(BigInt<4>::from_u64(1)));
  out.push_back(clip(BigInt<4>::from_u64(2)));
  out.push_back(clip(sub_u64(Fr::kModulus, 1)));
  BigInt<4> ones;
  for (auto& w : ones.w)
    w = ~uint64_t{0};
  out.push_back(clip(ones));  // 2^bits - 1: every window at its maximum
  for (int i = 0; i < 200; ++i) {
    BigInt<4> k;
    for (auto& w : k.w)
      w = rng();
    out.push_back(clip(k));
  }
  return out;
}

TEST(SignedWindows, DigitsRecombineToTheScalarForEveryWindowWidth) {
  for (unsigned bits : {255u, 254u, 130u, 64u, 9u, 1u}) {
    for (unsigned c = 1; c <= 20; ++c) {
      const SignedWindows sw(c, bits);
      for (const BigInt<4>& k : edge_and_random_scalars(bits)) {
        const BigInt<4> p = sw.prepare(k);
        BigInt<5> pos, neg;
        for (unsigned w = 0; w < sw.num_windows(); ++w) {
          const int64_t d = sw.digit(p, w);
          if (d > 0) add_shifted(pos, static_cast<uint64_t>(d), w * c);
          if (d < 0) add_shifted(neg, static_cast<uint64_t>(-d), w * c);
        }
        BigInt<5> diff, want;
        sub_with_borrow(diff, pos, neg);
        for (size_t l = 0; l < 4; ++l)
          want.w[l] = k.w[l];
        ASSERT_EQ(diff, want) << "bits " << bits << " c " << c;
      }
    }
  }
}

TEST(SignedWindows, DigitsStayInTheSignedRangeAndTheTopWindowInItsBuckets) {
  for (unsigned bits : {255u, 200u, 17u}) {
    for (unsigned c = 1; c <= 20; ++c) {
      const SignedWindows sw(c, bits);
      const int64_t half = int64_t{1} << (c - 1);
      for (const BigInt<4>& k : edge_and_random_scalars(bits)) {
        const BigInt<4> p = sw.prepare(k);
        for (unsigned w = 0; w < sw.num_windows(); ++w) {
          const int64_t d = sw.digit(p, w);
          ASSERT_GT(d, -half);
          ASSERT_LE(d, half);
          ASSERT_LE(d < 0 ? -d : d, static_cast<int64_t>(sw.buckets_in_window(w)));
        }
        ASSERT_GE(sw.digit(p, sw.num_windows() - 1), 0);
      }
    }
  }
}

TEST(SignedWindows, WindowCountCoversTheBitsPlusACarry) {
  EXPECT_EQ(SignedWindows(13, 255).num_windows(), 20u);
  EXPECT_EQ(SignedWindows(16, 255).num_windows(), 16u);
  EXPECT_EQ(SignedWindows(8, 255).num_windows(), 32u);
  EXPECT_EQ(SignedWindows(8, 64).num_windows(), 9u);
  EXPECT_EQ(SignedWindows(1, 0).num_windows(), 1u);
  EXPECT_EQ(SignedWindows(4, 255).num_buckets(), 8u);
}

TEST(SignedWindows, RejectsOutOfRangeWidthsAndScalars) {
  EXPECT_THROW(SignedWindows(0, 255), std::invalid_argument);
  EXPECT_THROW(SignedWindows(32, 255), std::invalid_argument);
  EXPECT_THROW(SignedWindows(8, 256), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk
