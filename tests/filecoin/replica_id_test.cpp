// replica_id and prover_id (facts sheet 5.1): every v18 seal regression record's replica_id
// against the oracle's regression_records_derived, the oracle 2 KiB example, and the Lotus /
// Curio prover_id of actor 1000.
#include "filecoin/replica_id.hpp"

#include <gtest/gtest.h>

#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

PorepId porep_id_of(const nlohmann::json& record) {
  PorepId id;
  const auto bytes = test::byte_array(record.at("porep_config").at("porep_id"));
  std::copy(bytes.begin(), bytes.end(), id.begin());
  return id;
}

TEST(ReplicaId, EveryV18RegressionRecordGivesTheOracleReplicaId) {
  const auto& records = test::regression_records_v18();
  const auto& derived = test::oracles().at("regression_records_derived").at("records").at("v18");
  ASSERT_EQ(records.size(), 113u);
  ASSERT_EQ(derived.size(), records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    const nlohmann::json& r = records[i];
    ASSERT_EQ(derived.at(i).at("index").get<size_t>(), i);
    Ticket ticket;
    const auto t = test::byte_array(r.at("ticket"));
    std::copy(t.begin(), t.end(), ticket.begin());
    const Domain id = generate_replica_id(test::domain_bytes(r.at("prover_id")),
                                          r.at("sector_id").get<uint64_t>(), ticket,
                                          test::domain_bytes(r.at("comm_d")), porep_id_of(r));
    EXPECT_EQ(to_hex(id), derived.at(i).at("replica_id_le_hex").get<std::string>())
        << "record " << i;
  }
}

TEST(ReplicaId, TheTwoKiBExampleOfTheOracleMatches) {
  const auto& ex = test::oracles().at("derived_sdr_2KiB_example");
  Ticket ticket;
  const auto t = bytes_from_hex(ex.at("ticket").get<std::string>());
  std::copy(t.begin(), t.end(), ticket.begin());
  PorepId porep;
  const auto p = bytes_from_hex(ex.at("porep_id").get<std::string>());
  std::copy(p.begin(), p.end(), porep.begin());
  EXPECT_EQ(
      generate_replica_id(test::domain_hex(ex.at("prover_id")), ex.at("sector_id").get<uint64_t>(),
                          ticket, test::domain_hex(ex.at("comm_d")), porep),
      test::domain_hex(ex.at("replica_id")));
}

TEST(ReplicaId, ProverIdIsTheLeb128ActorIdLeftAligned) {
  // Facts 5.1: actor 1000 -> e807 followed by 30 zero bytes (also the oracle example prover).
  EXPECT_EQ(prover_id_from_actor_id(1000),
            test::domain_hex(test::oracles().at("derived_sdr_2KiB_example").at("prover_id")));
  const Domain small = prover_id_from_actor_id(5);
  EXPECT_EQ(small[0], 5);
  EXPECT_EQ(small[1], 0);
  const Domain max = prover_id_from_actor_id(UINT64_MAX);  // 10 LEB128 bytes
  EXPECT_EQ(max[8], 0xff);
  EXPECT_EQ(max[9], 0x01);
  EXPECT_EQ(max[10], 0x00);
}

}  // namespace
}  // namespace cuzk::filecoin
