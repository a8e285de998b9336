// Constraint and input counts of the StackedDrg circuit against rust-fil-proofs
// storage-proofs-porep/tests/stacked_circuit.rs (facts sheet 7.1): 8 nodes per base tree, 2
// layers, 1 challenge, porep_id [44; 32], V1_1, trees 2-0-0 / 8-0-0 / 8-4-0 / 8-4-2. Those tests
// count a circuit with a witness; here the blank circuit is counted, and a separate test shows
// that a witness changes nothing (same counts, same A/B densities) for a sealed 2 KiB sector. The
// 32 GiB production partition is counted too (cuzk's measured figures).
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <ostream>

#include "porep/circuit_metrics.hpp"
#include "porep/public_inputs.hpp"
#include "porep/stacked_circuit.hpp"
#include "porep_test_util.hpp"
#include "util/text.hpp"

namespace cuzk::porep {
namespace {

PublicParams test_shape(filecoin::TreeShape tree) {
  PublicParams pp;
  pp.nodes = 8 * tree.base_tree_count();
  pp.layers = 2;
  pp.tree = tree;
  pp.challenges_per_partition = 1;
  pp.partitions = 1;
  pp.porep_id.fill(44);
  pp.api_version = filecoin::ApiVersion::kV1_1_0;
  return pp;
}

struct ShapeCount {
  filecoin::TreeShape tree;
  size_t constraints;
  friend void PrintTo(const ShapeCount& s, std::ostream* os) {
    *os << s.tree.to_string() << ": " << s.constraints << " constraints";
  }
};

class StackedCircuitCounts : public ::testing::TestWithParam<ShapeCount> {};

TEST_P(StackedCircuitCounts, MatchUpstreamStackedCircuitTest) {
  const ShapeCount& want = GetParam();
  const PublicParams pp = test_shape(want.tree);
  const CircuitMetrics m = measure_circuit(pp, false);
  EXPECT_EQ(m.inputs, 22u);
  EXPECT_EQ(m.constraints, want.constraints);
  EXPECT_EQ(public_input_count(pp) + 1, m.inputs);
  std::printf("tree %s, %llu nodes: %zu inputs, %zu aux, %zu constraints (%.2f s)\n",
              want.tree.to_string().c_str(), static_cast<unsigned long long>(pp.nodes), m.inputs,
              m.aux, m.constraints, m.seconds);
}

INSTANTIATE_TEST_SUITE_P(FactsSheet71, StackedCircuitCounts,
                         ::testing::Values(ShapeCount{{2, 0, 0}, 1'206'212},
                                           ShapeCount{{8, 0, 0}, 1'199'620},
                                           ShapeCount{{8, 4, 0}, 1'296'576},
                                           ShapeCount{{8, 4, 2}, 1'346'982}),
                         [](const auto& info) {
                           const filecoin::TreeShape& t = info.param.tree;
                           return "Tree" + std::to_string(t.base) + "_" + std::to_string(t.sub) +
                                  "_" + std::to_string(t.top);
                         });

TEST(StackedCircuitCounts, WitnessAndBlankCircuitsHaveTheSameShapeAndDensities) {
  const test::SealedSector& s = test::sealed_2kib();
  const PublicParams pp = PublicParams::from_config(s.config);
  const CircuitMetrics blank = measure_circuit(pp, true);
  const CircuitMetrics full = measure_circuit(StackedCircuit::from_c1(s.c1, pp, 0), true);
  EXPECT_EQ(full.inputs, blank.inputs);
  EXPECT_EQ(full.aux, blank.aux);
  EXPECT_EQ(full.constraints, blank.constraints);
  EXPECT_EQ(full.a_aux_density, blank.a_aux_density);
  EXPECT_EQ(full.b_input_density, blank.b_input_density);
  EXPECT_EQ(full.b_aux_density, blank.b_aux_density);
  // 2 KiB: 1 + 3 + 18 * 2 inputs (facts sheet 6.8); only ONE is in a B combination.
  EXPECT_EQ(blank.inputs, 40u);
  EXPECT_EQ(blank.b_input_density, 1u);
  std::printf(
      "2 KiB partition: %zu inputs, %zu aux, %zu constraints (+%zu input rows, domain 2^%d); "
      "density A aux %zu, B input %zu, B aux %zu\n",
      blank.inputs, blank.aux, blank.constraints, blank.inputs,
      std::countr_zero(blank.domain_size()), blank.a_aux_density, blank.b_input_density,
      blank.b_aux_density);
}

TEST(StackedCircuitCounts, ProductionShapesHaveFilecoinsInputCounts) {
  // 32 GiB has its own test below.
  for (uint64_t size : {uint64_t{2} << 10, uint64_t{8} << 20}) {
    const PublicParams pp = PublicParams::for_sector_size(size);
    EXPECT_EQ(public_input_count(pp), 39u);
    const CircuitMetrics m = measure_circuit(pp, false);
    EXPECT_EQ(m.inputs, 40u) << size;
    std::printf("%s partition: %zu inputs, %zu aux, %zu constraints (%.2f s)\n",
                binary_size_name(size).c_str(), m.inputs, m.aux, m.constraints, m.seconds);
  }
  EXPECT_EQ(public_input_count(PublicParams::for_sector_size(uint64_t{32} << 30)), 327u);
  EXPECT_EQ(public_input_count(PublicParams::for_sector_size(uint64_t{64} << 30)), 327u);
}

// cuzk's measured 32 GiB partition (facts sheet 7.1): 328 inputs, 130 169 893 aux, 130 278 869
// prover rows (circuit constraints + one input * 0 = 0 row per input), domain 2^27, and the A/B
// density popcounts that fix the .params vector lengths. ~15 s and ~40 MB with the metric CS.
TEST(StackedCircuitCounts, ThirtyTwoGiBPartitionMatchesTheMeasuredProductionCircuit) {
  const PublicParams pp = PublicParams::for_sector_size(uint64_t{32} << 30);
  const CircuitMetrics m = measure_circuit(pp, true);
  EXPECT_EQ(m.inputs, 328u);
  EXPECT_EQ(m.aux, 130'169'893u);
  EXPECT_EQ(m.constraints, 130'278'541u);
  EXPECT_EQ(m.prover_rows(), 130'278'869u);
  EXPECT_EQ(m.domain_size(), size_t{1} << 27);
  EXPECT_EQ(m.a_aux_density, 129'753'292u);
  EXPECT_EQ(m.b_input_density, 1u);
  EXPECT_EQ(m.b_aux_density, 33'112'281u);
  std::printf("32 GiB partition counted in %.1f s\n", m.seconds);
}

TEST(StackedCircuitCounts, ShapesThatCannotBeBuiltAreRefused) {
  PublicParams pp = test_shape({8, 0, 0});
  pp.layers = 3;
  EXPECT_THROW(StackedCircuit::blank(pp), std::invalid_argument);
  pp = test_shape({8, 0, 0});
  pp.nodes = 16;  // not a power of 8
  EXPECT_THROW(StackedCircuit::blank(pp), std::invalid_argument);
  pp = test_shape({8, 0, 0});
  pp.challenges_per_partition = 0;
  EXPECT_THROW(StackedCircuit::blank(pp), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::porep
