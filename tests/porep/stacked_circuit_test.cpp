// The StackedDrg circuit with a witness:
//   * a sealed 2 KiB sector satisfies the TestConstraintSystem, and the public inputs computed
//     natively (StackedCompound::generate_public_inputs) equal the inputs the circuit allocates,
//     one at a time, each at the variable path its label names (as rfp's stacked_circuit.rs
//     compares them);
//   * synthetic C1s of 8 MiB and of the test shapes with sub and top levels (8-2-0, 8-8-0,
//     8-8-2) satisfy every row of the proving assignment, whose inputs are the native ones;
//   * corrupted witnesses are unsatisfied, and the test CS names the constraint: a parent column
//     changed in the C1 (which the vanilla verifier refuses; the circuit builder does not run it),
//     and values changed after the vanilla check (a data leaf, the challenge, a label).
#include <gtest/gtest.h>

#include "cs/proving_assignment.hpp"
#include "cs/test_cs.hpp"
#include "porep/public_inputs.hpp"
#include "porep/stacked_circuit.hpp"
#include "porep/vanilla/porep_verify.hpp"
#include "porep_test_util.hpp"
#include "util/text.hpp"

namespace cuzk::porep {
namespace {

TEST(StackedCircuit, SealedTwoKiBSatisfiesTheTestCSAndAllocatesTheNativeInputs) {
  const test::SealedSector& s = test::sealed_2kib();
  const PublicParams pp = PublicParams::from_config(s.config);
  ASSERT_NO_THROW(filecoin::verify_seal_commit_phase1(s.c1));

  TestConstraintSystem cs;
  StackedCircuit::from_c1(s.c1, pp, 0).synthesize(cs);
  EXPECT_EQ(cs.which_is_unsatisfied(), std::nullopt);
  EXPECT_EQ(cs.num_inputs(), 40u);

  const std::vector<LabeledInput> native =
      labeled_public_inputs(pp, PorepPublicInputs::from_c1(s.c1), 0);
  ASSERT_EQ(native.size() + 1, cs.num_inputs());
  EXPECT_EQ(cs.input_values()[0], Fr::one());
  for (size_t i = 0; i < native.size(); ++i) {
    EXPECT_EQ(cs.input_values()[i + 1], native[i].value) << native[i].label;
    EXPECT_EQ(cs.get(native[i].label), native[i].value) << native[i].label;
  }
  EXPECT_EQ(native[0].label, "replica_id_input/input variable");
  EXPECT_EQ(native[21].label, "challenge_1/comm_d_inclusion/path/input 0");
  EXPECT_EQ(native[21 + 7].label, "challenge_1/exp_parent_0_inclusion/path/input 0");
  EXPECT_EQ(native.back().label, "challenge_1/c_x_inclusion/path/input 0");

  // A recomputed label changed behind the gadget's back breaks its packing.
  cs.set("challenge_1/labeling_2/create_label/result_num/input/num", Fr::from_u64(5));
  EXPECT_EQ(cs.which_is_unsatisfied(),
            "challenge_1/labeling_2/create_label/result_num/packing constraint");
}

TEST(StackedCircuit, ParentColumnChangedInTheC1IsRefusedByVanillaAndUnsatisfiesTheCircuit) {
  const test::SealedSector& s = test::sealed_2kib();
  const PublicParams pp = PublicParams::from_config(s.config);
  filecoin::SealCommitPhase1Output bad = s.c1;
  auto& row = bad.vanilla_proofs[0][0].replica_column_proofs.drg_parents[3].column.rows[1];
  row[0] ^= 1;
  EXPECT_THROW(filecoin::verify_seal_commit_phase1(bad), filecoin::PorepVerifyError);

  // Only the corrupted challenge is synthesized (half the test CS's time and memory).
  StackedCircuit c = StackedCircuit::from_c1(bad, pp, 0);
  c.proofs.erase(c.proofs.begin() + 1, c.proofs.end());
  TestConstraintSystem cs;
  c.synthesize(cs);
  EXPECT_EQ(cs.which_is_unsatisfied(),
            "challenge_0/drg_parent_3_inclusion/enforce root is correct");
}

TEST(StackedCircuit, WitnessValuesChangedAfterTheVanillaCheckAreUnsatisfied) {
  const test::SealedSector& s = test::sealed_2kib();
  const PublicParams pp = PublicParams::from_config(s.config);
  // Only the first challenge is synthesized (half the test CS's time and memory).
  {
    // The data node: tree_d no longer leads to comm_d.
    StackedCircuit c = StackedCircuit::from_c1(s.c1, pp, 0);
    c.proofs.erase(c.proofs.begin() + 1, c.proofs.end());
    c.proofs[0].data_leaf = *c.proofs[0].data_leaf + Fr::one();
    TestConstraintSystem cs;
    c.synthesize(cs);
    EXPECT_EQ(cs.which_is_unsatisfied(), "challenge_0/comm_d_inclusion/enforce root is correct");
  }
  {
    // Another challenge: the labels (node in the SHA-256 message) and so the replica change.
    StackedCircuit c = StackedCircuit::from_c1(s.c1, pp, 0);
    c.proofs.erase(c.proofs.begin() + 1, c.proofs.end());
    c.proofs[0].challenge = *c.proofs[0].challenge ^ 1;
    TestConstraintSystem cs;
    c.synthesize(cs);
    EXPECT_EQ(cs.which_is_unsatisfied(),
              "challenge_0/comm_r_last_data_inclusion/enforce root is correct");
  }
}

void expect_rows_satisfied_with_native_inputs(const filecoin::SyntheticC1& s,
                                              const PublicParams& pp) {
  for (unsigned k = 0; k < pp.partitions; ++k) {
    ProvingAssignment pa;
    StackedCircuit::from_c1(s.c1, pp, k).synthesize(pa);
    pa.add_input_constraints();
    EXPECT_EQ(test::first_unsatisfied_row(pa), std::nullopt)
        << binary_size_name(pp.sector_size()) << " partition " << k;
    const std::vector<Fr> native = public_inputs(pp, PorepPublicInputs::from_c1(s.c1), k);
    ASSERT_EQ(pa.input_assignment.size(), native.size() + 1);
    EXPECT_TRUE(std::equal(native.begin(), native.end(), pa.input_assignment.begin() + 1))
        << binary_size_name(pp.sector_size()) << " partition " << k;
  }
}

TEST(StackedCircuit, SyntheticC1sOfSubAndTopShapesSatisfyEveryRow) {
  for (uint64_t size : {uint64_t{4} << 10, uint64_t{16} << 10, uint64_t{32} << 10}) {
    const filecoin::SyntheticC1 s = test::synthetic_c1(size, size);
    const PublicParams pp = PublicParams::from_config(test::config_for(size));
    expect_rows_satisfied_with_native_inputs(s, pp);
    if (size == (uint64_t{32} << 10)) {
      // The row check sees a sibling changed in the top level of a tree_r_last path.
      filecoin::SealCommitPhase1Output bad = s.c1;
      auto& top = std::get<filecoin::TopProof>(bad.vanilla_proofs[0][1].comm_r_last_proof.data);
      top.top_proof[0].hashes[0][0] ^= 1;
      ProvingAssignment pa;
      StackedCircuit::from_c1(bad, pp, 0).synthesize(pa);
      EXPECT_NE(test::first_unsatisfied_row(pa), std::nullopt);
    }
  }
}

TEST(StackedCircuit, SyntheticEightMiBC1SatisfiesEveryRow) {
  const filecoin::SyntheticC1 s = test::synthetic_c1(uint64_t{8} << 20, 3);
  expect_rows_satisfied_with_native_inputs(
      s, PublicParams::for_proof(filecoin::RegisteredSealProof::kStackedDrg8MiBV1_1));
}

TEST(StackedCircuit, BuilderRefusesProofsOfAnotherShape) {
  const test::SealedSector& s = test::sealed_2kib();
  const PublicParams pp = PublicParams::from_config(s.config);
  {
    filecoin::SealCommitPhase1Output bad = s.c1;
    bad.vanilla_proofs[0][1].replica_column_proofs.exp_parents[2].column.rows.pop_back();
    EXPECT_THROW(StackedCircuit::from_c1(bad, pp, 0), std::invalid_argument);
  }
  {
    filecoin::SealCommitPhase1Output bad = s.c1;
    bad.vanilla_proofs[0].pop_back();
    EXPECT_THROW(StackedCircuit::from_c1(bad, pp, 0), std::invalid_argument);
  }
  {
    // An 8 MiB circuit has longer paths.
    EXPECT_THROW(StackedCircuit::from_c1(s.c1, PublicParams::for_sector_size(8u << 20), 0),
                 std::invalid_argument);
  }
  {
    filecoin::SealCommitPhase1Output bad = s.c1;
    bad.comm_r.fill(0xff);  // not a field element
    EXPECT_THROW(StackedCircuit::from_c1(bad, pp, 0), std::invalid_argument);
  }
}

}  // namespace
}  // namespace cuzk::porep
