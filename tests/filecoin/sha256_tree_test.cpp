// Binary SHA-256 trunc254 trees: the zero-subtree table against the oracle (go-commp-utils
// zerocomm, rust-fil-proofs pieces.rs), real hashing of zero sectors, streaming and parallel roots.
#include "filecoin/hash/sha256_tree.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v)
    b = static_cast<uint8_t>(rng());
  return v;
}

TEST(Sha256Tree, ZeroSubtreeRootsMatchAllThirtySevenOracleLevels) {
  const auto& levels = test::oracles().at("zero_comm_d").at("levels_0_to_36_hex");
  ASSERT_EQ(levels.size(), 37u);
  for (unsigned k = 0; k < levels.size(); ++k)
    EXPECT_EQ(zero_subtree_root(k), test::domain_hex(levels.at(k))) << "level " << k;
  EXPECT_THROW(zero_subtree_root(kMaxZeroLevel + 1), std::out_of_range);
}

TEST(Sha256Tree, HashingAnAllZero2KiBSectorGivesTheOracleCommD) {
  const std::vector<uint8_t> sector(2048, 0);
  const Domain expected =
      test::domain_hex(test::oracles().at("zero_comm_d").at("sizes").at("2KiB").at("comm_d_hex"));
  EXPECT_EQ(sha256_tree_root(sector), expected);
}

TEST(Sha256Tree, RootOfFourLeavesIsTheNestedNodeHash) {
  const std::vector<uint8_t> leaves = random_bytes(4 * 32, 1);
  Domain l[4];
  for (int i = 0; i < 4; ++i)
    l[i] = domain_from_bytes(std::span<const uint8_t>(leaves).subspan(32 * i, 32));
  // Node(left, right) = trunc254(SHA-256(left || right)); leaves are not hashed.
  const Domain left = sha256_trunc254({l[0], l[1]});
  const Domain right = sha256_trunc254({l[2], l[3]});
  EXPECT_EQ(sha256_tree_root(leaves), sha256_trunc254({left, right}));
  // One leaf is its own root.
  EXPECT_EQ(sha256_tree_root(std::span<const uint8_t>(leaves).first(32)), l[0]);
}

TEST(Sha256Tree, StreamingParallelAndZeroPaddedRootsAgree) {
  const size_t n = size_t{1} << 15;
  const std::vector<uint8_t> leaves = random_bytes(n * 32, 2);
  const Domain root = sha256_tree_root(leaves);

  ThreadPool pool(2);
  EXPECT_EQ(sha256_tree_root(leaves, &pool), root);

  Sha256TreeBuilder b;  // odd-sized pushes exercise the unpaired-leaf path
  size_t off = 0;
  for (size_t step : {size_t{32}, size_t{96}, size_t{3200}, size_t{64}}) {
    b.push_leaves(std::span<const uint8_t>(leaves).subspan(off, step));
    off += step;
  }
  b.push_leaves(std::span<const uint8_t>(leaves).subspan(off));
  EXPECT_EQ(b.leaf_count(), n);
  EXPECT_EQ(b.finish(), root);

  // 3 data leaves + 5 zero leaves equals hashing the zero-filled buffer.
  std::vector<uint8_t> eight(8 * 32, 0);
  std::copy(leaves.begin(), leaves.begin() + 3 * 32, eight.begin());
  Sha256TreeBuilder z;
  z.push_leaves(std::span<const uint8_t>(leaves).first(3 * 32));
  z.pad_with_zeros_to(8);
  EXPECT_EQ(z.finish(), sha256_tree_root(eight));
}

TEST(Sha256Tree, MalformedInputsAreRejected) {
  EXPECT_THROW(sha256_tree_root(std::vector<uint8_t>(3 * 32)), std::invalid_argument);
  EXPECT_THROW(sha256_tree_root(std::vector<uint8_t>(33)), std::invalid_argument);
  EXPECT_THROW(sha256_tree_root(std::vector<uint8_t>{}), std::invalid_argument);
  Sha256TreeBuilder b;
  b.push_leaf(Domain{});
  EXPECT_THROW(b.push_subtree(Domain{}, 1), std::invalid_argument);  // misaligned
  b.push_leaf(Domain{});
  b.push_leaf(Domain{});
  EXPECT_THROW(b.finish(), std::logic_error);  // 3 leaves
  EXPECT_THROW(b.push_leaves(std::vector<uint8_t>(31)), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
