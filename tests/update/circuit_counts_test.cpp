// Constraint and input counts of the SnapDeals circuits against rust-fil-proofs
// storage-proofs-update (facts sheet 7.5), counted with the metric CS (no constraint stored):
//   * EmptySectorUpdate, tests/circuit.rs: 1 KiB 1 248 389, 2 KiB 1 705 039, 4 KiB 2 165 109,
//     8 KiB 2 620 359, 16 KiB 6 300 021, 32 KiB 6 760 091; the ignored 32 GiB BenchCS test:
//     81 049 499; 5 inputs each;
//   * EmptySectorUpdate-Poseidon, tests/circuit_poseidon.rs: 1 KiB 32 164, 8 KiB 47 974 (both
//     8-4-0 trees, 10 challenges), 32 GiB 22 305 906 (1376 challenges);
//   * the gadgets, src/gadgets.rs tests: gen_challenge_bits 568 / 4 544 / 5 680 and apex_por
//     317 654 / 5 808 515 (771 448 with 4 x 16 apex leafs, 453 797 with 8 x 8).
// Those upstream tests count circuits with a witness; the blank circuit is counted here and
// update_circuit_test.cpp shows a witness changes nothing.
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <random>
#include <type_traits>

#include "cs/circuit_metrics.hpp"
#include "cs/metric_cs.hpp"
#include "cs/proving_assignment.hpp"
#include "filecoin/merkle/merkle_tree.hpp"
#include "update/gadgets.hpp"
#include "update/poseidon_circuit.hpp"
#include "update/update_circuit.hpp"

namespace cuzk::update {
namespace {

using filecoin::UpdateParams;
constexpr uint64_t KiB = 1024, GiB = uint64_t{1} << 30;

struct SizeCount {
  uint64_t bytes;
  size_t constraints;
  friend void PrintTo(const SizeCount& s, std::ostream* os) {
    *os << s.bytes << " bytes: " << s.constraints;
  }
};

std::string size_label(uint64_t bytes) {
  return bytes >= GiB ? std::to_string(bytes / GiB) + "GiB" : std::to_string(bytes / KiB) + "KiB";
}

class UpdateCircuitCounts : public ::testing::TestWithParam<SizeCount> {};

TEST_P(UpdateCircuitCounts, MatchUpstreamCircuitTests) {
  const UpdateParams pp = UpdateParams::for_sector_size(GetParam().bytes);
  const CircuitMetrics m = measure_circuit(EmptySectorUpdateCircuit::blank(pp), false);
  EXPECT_EQ(m.inputs, 5u);
  EXPECT_EQ(m.constraints, GetParam().constraints);
  std::printf("%s update partition (tree %s): %zu inputs, %zu aux, %zu constraints (%.2f s)\n",
              size_label(GetParam().bytes).c_str(), pp.tree_r_shape().to_string().c_str(), m.inputs,
              m.aux, m.constraints, m.seconds);
}

INSTANTIATE_TEST_SUITE_P(
    FactsSheet75, UpdateCircuitCounts,
    ::testing::Values(SizeCount{1 * KiB, 1'248'389}, SizeCount{2 * KiB, 1'705'039},
                      SizeCount{4 * KiB, 2'165'109}, SizeCount{8 * KiB, 2'620'359},
                      SizeCount{16 * KiB, 6'300'021}, SizeCount{32 * KiB, 6'760'091},
                      SizeCount{32 * GiB, 81'049'499}),
    [](const auto& info) { return size_label(info.param.bytes); });

class UpdatePoseidonCircuitCounts : public ::testing::TestWithParam<SizeCount> {};

TEST_P(UpdatePoseidonCircuitCounts, MatchUpstreamCircuitPoseidonTests) {
  const UpdateParams pp = UpdateParams::poseidon_for_sector_size(GetParam().bytes);
  const CircuitMetrics m = measure_circuit(EmptySectorUpdatePoseidonCircuit::blank(pp), false);
  EXPECT_EQ(m.inputs, 5u);
  EXPECT_EQ(m.constraints, GetParam().constraints);
  std::printf("%s update-Poseidon (%u challenges): %zu inputs, %zu aux, %zu constraints\n",
              size_label(GetParam().bytes).c_str(), pp.challenge_count, m.inputs, m.aux,
              m.constraints);
}

INSTANTIATE_TEST_SUITE_P(FactsSheet75, UpdatePoseidonCircuitCounts,
                         ::testing::Values(SizeCount{1 * KiB, 32'164}, SizeCount{8 * KiB, 47'974},
                                           SizeCount{32 * GiB, 22'305'906}),
                         [](const auto& info) { return size_label(info.param.bytes); });

// gadgets.rs test_gen_challenge_bits_gadget: the gadget's own constraints, for every allowed size.
TEST(UpdateGadgetCounts, GenChallengeBits) {
  const struct {
    uint64_t nodes;
    size_t constraints;
  } rows[] = {{1 << 5, 568},
              {1 << 6, 568},
              {1 << 7, 568},
              {1 << 8, 568},
              {1 << 9, 568},
              {1 << 10, 568},
              {1 << 18, 568},
              {1 << 19, 568},
              {1 << 24, 4544},
              {uint64_t{1} << 30, 5680},
              {uint64_t{1} << 31, 5680}};
  for (const auto& r : rows) {
    const UpdateParams pp = UpdateParams::for_sector_size(r.nodes * 32);
    MetricCS cs;
    const AllocatedNum comm = AllocatedNum::alloc(cs, std::nullopt);
    const AllocatedNum k = AllocatedNum::alloc(cs, std::nullopt);
    const size_t before = cs.num_constraints();
    gen_challenge_bits(cs, comm, k, pp.challenge_count, pp.random_bits_per_challenge());
    EXPECT_EQ(cs.num_constraints() - before, r.constraints) << r.nodes;
  }
}

// gadgets.rs test_apex_por_gadget: apex_por over a real tree_d of random leafs, for each
// partition k: the count of its constraints (metric CS) and their satisfaction (every row of the
// proving assignment; a test CS of 5.8 M named SHA-256 constraints takes minutes on two cores).
template <class CS>
size_t apex_por_constraints(CS& cs, const filecoin::BaseTree& tree, unsigned k,
                            unsigned partition_bits, unsigned apex_per_partition,
                            unsigned leafs_row) {
  const auto fr = [](const filecoin::Domain& d) { return filecoin::domain_to_fr(d); };
  const AllocatedNum comm_d = AllocatedNum::alloc(cs, fr(tree.root()));
  std::vector<AllocatedBit> bits;
  for (unsigned i = 0; i < partition_bits; ++i)
    bits.push_back(AllocatedBit::alloc(cs, ((k >> i) & 1) != 0));
  std::vector<AllocatedNum> apex;
  for (unsigned j = 0; j < apex_per_partition; ++j)
    apex.push_back(
        AllocatedNum::alloc(cs, fr(tree.node(leafs_row, uint64_t{k} * apex_per_partition + j))));
  std::vector<std::vector<AllocatedNum>> path;
  for (unsigned i = 0; i < partition_bits; ++i) {
    const unsigned row = leafs_row + static_cast<unsigned>(std::countr_zero(apex_per_partition));
    path.push_back({AllocatedNum::alloc(cs, fr(tree.node(row + i, (k >> i) ^ 1)))});
  }
  size_t before = 0;
  if constexpr (std::is_same_v<CS, MetricCS>) before = cs.num_constraints();
  apex_por(cs, apex, bits, path, comm_d);
  if constexpr (std::is_same_v<CS, MetricCS>) return cs.num_constraints() - before;
  return 0;
}

void check_apex_por(uint64_t nodes, unsigned partitions, unsigned apex_per_partition,
                    size_t constraints) {
  std::mt19937_64 rng(nodes * 31 + partitions);
  std::vector<uint8_t> leaves(nodes * 32);
  for (size_t i = 0; i < leaves.size(); ++i)
    leaves[i] = static_cast<uint8_t>(i % 32 == 31 ? rng() & 0x3f : rng());
  const filecoin::BaseTree tree =
      filecoin::BaseTree::build(leaves, 2, filecoin::TreeHasher::kSha256);
  const unsigned height = static_cast<unsigned>(std::countr_zero(nodes));
  const unsigned partition_bits = static_cast<unsigned>(std::countr_zero(partitions));
  const unsigned apex_bits = static_cast<unsigned>(std::countr_zero(apex_per_partition));
  const unsigned leafs_row = height - partition_bits - apex_bits;
  for (unsigned k = 0; k < partitions; ++k) {
    MetricCS metric;
    EXPECT_EQ(apex_por_constraints(metric, tree, k, partition_bits, apex_per_partition, leafs_row),
              constraints)
        << nodes << " k " << k;
    ProvingAssignment pa;
    apex_por_constraints(pa, tree, k, partition_bits, apex_per_partition, leafs_row);
    EXPECT_FALSE(pa.first_unsatisfied().has_value())
        << nodes << " k " << k << ": " << pa.first_unsatisfied()->name;
  }
  // The wrong partition's apex leafs do not lead to comm_d.
  if (partitions > 1) {
    ProvingAssignment pa;
    const AllocatedNum comm_d = AllocatedNum::alloc(pa, filecoin::domain_to_fr(tree.root()));
    std::vector<AllocatedBit> bits{AllocatedBit::alloc(pa, true)};
    for (unsigned i = 1; i < partition_bits; ++i)
      bits.push_back(AllocatedBit::alloc(pa, false));
    std::vector<AllocatedNum> apex;  // partition 0's leafs claimed for partition 1
    for (unsigned j = 0; j < apex_per_partition; ++j)
      apex.push_back(AllocatedNum::alloc(pa, filecoin::domain_to_fr(tree.node(leafs_row, j))));
    std::vector<std::vector<AllocatedNum>> path;
    for (unsigned i = 0; i < partition_bits; ++i)
      path.push_back({AllocatedNum::alloc(
          pa, filecoin::domain_to_fr(tree.node(leafs_row + apex_bits + i, (1u >> i) ^ 1)))});
    apex_por(pa, apex, bits, path, comm_d);
    EXPECT_TRUE(pa.first_unsatisfied().has_value());
  }
}

TEST(UpdateGadgetCounts, ApexPorSmallSectorSizes) {
  check_apex_por(1 << 5, 1, 8, 317'654);
  check_apex_por(1 << 8, 1, 8, 317'654);
  check_apex_por(1 << 9, 2, 128, 5'808'515);
}

TEST(UpdateGadgetCounts, ApexPorSixteenKiBWithFourAndEightPartitions) {
  check_apex_por(1 << 9, 4, 16, 771'448);
  check_apex_por(1 << 9, 8, 8, 453'797);
}

}  // namespace
}  // namespace cuzk::update
