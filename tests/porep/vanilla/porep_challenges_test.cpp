// PoRep challenges (facts sheet 6.1-6.3): every v18 seal regression record's challenges
// (interactive, synthetic or non-interactive by its api_features, every partition the oracle
// lists) against the oracle's regression_records_derived; the upstream synthetic vector
// (challenges.rs test_synth_challenges_against_hardcoded); the oracle 2 KiB example.
#include "porep/vanilla/porep_challenges.hpp"

#include <gtest/gtest.h>

#include "filecoin/replica_id.hpp"
#include "filecoin/sector_shape.hpp"
#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

template <class A>
A array_of(const nlohmann::json& j) {
  A a;
  const auto bytes = test::byte_array(j);
  EXPECT_EQ(bytes.size(), a.size());
  std::copy(bytes.begin(), bytes.end(), a.begin());
  return a;
}

std::vector<uint64_t> ints(const nlohmann::json& j) {
  std::vector<uint64_t> v;
  for (const auto& x : j)
    v.push_back(x.get<uint64_t>());
  return v;
}

TEST(PorepChallenges, EveryV18RegressionRecordGivesTheOracleChallenges) {
  const auto& records = test::regression_records_v18();
  const auto& derived = test::oracles().at("regression_records_derived").at("records").at("v18");
  int partitions_checked = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const nlohmann::json& r = records[i];
    const nlohmann::json& cfg = r.at("porep_config");
    const nlohmann::json& o = derived.at(i);
    std::optional<ApiFeature> feature;
    for (const auto& f : cfg.at("api_features"))
      feature = api_feature_from_name(f.get<std::string>());
    const uint64_t sector_size = cfg.at("sector_size").get<uint64_t>();
    const unsigned partitions = cfg.at("partitions").get<unsigned>();
    ASSERT_EQ(partitions, porep_partitions(sector_size, feature)) << "record " << i;
    const PorepChallengeParams params{
        sector_size / 32, porep_challenges_per_partition(sector_size, feature, partitions),
        feature};
    const Domain replica_id = generate_replica_id(
        test::domain_bytes(r.at("prover_id")), r.at("sector_id").get<uint64_t>(),
        array_of<Ticket>(r.at("ticket")), test::domain_bytes(r.at("comm_d")),
        array_of<PorepId>(cfg.at("porep_id")));
    const Domain comm_r = test::domain_bytes(r.at("comm_r"));
    const ChallengeSeed seed = array_of<ChallengeSeed>(r.at("seed"));

    EXPECT_EQ(porep_partition_challenges(params, replica_id, comm_r, seed, 0),
              ints(o.at("challenges_partition0")))
        << "record " << i;
    ++partitions_checked;
    if (o.contains("challenges_all_partitions")) {
      const auto& all = o.at("challenges_all_partitions");
      ASSERT_EQ(all.size(), partitions) << "record " << i;
      for (unsigned k = 1; k < partitions; ++k) {
        EXPECT_EQ(porep_partition_challenges(params, replica_id, comm_r, seed, k), ints(all.at(k)))
            << "record " << i << " partition " << k;
        ++partitions_checked;
      }
    }
  }
  // 113 first partitions + 12 x 12 (8 MiB NI) + 125 (record 110) + 9 (record 112).
  EXPECT_EQ(partitions_checked, 391);
}

TEST(PorepChallenges, SyntheticChallengesMatchTheUpstreamHardcodedVector) {
  const auto& v = test::oracles().at("synthetic_porep_vector");
  const Domain replica_id = fr_to_domain(Fr::from_u64(55));
  const Domain comm_r = fr_to_domain(Fr::from_u64(101));
  const SynthChallengeGenerator gen(1024, replica_id, comm_r, 21);  // num_synth from the test
  EXPECT_EQ(gen.all(), ints(v.at("synth_challenges")));
  for (uint64_t i = 0; i < 21; ++i)
    EXPECT_EQ(gen.synth_challenge(i), v.at("synth_challenges").at(i).get<uint64_t>());
  ChallengeSeed seed;
  seed.fill(1);
  EXPECT_EQ(gen.partition_challenges(10, seed, 0), ints(v.at("porep_challenges")));
  EXPECT_EQ(gen.partition_indexes(10, seed, 0), ints(v.at("selected_synth_indexes_derived")));
  // Partition k continues the selection stream: partition 1 of 5 = challenges 5..9 of 10.
  const auto tail = gen.partition_challenges(5, seed, 1);
  EXPECT_EQ(tail, std::vector<uint64_t>(v.at("porep_challenges").begin() + 5,
                                        v.at("porep_challenges").end()));
  EXPECT_THROW(gen.synth_challenge(21), std::out_of_range);
  // The default count is min(nodes, 2^18).
  EXPECT_EQ(SynthChallengeGenerator(1024, replica_id, comm_r).num_synth_challenges(), 1024u);
  EXPECT_EQ(SynthChallengeGenerator(uint64_t{1} << 30, replica_id, comm_r).num_synth_challenges(),
            uint64_t{1} << 18);
}

TEST(PorepChallenges, TheTwoKiBExampleOfTheOracleMatches) {
  const auto& ex = test::oracles().at("derived_sdr_2KiB_example");
  ChallengeSeed seed;
  const auto s = bytes_from_hex(ex.at("seed").get<std::string>());
  std::copy(s.begin(), s.end(), seed.begin());
  EXPECT_EQ(interactive_challenges(64, test::domain_hex(ex.at("replica_id")), seed, 2, 0),
            ints(ex.at("challenges_k0")));
}

TEST(PorepChallenges, ChallengesReduceTheLittleEndianHashIntoOneToNMinusOne) {
  std::array<uint8_t, 32> bytes{};
  EXPECT_EQ(challenge_from_bytes(bytes, 64), 1u);  // 0 mod 63 + 1
  bytes[0] = 63;
  EXPECT_EQ(challenge_from_bytes(bytes, 64), 1u);
  bytes[0] = 62;
  EXPECT_EQ(challenge_from_bytes(bytes, 64), 63u);
  bytes.fill(0xff);  // 2^256 - 1 = 0 mod 3 (and mod 15, 255, ...)
  EXPECT_EQ(challenge_from_bytes(bytes, 4), 1u);
  bytes.fill(0);
  bytes[8] = 1;  // 2^64 = 2^(6 * 10 + 4) = 2^4 mod 63
  EXPECT_EQ(challenge_from_bytes(bytes, 64), 17u);
  EXPECT_THROW(challenge_from_bytes(bytes, 1), std::invalid_argument);
}

TEST(PorepChallenges, MissingInputsAndNonCanonicalSyntheticInputsAreRejected) {
  const Domain replica_id = fr_to_domain(Fr::from_u64(7));
  const PorepChallengeParams interactive{64, 2, std::nullopt};
  EXPECT_THROW(porep_partition_challenges(interactive, replica_id, std::nullopt, std::nullopt, 0),
               std::invalid_argument);
  const PorepChallengeParams ni{64, 2, ApiFeature::kNonInteractivePoRep};
  EXPECT_THROW(porep_partition_challenges(ni, replica_id, std::nullopt, std::nullopt, 0),
               std::invalid_argument);
  EXPECT_THROW(interactive_challenges(64, replica_id, ChallengeSeed{}, 2, 256),
               std::invalid_argument);
  Domain big{};
  big.fill(0xff);
  EXPECT_THROW(SynthChallengeGenerator(64, replica_id, big), std::invalid_argument);
  // Without a seed, synthetic generation returns every synthetic challenge.
  const PorepChallengeParams syn{64, 2, ApiFeature::kSyntheticPoRep};
  EXPECT_EQ(porep_partition_challenges(syn, replica_id, replica_id, std::nullopt, 0).size(), 64u);
}

}  // namespace
}  // namespace cuzk::filecoin
