// Registered proof ids, names, API versions and porep_ids against the oracle (facts sheet 1.1-1.4),
// and the PoRep partition / challenge counts against the oracle sector shapes (facts 2.2).
#include "filecoin/registered_proof.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "filecoin/sector_shape.hpp"
#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

std::string dotted(ApiVersion v) {
  switch (v) {
    case ApiVersion::kV1_0_0:
      return "1.0.0";
    case ApiVersion::kV1_1_0:
      return "1.1.0";
    case ApiVersion::kV1_2_0:
      return "1.2.0";
  }
  return "?";
}

TEST(RegisteredProof, SealProofIdsNamesVersionsAndPorepIdsMatchTheOracle) {
  const auto& ids = test::oracles().at("registered_proof_ids");
  const auto& hex = test::oracles().at("porep_id").at("seal_hex");
  int checked = 0;
  for (const auto& [name, id] : ids.at("seal").items()) {
    const RegisteredSealProof p = seal_proof_from_name(name);
    EXPECT_EQ(static_cast<uint32_t>(p), id.get<uint32_t>()) << name;
    EXPECT_EQ(seal_proof_info(p).name, name);
    EXPECT_EQ(dotted(seal_proof_info(p).api_version),
              ids.at("seal_api_version").at(name).get<std::string>())
        << name;
    EXPECT_EQ(to_hex(porep_id(p)), hex.at(name).get<std::string>()) << name;
    ++checked;
  }
  EXPECT_EQ(checked, 20);
  // Facts 1.4 examples: 32 GiB V1_1 -> 08 00.., Synthetic -> 0d 00.., NI -> 12 00...
  EXPECT_EQ(porep_id(RegisteredSealProof::kStackedDrg32GiBV1_1_Feat_SyntheticPoRep)[0], 0x0d);
  EXPECT_EQ(porep_id(RegisteredSealProof::kStackedDrg32GiBV1_2_Feat_NonInteractivePoRep)[0], 0x12);
  EXPECT_EQ(seal_proof_info(RegisteredSealProof::kStackedDrg64GiBV1_1_Feat_SyntheticPoRep).feature,
            ApiFeature::kSyntheticPoRep);
  EXPECT_THROW(seal_proof_from_id(20), std::invalid_argument);
  EXPECT_THROW(seal_proof_from_name("StackedDrg1KiBV1"), std::invalid_argument);
}

TEST(RegisteredProof, PoStProofIdsNamesAndVersionsMatchTheOracle) {
  const auto& ids = test::oracles().at("registered_proof_ids");
  for (const auto& [name, id] : ids.at("post").items()) {
    const PoStProofInfo& info = post_proof_info(id.get<uint32_t>());
    EXPECT_EQ(info.name, name);
    EXPECT_EQ(dotted(info.api_version), ids.at("post_api_version").at(name).get<std::string>());
    EXPECT_EQ(info.kind,
              name.find("Winning") != std::string::npos ? PoStKind::kWinning : PoStKind::kWindow);
  }
  EXPECT_THROW(post_proof_info(15), std::invalid_argument);
}

TEST(RegisteredProof, ApiVersionAndFeatureNamesAreTheSerdeNames) {
  EXPECT_EQ(api_version_from_name("V1_2_0"), ApiVersion::kV1_2_0);
  EXPECT_EQ(api_version_name(ApiVersion::kV1_0_0), "V1_0_0");
  EXPECT_EQ(api_feature_from_name("NonInteractivePoRep"), ApiFeature::kNonInteractivePoRep);
  EXPECT_THROW(api_version_from_name("1.2.0"), std::invalid_argument);
  EXPECT_THROW(api_feature_from_name("Synthetic"), std::invalid_argument);
}

TEST(RegisteredProof, PorepPartitionsAndChallengeCountsMatchTheOracleSectorShapes) {
  for (const auto& [size_name, s] : test::oracles().at("sector_shapes").at("sizes").items()) {
    const uint64_t size = s.at("sector_size").get<uint64_t>();
    const struct {
      const char* key;
      std::optional<ApiFeature> feature;
    } kinds[] = {{"porep_interactive", std::nullopt},
                 {"porep_synthetic", ApiFeature::kSyntheticPoRep},
                 {"porep_non_interactive", ApiFeature::kNonInteractivePoRep}};
    for (const auto& k : kinds) {
      const auto& o = s.at(k.key);
      const unsigned partitions = porep_partitions(size, k.feature);
      EXPECT_EQ(partitions, o.at("partitions").get<unsigned>()) << size_name << " " << k.key;
      EXPECT_EQ(porep_challenges_per_partition(size, k.feature, partitions),
                o.at("challenges_per_partition").get<unsigned>())
          << size_name << " " << k.key;
      if (o.contains("min_challenges")) {
        EXPECT_EQ(porep_minimum_challenges(size, k.feature),
                  o.at("min_challenges").get<unsigned>());
      }
    }
    EXPECT_EQ(sector_shape(size).window_post_sector_count,
              s.at("window_post").at("sectors_per_partition").get<unsigned>())
        << size_name;
  }
}

}  // namespace
}  // namespace cuzk::filecoin
