// The SDR graph (DRG bucket sampling + Feistel expander) against the facts sheet 4.4 worked
// example, the oracle graph_vectors (2 KiB V1_0 / V1_1, 32 GiB and 64 GiB samples, seeds and
// keys), the graph identifiers of rust-fil-proofs, and upstream's
// test_graph_distribution_pathology (graph.rs).
#include "filecoin/graph/stacked_graph.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

std::array<uint32_t, kTotalDegree> expected_parents(const nlohmann::json& list) {
  std::array<uint32_t, kTotalDegree> p{};
  EXPECT_EQ(list.size(), kTotalDegree);
  for (size_t i = 0; i < kTotalDegree; ++i)
    p[i] = list.at(i).get<uint32_t>();
  return p;
}

void check_vectors(const StackedGraph& g, const nlohmann::json& vectors) {
  for (const auto& [node, list] : vectors.items())
    EXPECT_EQ(g.parents(std::stoull(node)), expected_parents(list)) << "node " << node;
}

const nlohmann::json& graph_vectors() {
  return test::oracles().at("graph_vectors");
}

TEST(SdrGraph, TwoKiBV1_1WorkedExampleOfFactsSheet4_4) {
  const StackedGraph g(64, porep_id(RegisteredSealProof::kStackedDrg2KiBV1_1), ApiVersion::kV1_1_0);
  using P = std::array<uint32_t, kTotalDegree>;
  EXPECT_EQ(g.parents(0), (P{0, 0, 0, 0, 0, 0, 4, 9, 60, 1, 14, 26, 26, 4}));
  EXPECT_EQ(g.parents(1), (P{0, 0, 0, 0, 0, 0, 6, 12, 35, 43, 23, 34, 58, 2}));
  EXPECT_EQ(g.parents(2), (P{1, 1, 1, 0, 1, 0, 30, 28, 55, 63, 63, 36, 37, 36}));
  EXPECT_EQ(g.parents(3), (P{2, 1, 1, 2, 2, 2, 10, 46, 59, 7, 43, 29, 9, 16}));
  EXPECT_EQ(g.parents(63), (P{62, 15, 42, 62, 61, 62, 0, 15, 30, 30, 28, 42, 49, 38}));
}

TEST(SdrGraph, TwoKiBParentsMatchTheOracleForApi1_0And1_1) {
  check_vectors(StackedGraph(64, porep_id(5, 0), ApiVersion::kV1_1_0),
                graph_vectors().at("2KiB_V1_1_porep_id5"));
  check_vectors(StackedGraph(64, porep_id(0, 0), ApiVersion::kV1_0_0),
                graph_vectors().at("2KiB_V1_0_porep_id0"));
  // API 1.2 uses the 1.1 graph (graph.rs test_graph_distribution_pathology "compatible").
  check_vectors(StackedGraph(64, porep_id(5, 0), ApiVersion::kV1_2_0),
                graph_vectors().at("2KiB_V1_1_porep_id5"));
}

TEST(SdrGraph, ThirtyTwoAndSixtyFourGiBSampledParentsMatchTheOracle) {
  check_vectors(StackedGraph(uint64_t{1} << 30, porep_id(8, 0), ApiVersion::kV1_1_0),
                graph_vectors().at("32GiB_V1_1_porep_id8"));
  check_vectors(StackedGraph(uint64_t{1} << 31, porep_id(9, 0), ApiVersion::kV1_1_0),
                graph_vectors().at("64GiB_V1_1_porep_id9"));
}

TEST(SdrGraph, DrgSeedsAndFeistelKeysMatchTheOracle) {
  const struct {
    const char* name;
    uint64_t id;
  } cases[] = {{"32GiB_V1_1_porep_id8_seeds", 8},
               {"64GiB_V1_1_porep_id9_seeds", 9},
               {"2KiB_V1_1_porep_id5_seeds", 5}};
  for (const auto& c : cases) {
    const auto& v = graph_vectors().at(c.name);
    const DrgSeed seed = derive_drg_seed(porep_id(c.id, 0));
    EXPECT_EQ(to_hex(seed), v.at("drg_seed_hex").get<std::string>()) << c.name;
    const FeistelKeys keys = derive_feistel_keys(porep_id(c.id, 0));
    for (size_t i = 0; i < 4; ++i)
      EXPECT_EQ(keys[i], v.at("feistel_keys").at(i).get<uint64_t>()) << c.name << " " << i;
  }
}

TEST(SdrGraph, IdentifierIsTheRustFilProofsString) {
  // params.rs test: the 32 GiB PublicParams identifier embeds this graph identifier.
  const StackedGraph g(uint64_t{1} << 30, porep_id(8, 0), ApiVersion::kV1_1_0);
  EXPECT_EQ(g.identifier(),
            "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
            "drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: poseidon_hasher} }");
}

// graph.rs test_graph_distribution_pathology: the first 1000 nodes of the API 1.0 32/64 GiB
// graphs have no expander parent in the upper half of the layer; API >= 1.1 graphs do.
TEST(SdrGraph, Api1_0ExpanderParentsOfLargeSectorsStayInTheLowerHalf) {
  const struct {
    uint64_t id;
    uint64_t nodes;
    ApiVersion api;
    bool pathological;
  } cases[] = {{3, uint64_t{1} << 30, ApiVersion::kV1_0_0, true},
               {4, uint64_t{1} << 31, ApiVersion::kV1_0_0, true},
               {8, uint64_t{1} << 30, ApiVersion::kV1_1_0, false},
               {9, uint64_t{1} << 31, ApiVersion::kV1_2_0, false}};
  for (const auto& c : cases) {
    const StackedGraph g(c.nodes, porep_id(c.id, 0), c.api);
    bool large_seen = false;
    std::array<uint32_t, kExpansionDegree> exp;
    for (uint64_t v = 0; v < 1000 && !large_seen; ++v) {
      g.expanded_parents(v, exp);
      for (uint32_t p : exp)
        large_seen |= p >= c.nodes / 2;
    }
    EXPECT_EQ(large_seen, !c.pathological) << "porep id " << c.id;
  }
}

TEST(SdrGraph, OutOfRangeNodesAndOversizedGraphsAreRejected) {
  const StackedGraph g(64, porep_id(5, 0), ApiVersion::kV1_1_0);
  EXPECT_THROW(g.parents(64), std::out_of_range);
  EXPECT_THROW(StackedGraph(uint64_t{1} << 32, porep_id(5, 0), ApiVersion::kV1_1_0),
               std::invalid_argument);
  EXPECT_THROW(BucketGraph(1, porep_id(5, 0), ApiVersion::kV1_1_0), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
