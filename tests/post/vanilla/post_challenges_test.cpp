// PoSt challenges (facts sheet 6.6): the golden 32 GiB Window PoSt leaf challenges of the oracle
// (curio_golden_window_post_32GiB), the challenge-index rule of fallback/utils.rs per API
// version, and the hash layouts restated here from vanilla.rs.
#include "post/vanilla/post_challenges.hpp"

#include <gtest/gtest.h>

#include "filecoin/hash/sha256.hpp"
#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

uint64_t le64_of(const Sha256Digest& d) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = v << 8 | d[static_cast<size_t>(i)];
  return v;
}

TEST(PoStChallenges, GoldenWindowPoStLeafChallengesMatchTheOracle) {
  const auto& g = test::oracles().at("curio_golden_window_post_32GiB");
  const Domain randomness = test::domain_hex(g.at("randomness_hex"));
  std::vector<uint64_t> expected;
  for (const auto& c : g.at("leaf_challenges"))
    expected.push_back(c.get<uint64_t>());
  const uint64_t sector = g.at("sector_number").get<uint64_t>();
  const uint64_t size = uint64_t{32} << 30;
  // The only sector of the proof (index 0): every API version gives the same indices.
  for (ApiVersion v : {ApiVersion::kV1_0_0, ApiVersion::kV1_1_0, ApiVersion::kV1_2_0})
    EXPECT_EQ(post_leaf_challenges(randomness, sector, size, 10, v, 0), expected);
}

TEST(PoStChallenges, ChallengeIndexDependsOnTheSectorPositionOnlyBeforeApi1_2) {
  EXPECT_EQ(post_challenge_index(ApiVersion::kV1_0_0, 3, 10, 4), 34u);
  EXPECT_EQ(post_challenge_index(ApiVersion::kV1_1_0, 3, 10, 4), 34u);
  EXPECT_EQ(post_challenge_index(ApiVersion::kV1_2_0, 3, 10, 4), 4u);
  // Winning PoSt: 66 slots of one challenge of the same sector -> indices 0..65.
  EXPECT_EQ(post_challenge_index(ApiVersion::kV1_0_0, 65, 1, 0), 65u);
  const Domain r = fr_to_domain(Fr::from_u64(12345));
  const auto v10 = post_leaf_challenges(r, 7, 2048, 10, ApiVersion::kV1_0_0, 3);
  const auto v12 = post_leaf_challenges(r, 7, 2048, 10, ApiVersion::kV1_2_0, 3);
  EXPECT_EQ(v10[4], post_leaf_challenge(r, 7, 34, 2048));
  EXPECT_EQ(v12[4], post_leaf_challenge(r, 7, 4, 2048));
}

TEST(PoStChallenges, LeafAndSectorChallengesHashTheDocumentedLayouts) {
  const Domain randomness = fr_to_domain(Fr::from_u64(99));
  const Domain prover = fr_to_domain(Fr::from_u64(1000));
  uint8_t sector_le[8] = {42}, index_le[8] = {5}, n_le[8] = {3};
  // leaf = u64_le(SHA-256(randomness || u64_le(sector_id) || u64_le(index))[0..8]) mod nodes.
  EXPECT_EQ(post_leaf_challenge(randomness, 42, 5, uint64_t{8} << 20),
            le64_of(sha256({randomness, sector_le, index_le})) % (uint64_t{1} << 18));
  // sector = u64_le(SHA-256(prover_id || randomness || u64_le(n))[0..8]) mod set length.
  EXPECT_EQ(post_sector_challenge(randomness, 3, 1000, prover),
            le64_of(sha256({prover, randomness, n_le})) % 1000);
  const auto all = post_sector_challenges(randomness, 5, 1000, prover);
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all[3], post_sector_challenge(randomness, 3, 1000, prover));
  EXPECT_THROW(post_sector_challenge(randomness, 0, 0, prover), std::invalid_argument);
  EXPECT_THROW(post_leaf_challenge(randomness, 0, 0, 100), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
