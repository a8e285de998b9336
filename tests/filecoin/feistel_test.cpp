// The Feistel permutation of the expander graph (storage-proofs-core/src/crypto/feistel.rs):
// the single-block BLAKE2b against OpenSSL's general BLAKE2b-512, the half widths of facts sheet
// 4.3, and upstream's permutation tests (feistel.rs test_feistel_power_of_4,
// test_feistel_on_arbitrary_set).
#include "filecoin/graph/feistel.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "filecoin/hash/blake2b.hpp"

namespace cuzk::filecoin {
namespace {

TEST(Feistel, SingleBlockBlake2bEqualsTheGeneralImplementation) {
  std::mt19937_64 rng(1);
  for (int t = 0; t < 2000; ++t) {
    uint8_t msg[16];
    for (auto& b : msg)
      b = static_cast<uint8_t>(rng());
    if (t == 0) std::fill(std::begin(msg), std::end(msg), 0);
    const Blake2b512Digest d = blake2b512(msg);
    uint64_t first = 0;
    for (int i = 7; i >= 0; --i)
      first = first << 8 | d[static_cast<size_t>(i)];
    ASSERT_EQ(blake2b512_16_first_word(msg), first) << t;
  }
}

TEST(Feistel, RoundFunctionHashesBigEndianRightAndKeyAndReadsTheDigestBigEndian) {
  const uint64_t right = 0x0123456789abcdef, key = 0xfedcba9876543210;
  uint8_t msg[16];
  for (int i = 0; i < 8; ++i) {
    msg[i] = static_cast<uint8_t>(right >> (56 - 8 * i));
    msg[8 + i] = static_cast<uint8_t>(key >> (56 - 8 * i));
  }
  const Blake2b512Digest d = blake2b512(msg);
  uint64_t be = 0;
  for (int i = 0; i < 8; ++i)
    be = be << 8 | d[static_cast<size_t>(i)];
  EXPECT_EQ(feistel_round(right, key, ~uint64_t{0}), be);
  EXPECT_EQ(feistel_round(right, key, 0x1f), be & 0x1f);
}

TEST(Feistel, HalfWidthsMatchFactsSheetSection4_3) {
  // 2 KiB: N = 512, h = 5; 32 GiB: N = 2^33, h = 17; 64 GiB: N = 2^34, h = 17.
  EXPECT_EQ(feistel_precompute(512), (FeistelPrecomputed{0x1f << 5, 0x1f, 5}));
  EXPECT_EQ(feistel_precompute(uint64_t{1} << 33).half_bits, 17u);
  EXPECT_EQ(feistel_precompute(uint64_t{1} << 34).half_bits, 17u);
  EXPECT_EQ(feistel_precompute(1).half_bits, 1u);
  EXPECT_EQ(feistel_precompute(16).half_bits, 2u);
  EXPECT_EQ(feistel_precompute(17).half_bits, 3u);
}

TEST(Feistel, PermuteIsABijectionThatInvertPermuteUndoesOnArbitraryDomains) {
  const std::array<uint64_t, 4> keys = {1, 2, 3, 4};  // upstream's test keys
  for (uint64_t n : {5u, 6u, 8u, 12u, 17u, 4u, 16u, 64u, 256u, 1000u}) {
    const FeistelPrecomputed pre = feistel_precompute(n);
    std::set<uint64_t> seen;
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t p = feistel_permute(n, i, keys, pre);
      ASSERT_LT(p, n);
      ASSERT_EQ(feistel_invert_permute(n, p, keys, pre), i) << n << " " << i;
      seen.insert(p);
    }
    EXPECT_EQ(seen.size(), n);
  }
  EXPECT_THROW(feistel_permute(8, 8, keys, feistel_precompute(8)), std::invalid_argument);
}

TEST(Feistel, TabulatedNetworkEqualsTheHashingFunctions) {
  std::mt19937_64 rng(2);
  const std::array<uint64_t, 4> keys = {rng(), rng(), rng(), rng()};
  // 2 KiB, 8 MiB and 32 GiB expander domains (h = 5, 11, 17).
  for (uint64_t n : {uint64_t{512}, uint64_t{1} << 21, uint64_t{1} << 33}) {
    const FeistelNetwork net(n, keys);
    EXPECT_TRUE(net.tabulated());
    EXPECT_EQ(net.precomputed(), feistel_precompute(n));
    for (int t = 0; t < 300; ++t) {
      const uint64_t i = rng() % n;
      const uint64_t p = feistel_permute(n, i, keys, net.precomputed());
      ASSERT_EQ(net.permute(i), p) << n << " " << i;
      ASSERT_EQ(net.invert_permute(p), i);
    }
  }
  // h = 21 > 20 is hashed per round, with the same results.
  const uint64_t big = uint64_t{1} << 41;
  const FeistelNetwork hashed(big, keys);
  EXPECT_FALSE(hashed.tabulated());
  EXPECT_EQ(hashed.permute(12345), feistel_permute(big, 12345, keys, feistel_precompute(big)));
  EXPECT_THROW(hashed.permute(big), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
