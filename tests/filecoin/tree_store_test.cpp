// The sealing cache directory: file names against the oracle string constants and the facts
// sheet (5.4-5.6), p_aux / t_aux bincode forms, and tree files written and read back (full
// DiskStore rows for tree_c / tree_d, level-cache rows plus the replica for tree_r_last).
#include "filecoin/merkle/tree_store.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "common/temp_dir.hpp"
#include "oracle_file.hpp"

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

using cuzk::testing::TempDir;

TEST(TreeStore, FileNamesFollowTheStoreConfigPatternAndCacheKeys) {
  const auto& c = test::oracles().at("string_constants");
  std::string pattern = c.at("store_file_pattern").get<std::string>();  // sc-02-data-<id>.dat
  const auto with_id = [&](const std::string& id) {
    std::string s = pattern;
    s.replace(s.find("<id>"), 4, id);
    return s;
  };
  EXPECT_EQ(tree_d_file_name(), with_id("tree-d"));
  EXPECT_EQ(layer_file_name(11), with_id("layer-11"));
  EXPECT_EQ(tree_c_file_names(1), std::vector<std::string>{with_id("tree-c")});
  EXPECT_EQ(tree_r_last_file_names(1), std::vector<std::string>{with_id("tree-r-last")});
  const auto eight = tree_c_file_names(8);  // 32 GiB: sc-02-data-tree-c-0.dat .. -7.dat
  ASSERT_EQ(eight.size(), 8u);
  EXPECT_EQ(eight.front(), with_id("tree-c-0"));
  EXPECT_EQ(eight.back(), with_id("tree-c-7"));
  EXPECT_EQ(tree_r_last_file_names(16).back(), with_id("tree-r-last-15"));
  EXPECT_EQ(std::string(cache_key::kPAux), "p_aux");
  EXPECT_EQ(std::string(cache_key::kTAux), c.at("t_aux").get<std::string>());
  EXPECT_EQ(c.at("p_aux").get<std::string>().rfind("p_aux", 0), 0u);
}

TEST(TreeStore, PAuxIsCommCThenCommRLastAsSixtyFourRawBytes) {
  PersistentAux aux;
  aux.comm_c = domain_from_hex(
      test::oracles().at("curio_golden_window_post_32GiB").at("comm_c_le_hex").get<std::string>());
  aux.comm_r_last = domain_from_hex(test::oracles()
                                        .at("curio_golden_window_post_32GiB")
                                        .at("comm_r_last_le_hex")
                                        .get<std::string>());
  const std::vector<uint8_t> bytes = encode_p_aux(aux);
  ASSERT_EQ(bytes.size(), 64u);
  EXPECT_TRUE(std::equal(aux.comm_c.begin(), aux.comm_c.end(), bytes.begin()));
  EXPECT_TRUE(std::equal(aux.comm_r_last.begin(), aux.comm_r_last.end(), bytes.begin() + 32));
  EXPECT_EQ(decode_p_aux(bytes), aux);
  EXPECT_THROW(decode_p_aux(std::span<const uint8_t>(bytes).first(63)), std::invalid_argument);

  const TempDir dir("paux");
  write_p_aux(dir.path(), aux);
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "p_aux"), 64u);
  EXPECT_EQ(read_p_aux(dir.path()), aux);
}

TEST(TreeStore, DefaultTAuxOf32GiBHasTheUpstreamConfigsAndBincodeLayout) {
  const TemporaryAux t = default_t_aux(uint64_t{1} << 30, 11, {8, 8, 0}, "/cache");
  ASSERT_EQ(t.labels.size(), 11u);
  EXPECT_EQ(t.labels[10].id, "layer-11");
  EXPECT_EQ(t.labels[0].size, uint64_t{1} << 30);
  EXPECT_EQ(t.tree_d_config.size, (uint64_t{1} << 31) - 1);  // 2N - 1 nodes
  EXPECT_EQ(t.tree_r_last_config.id, "tree-r-last");
  EXPECT_EQ(t.tree_r_last_config.rows_to_discard, 2u);
  EXPECT_EQ(t.tree_r_last_config.size, merkle_tree_len(uint64_t{1} << 27, 8));
  EXPECT_EQ(t.tree_c_config.rows_to_discard, 0u);

  const std::vector<uint8_t> bytes = encode_t_aux(t);
  // u64 label count, then StoreConfig { path: u64 len + bytes, id: u64 len + bytes,
  // size: u8 1 + u64, rows_to_discard: u64 }.
  EXPECT_EQ(bytes[0], 11);
  EXPECT_EQ(bytes[8], 6);  // "/cache"
  EXPECT_EQ(std::string(bytes.begin() + 16, bytes.begin() + 22), "/cache");
  EXPECT_EQ(bytes[22], 7);  // "layer-1"
  EXPECT_EQ(std::string(bytes.begin() + 30, bytes.begin() + 37), "layer-1");
  EXPECT_EQ(bytes[37], 1);         // Some
  EXPECT_EQ(bytes[38 + 3], 0x40);  // size 2^30 little-endian
  // ids: layer-1..layer-9 (7 bytes), layer-10, layer-11 (8), tree-d, tree-r-last, tree-c.
  EXPECT_EQ(bytes.size(), 8u + 14 * (8 + 6 + 8 + 1 + 8 + 8) + 9 * 7 + 2 * 8 + 6 + 11 + 6);
  EXPECT_EQ(decode_t_aux(bytes), t);
  std::vector<uint8_t> bad = bytes;
  bad[37] = 2;  // not an Option tag
  EXPECT_THROW(decode_t_aux(bad), std::invalid_argument);
}

TEST(TreeStore, TreeDOfTwoKiBIsOneHundredTwentySevenNodesAndReadsBack) {
  const TempDir dir("treed");
  const std::vector<uint8_t> data = random_leaves(64, 1);
  const MerkleTree d = MerkleTree::build(data, {2, 0, 0}, TreeHasher::kSha256);
  write_tree_d(dir.path(), d);
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "sc-02-data-tree-d.dat"), 127u * 32);
  const MerkleTree back = open_tree_d(dir.path(), 64);
  EXPECT_EQ(back.root(), d.root());
  EXPECT_EQ(back.gen_proof(33), d.gen_proof(33));
  EXPECT_THROW(open_tree_d(dir.path(), 128), std::invalid_argument);
}

TEST(TreeStore, TreeCAndLevelCachedTreeRLastRoundTripThroughTheCacheDirectory) {
  const TempDir dir("treecr");
  const TreeShape shape{8, 2, 0};
  const uint64_t nodes = 2 * 4096;
  const std::vector<uint8_t> replica = random_leaves(nodes, 2);
  const MerkleTree tree = MerkleTree::build(replica, shape, TreeHasher::kPoseidon);

  write_tree_c(dir.path(), tree);
  for (const std::string& name : tree_c_file_names(2))
    EXPECT_EQ(std::filesystem::file_size(dir.path() / name), merkle_tree_len(4096, 8) * 32);
  const MerkleTree c = open_tree_c(dir.path(), nodes, shape);
  EXPECT_EQ(c.root(), tree.root());

  const unsigned discard = default_rows_to_discard(4096, 8);
  ASSERT_EQ(discard, 2u);
  write_tree_r_last(dir.path(), tree, discard);
  for (const std::string& name : tree_r_last_file_names(2))  // rows 3 and 4: 8 + 1 nodes
    EXPECT_EQ(std::filesystem::file_size(dir.path() / name), 9u * 32);
  {
    std::ofstream out(dir.path() / "sealed", std::ios::binary);
    out.write(reinterpret_cast<const char*>(replica.data()),
              static_cast<std::streamsize>(replica.size()));
  }
  const MerkleTree r = open_tree_r_last(dir.path(), dir.path() / "sealed", nodes, shape, discard);
  EXPECT_EQ(r.root(), tree.root());
  for (uint64_t i : {uint64_t{0}, uint64_t{4095}, uint64_t{4096}, uint64_t{8191}, uint64_t{5000}})
    EXPECT_EQ(r.gen_proof(i), tree.gen_proof(i)) << i;
  // A mismatching rows_to_discard does not fit the file size.
  EXPECT_THROW(open_tree_r_last(dir.path(), dir.path() / "sealed", nodes, shape, 1),
               std::invalid_argument);
  EXPECT_THROW(open_tree_c(dir.path() / "missing", nodes, shape), std::runtime_error);
}

}  // namespace
}  // namespace cuzk::filecoin
