// Merkle proof structure, verification failures (each names the level it detects) and the
// bincode / serde_json forms of proof.rs (facts sheet 6.5, 10).
#include "filecoin/merkle/merkle_proof.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "filecoin/merkle/merkle_proof_codec.hpp"
#include "filecoin/merkle/merkle_tree.hpp"

namespace cuzk::filecoin {
namespace {

std::vector<uint8_t> random_leaves(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n * 32);
  for (auto& b : v)
    b = static_cast<uint8_t>(rng());
  for (size_t i = 0; i < n; ++i)
    v[32 * i + 31] &= 0x3f;
  return v;
}

// An 8-4-2 tree over 512 leaves: 2 base levels, a sub and a top level.
struct Fixture {
  TreeShape shape{8, 4, 2};
  std::vector<uint8_t> leaves = random_leaves(512, 1);
  MerkleTree tree = MerkleTree::build(leaves, shape, TreeHasher::kPoseidon);
  MerkleProofCheck check(uint64_t leaf) const {
    return {shape, TreeHasher::kPoseidon, 512, leaf, tree.root()};
  }
};

std::string failure(const MerkleProof& p, const MerkleProofCheck& c, size_t* level = nullptr) {
  try {
    verify_merkle_proof(p, c);
  } catch (const MerkleProofError& e) {
    if (level != nullptr) *level = e.level();
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(MerkleProof, AFlippedHighBitInASiblingFailsAtThatLevel) {
  const Fixture f;
  const MerkleProof good = f.tree.gen_proof(300);
  // 300 = base digits 4, 5, sub index 0, top index 1.
  MerkleProof p = good;
  std::get<TopProof>(p.data).base_proof[1].hashes[2][31] ^= 0x80;  // now >= r
  size_t level = 99;
  std::string msg = failure(p, f.check(300), &level);
  EXPECT_EQ(level, 1u) << msg;
  EXPECT_TRUE(contains(msg, "base level 1")) << msg;
  EXPECT_TRUE(contains(msg, "not a canonical field element")) << msg;

  p = good;
  std::get<TopProof>(p.data).top_proof[0].hashes[0][31] ^= 0x80;
  msg = failure(p, f.check(300), &level);
  EXPECT_EQ(level, 3u) << msg;
  EXPECT_TRUE(contains(msg, "top level")) << msg;
}

TEST(MerkleProof, AFlippedLowByteInASiblingIsDetectedAtTheRootLevel) {
  const Fixture f;
  MerkleProof p = f.tree.gen_proof(17);
  std::get<TopProof>(p.data).sub_proof[0].hashes[1][0] ^= 0x01;
  size_t level = 99;
  const std::string msg = failure(p, f.check(17), &level);
  // A well-formed wrong sibling changes every node above it; only the root comparison sees it.
  EXPECT_EQ(level, 4u) << msg;
  EXPECT_TRUE(contains(msg, "root level")) << msg;
  EXPECT_FALSE(merkle_proof_is_valid(p, f.check(17)));
}

TEST(MerkleProof, AFlippedIndexFailsAtItsLevelAgainstTheChallengedLeaf) {
  const Fixture f;
  MerkleProof p = f.tree.gen_proof(300);
  std::get<TopProof>(p.data).sub_proof[0].index ^= 1;
  size_t level = 99;
  const std::string msg = failure(p, f.check(300), &level);
  EXPECT_EQ(level, 2u) << msg;
  EXPECT_TRUE(contains(msg, "sub level")) << msg;
  EXPECT_TRUE(contains(msg, "leaf 300 needs 0")) << msg;
  // Without a challenge the path still no longer reaches the root.
  MerkleProofCheck no_leaf = f.check(300);
  no_leaf.leaf_index.reset();
  EXPECT_TRUE(contains(failure(p, no_leaf), "root level"));
}

TEST(MerkleProof, StructuralDefectsAreReportedAtTheirLevel) {
  const Fixture f;
  const MerkleProof good = f.tree.gen_proof(5);
  MerkleProof p = good;
  std::get<TopProof>(p.data).base_proof[0].hashes.pop_back();
  size_t level = 99;
  std::string msg = failure(p, f.check(5), &level);
  EXPECT_EQ(level, 0u);
  EXPECT_TRUE(contains(msg, "6 sibling hashes, arity 8 needs 7")) << msg;

  p = good;
  std::get<TopProof>(p.data).base_proof[1].index = 8;
  msg = failure(p, f.check(5), &level);
  EXPECT_EQ(level, 1u);
  EXPECT_TRUE(contains(msg, "out of range")) << msg;

  p = good;
  std::get<TopProof>(p.data).base_proof.pop_back();
  EXPECT_TRUE(contains(failure(p, f.check(5)), "needs 4")) << failure(p, f.check(5));

  // A Single proof cannot prove an 8-4-2 tree.
  const MerkleTree flat = MerkleTree::build(random_leaves(64, 2), {8, 0, 0}, TreeHasher::kPoseidon);
  EXPECT_TRUE(contains(failure(flat.gen_proof(3), f.check(3)), "Single proof cannot prove"));

  // The expected root is enforced.
  MerkleProofCheck other_root = f.check(5);
  other_root.root = flat.root();
  EXPECT_TRUE(contains(failure(good, other_root), "is not the expected"));
  EXPECT_NO_THROW(verify_merkle_proof(good, f.check(5)));
}

TEST(MerkleProof, FromPartsSplitsTheLastElementsIntoSubAndTopPaths) {
  const Fixture f;
  const MerkleProof p = f.tree.gen_proof(123);
  const MerkleProof q = MerkleProof::from_parts(p.leaf(), p.root(), p.path(), f.shape);
  EXPECT_EQ(p, q);
  const auto& top = std::get<TopProof>(q.data);
  EXPECT_EQ(top.base_proof.size(), 2u);
  EXPECT_EQ(top.sub_proof.size(), 1u);
  EXPECT_EQ(top.top_proof.size(), 1u);
  EXPECT_EQ(top.sub_proof[0].hashes.size(), 3u);  // sub arity 4
  EXPECT_EQ(top.top_proof[0].hashes.size(), 1u);  // top arity 2
}

TEST(MerkleProof, BincodeFormFollowsSerdeDeclarationOrderAndRoundTrips) {
  const Fixture f;
  for (uint64_t leaf : {0u, 300u, 511u}) {
    const MerkleProof p = f.tree.gen_proof(leaf);
    const std::vector<uint8_t> bytes = merkle_proof_to_bincode(p);
    // u32 variant, then base path: u64 count, per element u64 count + hashes + u64 index.
    ASSERT_EQ(bytes[0], 2);   // Top
    EXPECT_EQ(bytes[4], 2);   // two base elements
    EXPECT_EQ(bytes[12], 7);  // seven hashes
    // 4 + 3 paths' lengths + 4 elements (16 + hashes) + root + leaf.
    EXPECT_EQ(bytes.size(), 4u + 3 * 8 + (2 * (16 + 7 * 32) + (16 + 3 * 32) + (16 + 32)) + 64);
    EXPECT_EQ(merkle_proof_from_bincode(bytes), p);
  }
  std::vector<uint8_t> bytes = merkle_proof_to_bincode(f.tree.gen_proof(1));
  bytes[0] = 3;
  EXPECT_THROW(merkle_proof_from_bincode(bytes), std::invalid_argument);
  bytes = merkle_proof_to_bincode(f.tree.gen_proof(1));
  bytes.pop_back();
  EXPECT_THROW(merkle_proof_from_bincode(bytes), std::invalid_argument);
  bytes = merkle_proof_to_bincode(f.tree.gen_proof(1));
  bytes[4] = 0xff;  // an absurd element count is rejected before allocating
  EXPECT_THROW(merkle_proof_from_bincode(bytes), std::invalid_argument);
}

TEST(MerkleProof, JsonFormHasTheC1FieldNamesAndOrder) {
  const MerkleTree t = MerkleTree::build(random_leaves(16, 3), {8, 2, 0}, TreeHasher::kPoseidon);
  const std::string json = merkle_proof_to_json(t.gen_proof(9));
  // Facts sheet 6.5: {"data":{"Sub":{"base_proof":IP,"sub_proof":IP,"root":D,"leaf":D}}}.
  EXPECT_EQ(json.rfind("{\"data\":{\"Sub\":{\"base_proof\":{\"path\":[{\"hashes\":[[", 0), 0u)
      << json;
  const size_t sub = json.find(",\"sub_proof\":{\"path\":[{\"hashes\":[[");
  const size_t root = json.find(",\"root\":[");
  const size_t leaf = json.find("],\"leaf\":[");
  EXPECT_NE(sub, std::string::npos);
  EXPECT_LT(sub, root);
  EXPECT_LT(root, leaf);
  EXPECT_NE(json.find("\"index\":1}"), std::string::npos);  // leaf 9 = base index 1, sub index 1
  EXPECT_EQ(json.substr(json.size() - 4), "]}}}");
  const MerkleTree s = MerkleTree::build(random_leaves(8, 4), {8, 0, 0}, TreeHasher::kPoseidon);
  EXPECT_EQ(merkle_proof_to_json(s.gen_proof(0)).rfind("{\"data\":{\"Single\":{\"root\":[", 0), 0u);
}

}  // namespace
}  // namespace cuzk::filecoin
