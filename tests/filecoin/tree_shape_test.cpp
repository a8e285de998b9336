// Tree geometry against the merkletree crate's own vectors (src/merkle.rs
// test_get_merkle_tree_methods), the facts sheet 2.1 path lengths and the oracle sector shapes.
#include "filecoin/merkle/tree_shape.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "filecoin/sector_shape.hpp"
#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

constexpr uint64_t kMiB = 1024 * 1024, kGiB = 1024 * kMiB;

TEST(TreeShape, TreeLengthsMatchTheMerkletreeCrateVectors) {
  EXPECT_NO_THROW(merkle_tree_len(16, 4));
  EXPECT_EQ(merkle_tree_len(3, 1), 3u);
  EXPECT_THROW(merkle_tree_len(0, 0), std::invalid_argument);
  EXPECT_THROW(merkle_tree_len(1, 0), std::invalid_argument);
  EXPECT_THROW(merkle_tree_len(1, 2), std::invalid_argument);
  EXPECT_THROW(merkle_tree_len(4, 16), std::invalid_argument);
  EXPECT_THROW(merkle_tree_len(1024, 11), std::invalid_argument);
  EXPECT_EQ(merkle_tree_len(16, 2), 16u + 8 + 4 + 2 + 1);
}

TEST(TreeShape, LeafCountsFromTreeLengthsMatchTheMerkletreeCrateVectors) {
  EXPECT_EQ(merkle_tree_leaves(31, 2), 16u);
  EXPECT_EQ(merkle_tree_leaves(15, 2), 8u);
  EXPECT_EQ(merkle_tree_leaves(127, 2), 64u);
  EXPECT_EQ(merkle_tree_leaves(1398101, 4), uint64_t{1} << 20);
  EXPECT_EQ(merkle_tree_leaves(299593, 8), uint64_t{1} << 18);
  for (uint64_t bad : {32, 16, 128})
    EXPECT_THROW(merkle_tree_leaves(bad, 2), std::invalid_argument) << bad;
  for (uint64_t bad : {32, 16, 128})
    EXPECT_THROW(merkle_tree_leaves(bad, 8), std::invalid_argument) << bad;
  EXPECT_THROW(merkle_tree_leaves(1398102, 4), std::invalid_argument);
  EXPECT_THROW(merkle_tree_leaves(299594, 8), std::invalid_argument);
}

TEST(TreeShape, LevelCacheSizesOfOctTreesMatchTheMerkletreeCrateVectors) {
  struct Case {
    uint64_t leaves, tree_len, cache_size;
  };
  // 32 GiB, 4 GiB and 512 MiB oct trees with the default rows_to_discard (2).
  for (const Case& c :
       {Case{32 * kGiB / 32, 1227133513, 2396745}, Case{4 * kGiB / 32, 153391689, 299593},
        Case{512 * kMiB / 32, 19173961, 37449}}) {
    const unsigned discard = default_rows_to_discard(c.leaves, 8);
    EXPECT_EQ(discard, 2u) << c.leaves;
    EXPECT_EQ(merkle_tree_len(c.leaves, 8), c.tree_len) << c.leaves;
    EXPECT_EQ(merkle_tree_cache_size(c.leaves, 8, discard), c.cache_size) << c.leaves;
  }
}

TEST(TreeShape, DefaultRowsToDiscardFollowsTheRowCountRules) {
  // 64 leaves of arity 8: 3 rows, so only the one row between leaves and root can go (2 KiB).
  EXPECT_EQ(default_rows_to_discard(64, 8), 1u);
  EXPECT_EQ(default_rows_to_discard(8, 8), 0u);                  // two rows: nothing to discard
  EXPECT_EQ(default_rows_to_discard(uint64_t{1} << 18, 8), 2u);  // 8 MiB
  EXPECT_EQ(default_rows_to_discard(uint64_t{1} << 20, 2), 7u);  // binary trees keep 7
  EXPECT_EQ(default_rows_to_discard(uint64_t{1} << 20, 4), 5u);
  EXPECT_EQ(default_rows_to_discard(uint64_t{1} << 18, 8, 3), 3u);  // FIL_PROOFS_ROWS_TO_DISCARD
  EXPECT_THROW(merkle_tree_cache_size(64, 8, 2), std::invalid_argument);
}

TEST(TreeShape, PathLengthsPerSectorSizeMatchFactsSheetSection2) {
  // Facts 2.1: 2 KiB 2 oct levels; 8 MiB 6; 512 MiB 8; 32 GiB 9 + sub; 64 GiB 9 + sub + top.
  const struct {
    uint64_t size;
    unsigned path;
  } cases[] = {{2048, 2}, {8 * kMiB, 6}, {512 * kMiB, 8}, {32 * kGiB, 10}, {64 * kGiB, 11}};
  for (const auto& c : cases) {
    const SectorShape& s = sector_shape(c.size);
    EXPECT_EQ(s.tree.path_length(s.nodes), c.path) << c.size;
  }
  // tree_d: log2(nodes) binary levels.
  EXPECT_EQ((TreeShape{2, 0, 0}.path_length(uint64_t{1} << 30)), 30u);
}

TEST(TreeShape, SectorShapesMatchTheOracleTable) {
  for (const auto& [name, s] : test::oracles().at("sector_shapes").at("sizes").items()) {
    const SectorShape& shape = sector_shape(s.at("sector_size").get<uint64_t>());
    const auto& ar = s.at("tree_r_c_arities_base_sub_top");
    EXPECT_EQ(shape.tree, (TreeShape{ar.at(0).get<uint32_t>(), ar.at(1).get<uint32_t>(),
                                     ar.at(2).get<uint32_t>()}))
        << name;
    EXPECT_EQ(shape.nodes, s.at("nodes").get<uint64_t>()) << name;
    EXPECT_EQ(shape.base_tree_count(), s.at("base_tree_count").get<uint64_t>()) << name;
    EXPECT_EQ(shape.layers, s.at("layers").get<unsigned>()) << name;
  }
  // Test-only shapes (facts 2.1): 4 KiB / 16 MiB / 1 GiB 8-2-0, 16 KiB 8-8-0, 32 KiB 8-8-2.
  EXPECT_EQ(sector_shape(4096).tree, (TreeShape{8, 2, 0}));
  EXPECT_EQ(sector_shape(16 * kMiB).tree, (TreeShape{8, 2, 0}));
  EXPECT_EQ(sector_shape(kGiB).tree, (TreeShape{8, 2, 0}));
  EXPECT_EQ(sector_shape(16384).tree, (TreeShape{8, 8, 0}));
  EXPECT_EQ(sector_shape(32768).tree, (TreeShape{8, 8, 2}));
  EXPECT_THROW(sector_shape(1 << 20), std::invalid_argument);
}

TEST(TreeShape, InvalidShapesAreRejectedByName) {
  try {
    TreeShape{8, 0, 2}.validate();
    FAIL() << "a top level without a sub level was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("8-0-2"), std::string::npos) << e.what();
  }
  EXPECT_THROW((TreeShape{3, 0, 0}.validate()), std::invalid_argument);
  EXPECT_NO_THROW((TreeShape{8, 4, 2}.validate()));
}

}  // namespace
}  // namespace cuzk::filecoin
