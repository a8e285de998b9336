// Parameter file names of the PoRep circuit: rust-fil-proofs' identifier (params.rs test
// `test_public_params_identifier`), its SHA-256 in every published file name (facts sheet 2.4 /
// parameters.json), the .meta JSON, and sector-size parsing for the command line.
#include <gtest/gtest.h>

#include "filecoin/registered_proof.hpp"
#include "filecoin/sector_shape.hpp"
#include "porep/parameter_cache.hpp"
#include "porep/public_params.hpp"
#include "util/text.hpp"

namespace cuzk::porep {
namespace {

TEST(ParameterCache, IdentifierIsUpstreamsSpellingFor32GiB) {
  EXPECT_EQ(parameter_identifier(PublicParams::for_sector_size(uint64_t{32} << 30)),
            "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: "
            "8 base_graph: drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: "
            "poseidon_hasher} }, challenges: LayerChallenges { layers: 11, max_count: 18 }, tree: "
            "merkletree-poseidon_hasher-8-8-0 }");
}

TEST(ParameterCache, FileNamesAreThePublishedOnesForEverySize) {
  const std::string prefix = "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-";
  const struct {
    uint64_t size;
    const char* stem;
  } kFiles[] = {
      {uint64_t{2} << 10,
       "8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"},
      {uint64_t{8} << 20,
       "8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb"},
      {uint64_t{512} << 20,
       "8-0-0-sha256_hasher-6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472"},
      {uint64_t{32} << 30,
       "8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"},
      {uint64_t{64} << 30,
       "8-8-2-sha256_hasher-96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"},
  };
  for (const auto& f : kFiles) {
    const PublicParams pp = PublicParams::for_sector_size(f.size);
    const ParameterFiles files = parameter_files("/params", pp);
    EXPECT_EQ(files.params, "/params/" + prefix + f.stem + ".params");
    EXPECT_EQ(files.vk, "/params/" + prefix + f.stem + ".vk");
    EXPECT_EQ(files.meta, "/params/" + prefix + f.stem + ".meta");
    EXPECT_EQ(parameter_metadata_json(pp), "{\"sector_size\":" + std::to_string(f.size) + "}");
  }
}

TEST(ParameterCache, ProofVariantsOfASizeShareOneParameterSet) {
  // The identifier has no porep_id: V1, V1_1, synthetic and NI (2 challenges per partition
  // as well) use the same files (facts sheet 2.2).
  using filecoin::RegisteredSealProof;
  const std::string id = parameter_cache_id(PublicParams::for_sector_size(2048));
  for (RegisteredSealProof p :
       {RegisteredSealProof::kStackedDrg2KiBV1, RegisteredSealProof::kStackedDrg2KiBV1_1,
        RegisteredSealProof::kStackedDrg2KiBV1_1_Feat_SyntheticPoRep,
        RegisteredSealProof::kStackedDrg2KiBV1_2_Feat_NonInteractivePoRep}) {
    EXPECT_EQ(parameter_cache_id(PublicParams::for_proof(p)), id);
  }
  EXPECT_EQ(
      PublicParams::for_proof(RegisteredSealProof::kStackedDrg2KiBV1_2_Feat_NonInteractivePoRep)
          .partitions,
      13u);
}

TEST(ParameterCache, SectorSizesParseAndPrint) {
  EXPECT_EQ(filecoin::parse_sector_size("2KiB"), 2048u);
  EXPECT_EQ(filecoin::parse_sector_size("8mib"), uint64_t{8} << 20);
  EXPECT_EQ(filecoin::parse_sector_size("512MiB"), uint64_t{512} << 20);
  EXPECT_EQ(filecoin::parse_sector_size("32G"), uint64_t{32} << 30);
  EXPECT_EQ(filecoin::parse_sector_size("2048"), 2048u);
  EXPECT_THROW(filecoin::parse_sector_size("2 KiB"), std::invalid_argument);
  EXPECT_THROW(filecoin::parse_sector_size("KiB"), std::invalid_argument);
  EXPECT_THROW(filecoin::parse_sector_size("2TiB"), std::invalid_argument);
  EXPECT_EQ(binary_size_name(2048), "2KiB");
  EXPECT_EQ(binary_size_name(uint64_t{64} << 30), "64GiB");
  EXPECT_EQ(binary_size_name(100), "100");
  EXPECT_THROW(PublicParams::for_sector_size(4096), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::porep
