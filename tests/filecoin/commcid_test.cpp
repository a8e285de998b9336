// Commitment CIDs against the oracle's zero comm_d CIDs and curio's golden sealed CID (facts 3.6).
#include "filecoin/commcid.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

TEST(CommCid, ZeroCommDCidsMatchTheOracleBothWays) {
  for (const auto& [name, row] : test::oracles().at("zero_comm_d").at("sizes").items()) {
    const Domain comm_d = test::domain_hex(row.at("comm_d_hex"));
    const std::string cid = row.at("cid").get<std::string>();
    EXPECT_EQ(commitment_to_cid(comm_d, CommitmentKind::kUnsealed), cid) << name;
    EXPECT_EQ(cid_to_commitment(cid, CommitmentKind::kUnsealed), comm_d) << name;
    EXPECT_EQ(cid.rfind("baga6ea4sea", 0), 0u);
  }
}

TEST(CommCid, GoldenSealedCidParsesToTheGoldenCommR) {
  const auto& g = test::oracles().at("curio_golden_window_post_32GiB");
  const std::string cid = g.at("sealed_cid").get<std::string>();
  EXPECT_EQ(cid_to_commitment(cid, CommitmentKind::kSealed),
            test::domain_hex(g.at("comm_r_le_hex")));
  EXPECT_EQ(cid.rfind("bagboea4b5abc", 0), 0u);
}

TEST(CommCid, WrongKindsAndMalformedCidsAreRejected) {
  const auto& g = test::oracles().at("curio_golden_window_post_32GiB");
  const std::string sealed = g.at("sealed_cid").get<std::string>();
  EXPECT_THROW(cid_to_commitment(sealed, CommitmentKind::kUnsealed), std::invalid_argument);
  EXPECT_THROW(cid_to_commitment("z" + sealed.substr(1), CommitmentKind::kSealed),
               std::invalid_argument);
  EXPECT_THROW(cid_to_commitment(sealed.substr(0, 20), CommitmentKind::kSealed),
               std::invalid_argument);
  EXPECT_THROW(cid_to_commitment("bAG", CommitmentKind::kSealed), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
