// Merkle trees of every shape: roots against the upstream / oracle vectors (rust-fil-proofs
// test_poseidon_hasher, the zero comm_d table, the arity-8 zero node), compound composition and
// proofs against a naive recomputation written here from the facts sheet (5.4: sub level =
// Poseidon_sub over consecutive base roots, top = Poseidon_top over sub roots), and level-cache
// trees against full trees.
#include "filecoin/merkle/merkle_tree.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256_tree.hpp"
#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

std::vector<uint8_t> random_leaves(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n * 32);
  for (auto& b : v)
    b = static_cast<uint8_t>(rng());
  for (size_t i = 0; i < n; ++i)
    v[32 * i + 31] &= 0x3f;  // canonical field elements
  return v;
}

Domain leaf_at(const std::vector<uint8_t>& leaves, size_t i) {
  return domain_from_bytes(std::span<const uint8_t>(leaves).subspan(32 * i, 32));
}

// Naive reference: hash level by level with poseidon_hash of the given arity.
Domain naive_poseidon_root(std::vector<Domain> level, uint32_t arity) {
  const PoseidonConstants& c = PoseidonConstants::standard(arity);
  while (level.size() > 1) {
    std::vector<Domain> next;
    for (size_t i = 0; i < level.size(); i += arity)
      next.push_back(poseidon_hash(c, std::span<const Domain>(level).subspan(i, arity)));
    level = std::move(next);
  }
  return level.front();
}

Domain naive_compound_root(const std::vector<uint8_t>& leaves, const TreeShape& s) {
  const size_t n = leaves.size() / 32, count = s.base_tree_count(), per = n / count;
  std::vector<Domain> base_roots;
  for (size_t t = 0; t < count; ++t) {
    std::vector<Domain> l;
    for (size_t i = 0; i < per; ++i)
      l.push_back(leaf_at(leaves, t * per + i));
    base_roots.push_back(naive_poseidon_root(l, s.base));
  }
  if (s.sub == 0) return base_roots.front();
  std::vector<Domain> sub_roots;
  for (size_t g = 0; g < base_roots.size(); g += s.sub)
    sub_roots.push_back(poseidon_hash(PoseidonConstants::standard(s.sub),
                                      std::span<const Domain>(base_roots).subspan(g, s.sub)));
  if (s.top == 0) return sub_roots.front();
  return poseidon_hash(PoseidonConstants::standard(s.top), sub_roots);
}

TEST(MerkleTree, BinaryPoseidonTreeOverOneZeroZeroOneHasTheRustFilProofsRoot) {
  // filecoin-hashers poseidon.rs test_poseidon_hasher (oracle poseidon.test_vectors).
  const nlohmann::json* vec = nullptr;
  for (const auto& v : test::oracles().at("poseidon").at("test_vectors"))
    if (v.contains("node_1_0_le_hex")) vec = &v;
  ASSERT_NE(vec, nullptr);
  std::vector<uint8_t> leaves(4 * 32, 0);
  leaves[0] = 1;       // leaf 0 = Fr(1)
  leaves[3 * 32] = 1;  // leaf 3 = Fr(1)
  const MerkleTree t = MerkleTree::build(leaves, TreeShape{2, 0, 0}, TreeHasher::kPoseidon);
  EXPECT_EQ(t.root(), test::domain_hex(vec->at("root_le_hex")));
  EXPECT_EQ(t.base_trees()[0].node(1, 0), test::domain_hex(vec->at("node_1_0_le_hex")));
}

TEST(MerkleTree, AnAllZeroTwoKiBTreeDHasTheZeroCommDLevelsInEveryRow) {
  const auto& levels = test::oracles().at("zero_comm_d").at("levels_0_to_36_hex");
  const std::vector<uint8_t> zeros(2048, 0);
  const BaseTree t = BaseTree::build(zeros, 2, TreeHasher::kSha256);
  ASSERT_EQ(t.row_count(), 7u);
  for (unsigned row = 0; row < t.row_count(); ++row)
    for (uint64_t i = 0; i < t.row_width(row); ++i)
      ASSERT_EQ(t.node(row, i), test::domain_hex(levels.at(row))) << row << " " << i;
  EXPECT_EQ(
      t.root(),
      test::domain_hex(test::oracles().at("zero_comm_d").at("sizes").at("2KiB").at("comm_d_hex")));
}

TEST(MerkleTree, AnAllZeroOctTreeHasTheOracleArity8ZeroNodeInItsFirstInnerRow) {
  Fr zero8;
  for (const auto& v : test::oracles().at("poseidon").at("derived_vectors"))
    if (v.at("what").get<std::string>().find("arity 8") != std::string::npos)
      zero8 = test::fr_from_int_hex(v.at("output_int_hex").get<std::string>());
  const BaseTree t = BaseTree::build(std::vector<uint8_t>(64 * 32, 0), 8, TreeHasher::kPoseidon);
  for (uint64_t i = 0; i < 8; ++i)
    EXPECT_EQ(t.node(1, i), fr_to_domain(zero8));
}

TEST(MerkleTree, RootsOfEveryShapeEqualTheNaiveBaseSubTopComposition) {
  const TreeShape shapes[] = {{2, 0, 0}, {8, 0, 0}, {8, 2, 0}, {8, 4, 0},
                              {8, 8, 0}, {8, 4, 2}, {8, 8, 2}, {4, 2, 0}};
  uint64_t seed = 10;
  for (const TreeShape& s : shapes) {
    const size_t n = s.base_tree_count() * s.base * s.base;
    const std::vector<uint8_t> leaves = random_leaves(n, seed++);
    const MerkleTree t = MerkleTree::build(leaves, s, TreeHasher::kPoseidon);
    EXPECT_EQ(t.root(), naive_compound_root(leaves, s)) << s.to_string();
    EXPECT_EQ(t.leaves(), n);
    EXPECT_EQ(t.sub_roots().size(), s.top == 0 ? 0u : s.top);
  }
}

TEST(MerkleTree, ProofsOfEveryLeafVerifyForEveryShapeAndEncodeTheLeafIndex) {
  const TreeShape shapes[] = {{2, 0, 0}, {8, 0, 0}, {8, 2, 0}, {8, 4, 0},
                              {8, 8, 0}, {8, 4, 2}, {8, 8, 2}};
  uint64_t seed = 20;
  for (const TreeShape& s : shapes) {
    const size_t n = s.base_tree_count() * 64;
    const std::vector<uint8_t> leaves = random_leaves(n, seed++);
    const MerkleTree t = MerkleTree::build(leaves, s, TreeHasher::kPoseidon);
    const size_t expected_variant = s.sub == 0 ? 0 : (s.top == 0 ? 1 : 2);
    for (uint64_t i = 0; i < n; ++i) {
      const MerkleProof p = t.gen_proof(i);
      ASSERT_EQ(p.data.index(), expected_variant) << s.to_string();
      ASSERT_EQ(p.leaf(), leaf_at(leaves, i));
      ASSERT_EQ(p.root(), t.root());
      ASSERT_EQ(merkle_proof_leaf_index(p), i) << s.to_string();
      ASSERT_EQ(p.path_length(), s.path_length(n));
      MerkleProofCheck check{s, TreeHasher::kPoseidon, n, i, t.root()};
      ASSERT_NO_THROW(verify_merkle_proof(p, check)) << s.to_string() << " leaf " << i;
      // The generic path root agrees with the checked verification.
      ASSERT_EQ(inclusion_path_root(p.path(), p.leaf(), TreeHasher::kPoseidon), t.root());
    }
    EXPECT_THROW(t.gen_proof(n), std::out_of_range);
  }
}

TEST(MerkleTree, BinarySha256TreeProofsVerifyAndTheRootMatchesTheStreamingRoot) {
  const std::vector<uint8_t> leaves = random_leaves(256, 3);
  const MerkleTree t = MerkleTree::build(leaves, TreeShape{2, 0, 0}, TreeHasher::kSha256);
  EXPECT_EQ(t.root(), sha256_tree_root(leaves));
  for (uint64_t i = 0; i < 256; ++i) {
    const MerkleProof p = t.gen_proof(i);
    const auto& single = std::get<SingleProof>(p.data);
    ASSERT_EQ(single.path.size(), 8u);
    for (const PathElement& e : single.path)
      ASSERT_EQ(e.hashes.size(), 1u);
    ASSERT_NO_THROW(
        verify_merkle_proof(p, {TreeShape{2, 0, 0}, TreeHasher::kSha256, 256, i, t.root()}));
  }
}

TEST(MerkleTree, LevelCacheTreesGiveTheSameProofsAsFullTrees) {
  const size_t n = 4096;  // 5 rows of arity 8
  const std::vector<uint8_t> leaves = random_leaves(n, 4);
  const BaseTree full = BaseTree::build(leaves, 8, TreeHasher::kPoseidon);
  for (unsigned discard : {1u, 2u, 3u}) {
    const auto cache = full.level_cache_bytes(discard);
    ASSERT_EQ(cache.size(), merkle_tree_cache_size(n, 8, discard) * 32);
    const BaseTree lc =
        BaseTree::view_level_cache(leaves, cache, 8, discard, TreeHasher::kPoseidon);
    EXPECT_EQ(lc.root(), full.root());
    EXPECT_EQ(lc.rows_to_discard(), discard);
    EXPECT_THROW(lc.node(1, 0), std::out_of_range);  // discarded row
    for (uint64_t i : {uint64_t{0}, uint64_t{1}, uint64_t{777}, uint64_t{4095}})
      EXPECT_EQ(lc.path(i), full.path(i)) << discard << " " << i;
  }
  // Leaves that disagree with the cache are reported, not silently proven.
  std::vector<uint8_t> changed = leaves;
  changed[5 * 32] ^= 1;
  const BaseTree bad =
      BaseTree::view_level_cache(changed, full.level_cache_bytes(2), 8, 2, TreeHasher::kPoseidon);
  EXPECT_THROW(bad.path(5), std::runtime_error);
  EXPECT_NO_THROW(bad.path(600));  // another segment is still consistent
}

TEST(MerkleTree, ParallelBuildsEqualSerialBuilds) {
  ThreadPool pool(2);
  const std::vector<uint8_t> p_leaves = random_leaves(8 * 8 * 8 * 8, 5);
  EXPECT_EQ(BaseTree::build(p_leaves, 8, TreeHasher::kPoseidon, &pool).root(),
            BaseTree::build(p_leaves, 8, TreeHasher::kPoseidon).root());
  const std::vector<uint8_t> s_leaves = random_leaves(size_t{1} << 16, 6);
  const BaseTree par = BaseTree::build(s_leaves, 2, TreeHasher::kSha256, &pool);
  EXPECT_EQ(par.root(), sha256_tree_root(s_leaves));
}

TEST(MerkleTree, MalformedInputsAreRejectedNamingTheProblem) {
  try {
    BaseTree::build(random_leaves(48, 7), 8, TreeHasher::kPoseidon);
    FAIL() << "48 leaves accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("48 leaves"), std::string::npos) << e.what();
  }
  std::vector<uint8_t> noncanonical(64 * 32, 0);
  noncanonical[31] = 0xff;  // leaf 0 >= r
  EXPECT_THROW(BaseTree::build(noncanonical, 8, TreeHasher::kPoseidon), std::invalid_argument);
  EXPECT_NO_THROW(BaseTree::build(noncanonical, 8, TreeHasher::kSha256));  // bytes are bytes
  std::vector<BaseTree> two = {BaseTree::build(random_leaves(64, 8), 8, TreeHasher::kPoseidon)};
  EXPECT_THROW(MerkleTree::from_base_trees(two, TreeShape{8, 2, 0}), std::invalid_argument);
  EXPECT_THROW(BaseTree::view(random_leaves(100, 9), 64, 8, TreeHasher::kPoseidon),
               std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
