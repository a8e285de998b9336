// What Curio sends for a PoSt, decoded and checked (post_request.hpp): the PoSt configs of every
// registered proof against the oracle file (ids, API versions, sectors per partition, challenge
// counts), the golden 32 GiB WindowPoSt vanilla proof accepted as a one-sector partition of
// 2349 slots under both Window 32 GiB proof types, WinningPoSt from a synthetic 32 GiB sector,
// and each bad field refused with its reason.
#include "post/vanilla/post_request.hpp"

#include <gtest/gtest.h>

#include "filecoin/merkle/merkle_proof.hpp"
#include "filecoin/sector_shape.hpp"
#include "oracle_file.hpp"
#include "post/vanilla/post_vanilla_prover.hpp"

namespace cuzk::filecoin {
namespace {

TEST(PoStConfig, EveryRegisteredProofMatchesTheOracle) {
  const auto& o = test::oracles();
  const auto& ids = o.at("registered_proof_ids").at("post");
  const auto& versions = o.at("registered_proof_ids").at("post_api_version");
  const auto& sizes = o.at("sector_shapes").at("sizes");
  ASSERT_EQ(ids.size(), kPoStProofCount);
  for (const auto& [name, id] : ids.items()) {
    const PoStConfig c = post_config(id.get<uint32_t>());
    EXPECT_EQ(post_proof_info(c.registered_proof).name, name);
    const std::string want_version = versions.at(name).get<std::string>();
    EXPECT_EQ(c.api_version, want_version == "1.2.0" ? ApiVersion::kV1_2_0 : ApiVersion::kV1_0_0)
        << name;
    bool found = false;
    for (const auto& [size_name, s] : sizes.items()) {
      if (s.at("sector_size").get<uint64_t>() != c.sector_size) continue;
      found = true;
      const FallbackPoStParams pp = fallback_post_params(c);
      if (c.kind == PoStKind::kWinning) {
        const auto& w = s.at("winning_post");
        EXPECT_EQ(c.challenge_count, w.at("challenge_count").get<unsigned>()) << name;
        EXPECT_EQ(c.sector_count, w.at("sector_count").get<unsigned>()) << name;
        EXPECT_EQ(pp.sector_count, w.at("circuit_sector_slots").get<unsigned>()) << name;
        EXPECT_EQ(pp.challenge_count, w.at("challenges_per_slot").get<unsigned>()) << name;
        EXPECT_EQ(pp.public_input_count(), w.at("public_inputs_excluding_ONE").get<uint64_t>());
      } else {
        const auto& w = s.at("window_post");
        EXPECT_EQ(c.challenge_count, w.at("challenge_count_per_sector").get<unsigned>()) << name;
        EXPECT_EQ(c.sector_count, w.at("sectors_per_partition").get<unsigned>()) << name;
        EXPECT_EQ(pp.sector_count, c.sector_count);
        EXPECT_EQ(pp.public_input_count(), w.at("public_inputs_excluding_ONE").get<uint64_t>());
      }
      const auto& arities = s.at("tree_r_c_arities_base_sub_top");
      EXPECT_EQ(pp.tree, (TreeShape{arities[0].get<uint32_t>(), arities[1].get<uint32_t>(),
                                    arities[2].get<uint32_t>()}))
          << name;
    }
    EXPECT_TRUE(found) << name;
  }
  EXPECT_THROW(post_config(15), std::invalid_argument);
  EXPECT_EQ(post_config(PoStKind::kWindow, uint64_t{32} << 30).registered_proof, 13u);
  EXPECT_EQ(post_config(PoStKind::kWinning, uint64_t{32} << 30).registered_proof, 3u);
}

struct Golden {
  std::vector<std::vector<uint8_t>> proofs{
      test::read_file_bytes(test::golden_file("window-post-32g-sector1.vproof"))};
  std::vector<uint8_t> randomness = std::vector<uint8_t>(32, 0);  // postpub.json
  PoStRequest request(uint64_t registered = 8) const {
    PoStRequest r;
    r.kind = PoStKind::kWindow;
    r.registered_proof = registered;
    r.vanilla_proofs = proofs;
    r.randomness = randomness;
    r.miner_id = 1000;
    return r;
  }
};

std::string refusal(const PoStRequest& r) {
  try {
    decode_post_request(r);
  } catch (const PoStRequestError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(PoStRequest, TheGoldenWindowProofIsAOneSectorPartitionOfEitherWindowType) {
  const Golden g;
  // Window 32 GiB V1 (postpub.json) and V1_2 (Go's V1_1): sector index 0 gives the same
  // challenges under both challenge-index rules.
  for (uint64_t id : {8, 13}) {
    const PoStJob job = decode_post_request(g.request(id));
    EXPECT_EQ(job.config.registered_proof, id);
    EXPECT_EQ(job.params.sector_count, 2349u);
    EXPECT_EQ(job.partition.slots.size(), 2349u);
    EXPECT_EQ(job.partition.real_slots, 1u);
    EXPECT_EQ(job.partition.slots.back(), job.partition.slots.front());  // padding repeats it
    EXPECT_EQ(job.partition.slots[0].sector_id, 1u);
    EXPECT_EQ(job.prover_id[0], 0xe8);  // actor 1000
    const auto& expected =
        test::oracles().at("curio_golden_window_post_32GiB").at("leaf_challenges");
    const std::vector<uint64_t> ch = slot_challenges(job.params, job.randomness, job.partition, 0);
    for (size_t n = 0; n < 10; ++n)
      EXPECT_EQ(ch[n], expected.at(n).get<uint64_t>());
  }
}

TEST(PoStRequest, BadFieldsAreRefusedWithTheirReason) {
  const Golden g;
  const auto expect = [](const PoStRequest& r, const std::string& why) {
    const std::string msg = refusal(r);
    EXPECT_NE(msg.find(why), std::string::npos) << "want \"" << why << "\", got: " << msg;
  };
  PoStRequest r = g.request();
  r.registered_proof = 99;
  expect(r, "unknown registered PoSt proof id 99");
  r = g.request(3);
  expect(r, "registered proof 3 (StackedDrgWinning32GiBV1) is not a window PoSt proof");
  r = g.request();
  r.sector_size = 2048;
  expect(r, "sector_size 2048 does not match registered proof StackedDrgWindow32GiBV1");

  std::vector<uint8_t> short_rand(31, 0);
  r = g.request();
  r.randomness = short_rand;
  expect(r, "randomness must be 32 bytes, got 31");
  std::vector<uint8_t> big(32, 0xff);  // >= p
  r = g.request();
  r.randomness = big;
  expect(r, "is not a valid field element");

  r = g.request();
  r.partition_index = 3000;
  expect(r, "partition_index 3000 out of range");
  r = g.request();
  r.partition_index = 2999;
  expect(r, "vanilla proof refused");  // in range, but V1 challenges depend on the position

  r = g.request();
  r.vanilla_proofs = {};
  expect(r, "0 vanilla proofs: a window PoSt partition takes 1 to 2349");

  std::vector<std::vector<uint8_t>> cut{g.proofs[0]};
  cut[0].pop_back();
  r = g.request();
  r.vanilla_proofs = cut;
  expect(r, "vanilla proof 0 is malformed: bincode: comm_r_last");
  cut[0] = g.proofs[0];
  cut[0].push_back(0);
  expect(r, "trailing bytes");

  // A sibling of challenge 6 at base level 7 (see window_post_golden_test.cpp for the offsets).
  constexpr size_t kElement = 8 + 7 * 32 + 8, kProof = 4 + (8 + 9 * kElement) + (8 + kElement) + 64;
  std::vector<std::vector<uint8_t>> flipped{g.proofs[0]};
  flipped[0][56 + 6 * kProof + 4 + 8 + 7 * kElement + 8] ^= 1;
  r = g.request();
  r.vanilla_proofs = flipped;
  expect(r, "vanilla proof refused: slot 0: PoSt sector 1, challenge 6 (leaf 1055504637)");

  // The comm_r_last field (the last 32 bytes) no longer the paths' root.
  std::vector<std::vector<uint8_t>> field{g.proofs[0]};
  field[0].back() ^= 1;
  r = g.request();
  r.vanilla_proofs = field;
  expect(r, "is not the inclusion proofs' root");
}

TEST(PoStRequest, WinningTakesOneSectorOfSixtySixChallenges) {
  const PoStConfig config = post_config(PoStKind::kWinning, uint64_t{32} << 30);
  const Domain randomness = fr_to_domain(Fr::from_u64(31337));
  const std::vector<uint64_t> ids{5};
  const auto challenges = fallback_sector_challenges(config, randomness, ids);
  ASSERT_EQ(challenges.size(), 1u);
  ASSERT_EQ(challenges[0].size(), 66u);
  const FallbackPoStSectorProof proof = synthetic_sector_proof(config, 5, 9, challenges[0]);
  const std::vector<std::vector<uint8_t>> bytes{encode_fallback_post_sector_proof(proof)};
  PoStRequest r;
  r.kind = PoStKind::kWinning;
  r.registered_proof = 3;
  r.vanilla_proofs = bytes;
  r.randomness = randomness;
  r.miner_id = 1234;
  const PoStJob job = decode_post_request(r);
  ASSERT_EQ(job.partition.slots.size(), 66u);
  EXPECT_EQ(job.partition.real_slots, 66u);
  for (size_t i = 0; i < 66; ++i) {
    EXPECT_EQ(job.partition.slots[i].proof.inclusion_proofs.size(), 1u);
    EXPECT_EQ(merkle_proof_leaf_index(job.partition.slots[i].proof.inclusion_proofs[0]),
              challenges[0][i]);
    // Slot i is sector index i with one challenge: challenge index i, as the vanilla side used.
    EXPECT_EQ(slot_challenges(job.params, job.randomness, job.partition, i)[0], challenges[0][i]);
  }

  PoStRequest bad = r;
  bad.partition_index = 1;
  EXPECT_NE(refusal(bad).find("a winning PoSt has one partition"), std::string::npos);
  const std::vector<std::vector<uint8_t>> two{bytes[0], bytes[0]};
  bad = r;
  bad.vanilla_proofs = two;
  EXPECT_NE(refusal(bad).find("2 vanilla proofs: a winning PoSt takes exactly 1"),
            std::string::npos);
  FallbackPoStSectorProof fewer = proof;
  fewer.sectors[0].inclusion_proofs.pop_back();
  const std::vector<std::vector<uint8_t>> short_proof{encode_fallback_post_sector_proof(fewer)};
  bad = r;
  bad.vanilla_proofs = short_proof;
  EXPECT_NE(refusal(bad).find("65 inclusion proofs, expected 66"), std::string::npos);
  std::vector<uint8_t> other_rand(randomness.begin(), randomness.end());
  other_rand[0] ^= 1;
  bad = r;
  bad.randomness = other_rand;
  EXPECT_NE(refusal(bad).find("vanilla proof refused: slot 0"), std::string::npos);
  bad = r;
  bad.kind = PoStKind::kWindow;
  EXPECT_NE(refusal(bad).find("is not a window PoSt proof"), std::string::npos);
}

TEST(PoStVanillaProver, SyntheticSectorsOfEverySizeVerify) {
  const Domain randomness = fr_to_domain(Fr::from_u64(5));
  for (uint64_t size :
       {uint64_t{2} << 10, uint64_t{8} << 20, uint64_t{32} << 30, uint64_t{64} << 30}) {
    const PoStConfig config = post_config(PoStKind::kWindow, size);
    const std::vector<uint64_t> ids{10, 11};
    const auto challenges = fallback_sector_challenges(config, randomness, ids);
    std::vector<FallbackPoStSectorProof> proofs;
    for (size_t i = 0; i < ids.size(); ++i)
      proofs.push_back(synthetic_sector_proof(config, ids[i], 3, challenges[i]));
    EXPECT_NE(proofs[0].comm_r, proofs[1].comm_r);
    const FallbackPoStParams pp = fallback_post_params(config);
    EXPECT_NO_THROW(verify_partition(pp, randomness, window_partition(pp, proofs, 0))) << size;
    // Another partition index: V1_2 challenges do not depend on it.
    EXPECT_NO_THROW(verify_partition(pp, randomness, window_partition(pp, proofs, 7))) << size;
    // Swapped sectors keep their own challenges (sector ids enter the hash).
    std::swap(proofs[0], proofs[1]);
    EXPECT_NO_THROW(verify_partition(pp, randomness, window_partition(pp, proofs, 0))) << size;
  }
  // A challenge past the sector's leaves.
  const PoStConfig c = post_config(PoStKind::kWindow, 2048);
  const std::vector<uint64_t> past{64};
  EXPECT_THROW(synthetic_sector_proof(c, 1, 1, past), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
