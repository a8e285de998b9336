// SDR label creation against rust-fil-proofs stacked/circuit/create_label.rs test_create_label:
// the same setup (replica id and 37 parents allocated as 9 728 booleans, layer 3 and node 22 as
// constants; 532 025 constraints), output equal to the native label (label_native.hpp), and the
// StackedDrg circuit's way of feeding parents (params.rs: reverse_bit_numbering of to_bits_le of
// allocated labels, expanded to 37) for layer 1 and a later layer.
#include "circuits/create_label.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>

#include "circuit_test_util.hpp"
#include "circuits/bits.hpp"
#include "circuits/label_native.hpp"
#include "cs/metric_cs.hpp"
#include "cs/proving_assignment.hpp"
#include "cs/test_cs.hpp"
#include "filecoin/domain.hpp"
#include "filecoin/hash/sha256.hpp"

namespace cuzk::circuits {
namespace {

using filecoin::Domain;
using gadgets::Name;
using gadgets::NameN;
using gadgets::Ns;

constexpr uint32_t kLayer = 3;
constexpr uint64_t kNode = 22;

struct LabelInputs {
  Domain replica_id;
  std::vector<Domain> parents;   // 14 raw parents (6 DRG + 8 expander)
  std::vector<Domain> expanded;  // 37
};

LabelInputs make_inputs(uint64_t seed) {
  std::mt19937_64 rng(seed);
  LabelInputs s;
  s.replica_id = filecoin::fr_to_domain(Fr::random(rng));
  for (size_t i = 0; i < kDrgParents + kExpParents; ++i)
    s.parents.push_back(filecoin::fr_to_domain(Fr::random(rng)));
  s.expanded = expand_label_parents<Domain>(s.parents, kLayer);
  return s;
}

// rfp's test circuit: bytes_into_boolean_vec_be of each parent ("parents i") and of the replica
// id ("id"), then create_label_circuit in "create_label".
AllocatedNum synthesize_rfp_test(ConstraintSystem& cs, const LabelInputs& s, bool with_values) {
  std::vector<std::vector<Boolean>> parent_bits;
  for (size_t i = 0; i < s.expanded.size(); ++i) {
    std::optional<std::span<const uint8_t>> v;
    if (with_values) v = std::span<const uint8_t>(s.expanded[i]);
    parent_bits.push_back(bytes_into_boolean_vec_be(Ns(cs, NameN{"parents ", i}), v, 256));
  }
  std::optional<std::span<const uint8_t>> id;
  if (with_values) id = std::span<const uint8_t>(s.replica_id);
  const std::vector<Boolean> id_bits = bytes_into_boolean_vec_be(Ns(cs, Name{"id"}), id, 256);
  return create_label_circuit(Ns(cs, Name{"create_label"}), id_bits, parent_bits,
                              gadgets::UInt32::constant(kLayer), UInt64::constant(kNode));
}

TEST(SdrLabel, ExpandsParentsAndHashesTheFactsSheetMessage) {
  const LabelInputs s = make_inputs(1);
  ASSERT_EQ(s.expanded.size(), 37u);
  EXPECT_EQ(s.expanded[28], s.parents[0]);
  EXPECT_EQ(s.expanded[36], s.parents[8]);
  const std::vector<int> drg{1, 2, 3, 4, 5, 6};
  const std::vector<int> l1 = expand_label_parents<int>(drg, 1);
  EXPECT_EQ(l1.size(), 37u);
  EXPECT_EQ(l1[35], 6);
  EXPECT_EQ(l1[36], 1);
  EXPECT_THROW(expand_label_parents<int>(drg, 2), std::invalid_argument);

  // The 1 248-byte message of facts sheet 5.2, hashed directly.
  std::vector<uint8_t> msg(s.replica_id.begin(), s.replica_id.end());
  msg.insert(msg.end(), {0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 22});
  msg.resize(64, 0);
  for (const Domain& p : s.expanded)
    msg.insert(msg.end(), p.begin(), p.end());
  ASSERT_EQ(msg.size(), 1248u);
  EXPECT_EQ(create_label_native(s.replica_id, kLayer, kNode, s.expanded),
            filecoin::sha256_trunc254(msg));
  // Node 0: the 64-byte prefix alone.
  msg.resize(64);
  msg[43] = 0;
  EXPECT_EQ(create_label_native(s.replica_id, kLayer, 0, {}), filecoin::sha256_trunc254(msg));
}

TEST(CreateLabel, RfpTestSetupCosts532025AndMatchesTheNativeLabel) {
  const LabelInputs s = make_inputs(2);
  TestConstraintSystem cs;
  const AllocatedNum out = synthesize_rfp_test(cs, s, true);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 532025u);
  EXPECT_EQ(*out.value(),
            filecoin::domain_to_fr(create_label_native(s.replica_id, kLayer, kNode, s.expanded)));
  EXPECT_EQ(cs.get("create_label/result_num/input/num"), *out.value());
  // Tampering a parent bit breaks the hash; the first failing constraint is in its block.
  cs.set("parents 5/bit 3/boolean", Fr::one() - cs.get("parents 5/bit 3/boolean"));
  const std::optional<std::string> bad = cs.which_is_unsatisfied();
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->rfind("create_label/hash/", 0), 0u) << *bad;
}

TEST(CreateLabel, BooleanAllocationsAndBlankShape) {
  const LabelInputs s = make_inputs(3);
  MetricCS booleans;
  {
    // Only the 38 x 256 booleans of the test setup.
    for (size_t i = 0; i < 38; ++i)
      bytes_into_boolean_vec_be(booleans, std::nullopt, 256);
  }
  EXPECT_EQ(booleans.num_constraints(), 9728u);
  MetricCS blank;
  synthesize_rfp_test(blank, s, false);
  EXPECT_EQ(blank.num_constraints(), 532025u);
  ProvingAssignment pa;
  const AllocatedNum out = synthesize_rfp_test(pa, s, true);
  EXPECT_EQ(pa.a.size(), 532025u);
  EXPECT_EQ(pa.aux_assignment.size(), blank.num_aux());
  EXPECT_TRUE(test::rows_satisfied(pa));
  EXPECT_EQ(*out.value(),
            filecoin::domain_to_fr(create_label_native(s.replica_id, kLayer, kNode, s.expanded)));
}

// params.rs: parents are allocated labels; their bits are to_bits_le, byte-reversed; the replica
// id bits likewise; the node is an allocated UInt64 (the challenge). Both expansions.
TEST(CreateLabel, ParentsFromAllocatedLabelsAsTheStackedCircuitFeedsThem) {
  const LabelInputs s = make_inputs(4);
  const uint64_t node = 0x123456789;
  for (uint32_t layer : {1u, 2u}) {
    const size_t n = layer == 1 ? kDrgParents : kDrgParents + kExpParents;
    const std::vector<Domain> raw(s.parents.begin(), s.parents.begin() + static_cast<ptrdiff_t>(n));
    ProvingAssignment pa;
    const AllocatedNum id = AllocatedNum::alloc(pa, filecoin::domain_to_fr(s.replica_id));
    const std::vector<Boolean> id_bits = reverse_bit_numbering(id.to_bits_le(pa));
    const UInt64 challenge = UInt64::alloc(pa, node);
    std::vector<std::vector<Boolean>> bits;
    for (size_t i = 0; i < n; ++i) {
      const AllocatedNum label = AllocatedNum::alloc(pa, filecoin::domain_to_fr(raw[i]));
      bits.push_back(reverse_bit_numbering(label.to_bits_le(pa)));
    }
    const AllocatedNum out =
        create_label_circuit(pa, id_bits, expand_label_parents<std::vector<Boolean>>(bits, layer),
                             gadgets::UInt32::constant(layer), challenge);
    EXPECT_TRUE(test::rows_satisfied(pa)) << "layer " << layer;
    const std::vector<Domain> expanded = expand_label_parents<Domain>(raw, layer);
    EXPECT_EQ(*out.value(),
              filecoin::domain_to_fr(create_label_native(s.replica_id, layer, node, expanded)))
        << "layer " << layer;
  }
}

}  // namespace
}  // namespace cuzk::circuits
