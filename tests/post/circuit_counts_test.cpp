// Constraint and input counts of the FallbackPoSt circuit against rust-fil-proofs
// storage-proofs-post/tests/fallback_circuit.rs (facts sheet 7.4: 64 leaves per base tree, 5
// challenges, V1_1) and the production partitions of filecoin-proofs/src/constants.rs
// (WINDOW_POST_SECTOR_COUNT's comments: 125 279 217 constraints for 2349 sectors of 32 GiB,
// 129 887 900 for 2300 of 64 GiB). Blank circuits are counted with the metric CS (nothing is
// stored, so a 1.25 * 10^8-constraint partition takes seconds); a witness changes nothing
// (post_circuit_test.cpp checks that for every test shape it can make a witness of).
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <ostream>

#include "cs/circuit_metrics.hpp"
#include "post/fallback_circuit.hpp"
#include "post/vanilla/post_config.hpp"
#include "post_test_util.hpp"

namespace cuzk::post {
namespace {

using filecoin::FallbackPoStParams;
using filecoin::TreeShape;

struct ShapeCount {
  TreeShape tree;
  unsigned sectors_per_partition;
  size_t inputs, constraints;
  friend void PrintTo(const ShapeCount& s, std::ostream* os) {
    *os << s.tree.to_string() << " x " << s.sectors_per_partition << ": " << s.inputs << " inputs, "
        << s.constraints << " constraints";
  }
};

class FallbackCircuitCounts : public ::testing::TestWithParam<ShapeCount> {};

TEST_P(FallbackCircuitCounts, MatchUpstreamFallbackCircuitTest) {
  const ShapeCount& want = GetParam();
  const FallbackPoStParams pp = test::upstream_test_shape(want.tree, want.sectors_per_partition);
  const CircuitMetrics m = measure_circuit(FallbackPoStCircuit::blank(pp), false);
  EXPECT_EQ(m.inputs, want.inputs);
  EXPECT_EQ(m.constraints, want.constraints);
  EXPECT_EQ(pp.public_input_count() + 1, m.inputs);
  std::printf(
      "tree %s, %llu leaves, %u sectors x 5 challenges: %zu inputs, %zu aux, %zu "
      "constraints\n",
      want.tree.to_string().c_str(), static_cast<unsigned long long>(pp.leaves()), pp.sector_count,
      m.inputs, m.aux, m.constraints);
}

// Table 7.4: 3 sectors per partition for the three trees (the "2 / 3 / 1" and "5 / 3 / 2"
// rows are the 8-0-0 partition of 3 with short or second partitions, made with witnesses in
// post_circuit_test.cpp), and 2 per partition ("4 / 2 / 2").
INSTANTIATE_TEST_SUITE_P(FactsSheet74, FallbackCircuitCounts,
                         ::testing::Values(ShapeCount{{8, 0, 0}, 3, 19, 16'869},
                                           ShapeCount{{8, 4, 0}, 3, 19, 22'674},
                                           ShapeCount{{8, 4, 2}, 3, 19, 27'384},
                                           ShapeCount{{8, 0, 0}, 2, 13, 11'246}),
                         [](const auto& info) {
                           const TreeShape& t = info.param.tree;
                           return "Tree" + std::to_string(t.base) + "_" + std::to_string(t.sub) +
                                  "_" + std::to_string(t.top) + "_Sectors" +
                                  std::to_string(info.param.sectors_per_partition);
                         });

TEST(FallbackCircuitCounts, UpstreamBlankBenchCircuitOfFiveThirtyTwoGiBSectors) {
  // fallback_circuit.rs test_fallback_post_circuit_poseidon_base_8_bench_cs (ignored upstream):
  // sector size 32 GiB, but tree 8-0-0, 10 challenges, 5 sectors: 266 665 = 5 x 53 333.
  FallbackPoStParams pp;
  pp.sector_size = uint64_t{32} << 30;
  pp.challenge_count = 10;
  pp.sector_count = 5;
  pp.tree = {8, 0, 0};
  EXPECT_EQ(measure_circuit(FallbackPoStCircuit::blank(pp), false).constraints, 266'665u);
}

// The production partitions, 64 GiB and 32 GiB WindowPoSt (~125 M and ~130 M constraints: a
// few seconds each with the metric CS), and WinningPoSt.
TEST(FallbackCircuitCounts, WindowPoStPartitionsMatchFilecoinsConstants) {
  const auto window = [](uint64_t size) {
    return filecoin::fallback_post_params(filecoin::post_config(filecoin::PoStKind::kWindow, size));
  };
  const FallbackPoStParams p32 = window(uint64_t{32} << 30);
  EXPECT_EQ(p32.sector_count, 2349u);
  EXPECT_EQ(p32.challenge_count, 10u);
  const CircuitMetrics m32 = measure_circuit(FallbackPoStCircuit::blank(p32), false);
  EXPECT_EQ(m32.constraints, 125'279'217u);
  EXPECT_EQ(m32.inputs, 25'840u);
  EXPECT_EQ(m32.domain_size(), size_t{1} << 27);
  std::printf("WindowPoSt 32 GiB partition: %zu inputs, %zu aux, %zu constraints (%.1f s)\n",
              m32.inputs, m32.aux, m32.constraints, m32.seconds);

  const FallbackPoStParams p64 = window(uint64_t{64} << 30);
  EXPECT_EQ(p64.sector_count, 2300u);
  const CircuitMetrics m64 = measure_circuit(FallbackPoStCircuit::blank(p64), false);
  EXPECT_EQ(m64.constraints, 129'887'900u);
  EXPECT_EQ(m64.inputs, 25'301u);
  std::printf("WindowPoSt 64 GiB partition: %zu inputs, %zu aux, %zu constraints (%.1f s)\n",
              m64.inputs, m64.aux, m64.constraints, m64.seconds);
}

TEST(FallbackCircuitCounts, WinningPoStIsSixtySixSlotsOfOneChallenge) {
  struct Want {
    uint64_t size;
    size_t constraints;  // 66 x (313 + PoR): derived in the facts sheet for 32 / 64 GiB
  };
  for (const Want& w : {Want{uint64_t{32} << 30, 370'590}, Want{uint64_t{64} << 30, 391'314},
                        Want{2048, 66 * (313 + 1'062)}}) {
    const FallbackPoStParams pp =
        filecoin::fallback_post_params(filecoin::post_config(filecoin::PoStKind::kWinning, w.size));
    EXPECT_EQ(pp.sector_count, 66u);
    EXPECT_EQ(pp.challenge_count, 1u);
    const CircuitMetrics m = measure_circuit(FallbackPoStCircuit::blank(pp), true);
    EXPECT_EQ(m.inputs, 133u) << w.size;
    EXPECT_EQ(m.constraints, w.constraints) << w.size;
    EXPECT_EQ(m.b_input_density, 1u);  // only ONE is in a B combination
    std::printf("WinningPoSt %llu bytes: %zu inputs, %zu aux, %zu constraints, domain 2^%d\n",
                static_cast<unsigned long long>(w.size), m.inputs, m.aux, m.constraints,
                std::countr_zero(m.domain_size()));
  }
}

TEST(FallbackCircuitCounts, ShapesThatCannotBeBuiltAreRefused) {
  FallbackPoStParams pp = test::upstream_test_shape({8, 0, 0}, 3);
  pp.sector_count = 0;
  EXPECT_THROW(FallbackPoStCircuit::blank(pp), std::invalid_argument);
  pp = test::upstream_test_shape({8, 0, 0}, 3);
  pp.challenge_count = 0;
  EXPECT_THROW(FallbackPoStCircuit::blank(pp), std::invalid_argument);
  pp = test::upstream_test_shape({8, 0, 0}, 3);
  pp.sector_size = 16 * 32;  // 16 leaves: not a power of 8
  EXPECT_THROW(FallbackPoStCircuit::blank(pp), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::post
