// The PoSt tool files (post_files.hpp): curio's golden postpub.json read as a WindowPoStVerifyInfo
// (its sealed CID's digest is the oracle's comm_r), written back in the same form Go reads, and
// vanilla-proof files as a JSON array of base64 or one raw proof; malformed fields named.
#include "post/vanilla/post_files.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

std::string golden_text(const char* name) {
  std::ifstream in(test::golden_file(name), std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(PoStFiles, TheGoldenVerifyInfoReadsAndWritesBack) {
  const std::string text = golden_text("window-post-32g-sector1.pub.json");
  const PoStVerifyInfo info = parse_post_verify_info(text);
  const auto& o = test::oracles().at("curio_golden_window_post_32GiB");
  EXPECT_EQ(info.randomness, Domain{});
  EXPECT_EQ(info.post_proof, o.at("post_proof").get<uint64_t>());
  EXPECT_FALSE(info.proof.has_value());  // "ProofBytes": null
  ASSERT_EQ(info.sectors.size(), 1u);
  EXPECT_EQ(info.sectors[0].seal_proof, o.at("seal_proof").get<uint64_t>());
  EXPECT_EQ(info.sectors[0].sector_number, o.at("sector_number").get<uint64_t>());
  EXPECT_EQ(info.sectors[0].comm_r, test::domain_hex(o.at("comm_r_le_hex")));
  EXPECT_EQ(info.prover, o.at("prover_actor_id").get<uint64_t>());
  // Written back: the same JSON value as curio's file.
  EXPECT_EQ(nlohmann::json::parse(post_verify_info_json(info)), nlohmann::json::parse(text));
  PoStVerifyInfo with_proof = info;
  with_proof.proof = std::vector<uint8_t>(192, 7);
  EXPECT_EQ(parse_post_verify_info(post_verify_info_json(with_proof)).proof, with_proof.proof);
}

TEST(PoStFiles, MalformedVerifyInfoNamesTheField) {
  const auto error = [](const std::string& text) -> std::string {
    try {
      parse_post_verify_info(text);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(accepted)";
  };
  const std::string good = golden_text("window-post-32g-sector1.pub.json");
  nlohmann::json j = nlohmann::json::parse(good);
  j["Randomness"] = "AAAA";
  EXPECT_NE(error(j.dump()).find("Randomness has 3 bytes"), std::string::npos);
  j = nlohmann::json::parse(good);
  j["Proofs"].push_back(j["Proofs"][0]);
  EXPECT_NE(error(j.dump()).find("exactly one proof"), std::string::npos);
  j = nlohmann::json::parse(good);
  j["ChallengedSectors"][0]["SealedCID"]["/"] =
      "baga6ea4seaqao7s73y24kcutaosvacpdjgfe5pw76ooefnyqw4ynr3d2y6x2mpq";
  EXPECT_NE(error(j.dump()).find("SealedCID"), std::string::npos);  // an unsealed CID
  j = nlohmann::json::parse(good);
  j.erase("Prover");
  EXPECT_NE(error(j.dump()).find("no \"Prover\""), std::string::npos);
  EXPECT_NE(error("[1]").find("not a JSON object"), std::string::npos);
}

TEST(PoStFiles, VanillaProofFilesAreABase64ArrayOrOneRawProof) {
  const std::vector<std::vector<uint8_t>> proofs{{0, 1, 2}, {0xff}, {}};
  EXPECT_EQ(parse_vanilla_proofs(vanilla_proofs_json(proofs)), proofs);
  const std::vector<uint8_t> raw =
      test::read_file_bytes(test::golden_file("window-post-32g-sector1.vproof"));
  const auto one =
      parse_vanilla_proofs(std::string_view(reinterpret_cast<const char*>(raw.data()), raw.size()));
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0], raw);
  EXPECT_THROW(parse_vanilla_proofs("[1]"), std::invalid_argument);
  EXPECT_THROW(parse_vanilla_proofs(R"(["not base64!"])"), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
