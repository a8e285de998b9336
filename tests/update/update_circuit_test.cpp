// The SnapDeals circuits with a witness:
//   * vanilla proofs of random updates (common/synthetic_update.hpp) satisfy the circuit of
//     every partition, for every test shape (1 KiB 8-4-0 ... 32 KiB 8-8-2), and the circuit's
//     public inputs are the native ones (circuit.rs PublicInputs::to_vec), at the variable paths
//     rfp's test CS names;
//   * a witness changes neither the counts nor the A/B densities of the blank circuit;
//   * corrupted witnesses are unsatisfied (the test CS names the constraint), and a witness of
//     another shape, a bad k_and_h_select or a leaf_r_new that is not the encoding are refused;
//   * the Poseidon variant, with tree_d_new of the tree_r shape, is satisfied the same way.
#include <gtest/gtest.h>

#include "common/synthetic_update.hpp"
#include "cs/circuit_metrics.hpp"
#include "cs/metric_cs.hpp"
#include "cs/proving_assignment.hpp"
#include "cs/test_cs.hpp"
#include "update/poseidon_circuit.hpp"
#include "update/public_inputs.hpp"
#include "update/update_circuit.hpp"
#include "update/vanilla/update_challenges.hpp"
#include "update/vanilla/update_synthetic.hpp"

namespace cuzk::update {
namespace {

using filecoin::UpdateParams;
constexpr uint64_t KiB = 1024;

// The name of the first unsatisfied constraint (the proving assignment's: its own name, without
// the namespace path a test CS would give).
std::optional<std::string> unsatisfied(const Circuit& c) {
  ProvingAssignment pa;
  c.synthesize(pa);
  if (pa.first_unsatisfied()) return pa.first_unsatisfied()->name;
  return std::nullopt;
}

TEST(UpdateCircuit, TwoKiBWitnessSatisfiesTheTestCSWithTheNativeInputs) {
  const testing::SyntheticUpdate u = testing::make_synthetic_update(2 * KiB, 21);
  const EmptySectorUpdateCircuit c =
      EmptySectorUpdateCircuit::from_vanilla(u.pp, u.in, 0, u.proofs[0]);
  TestConstraintSystem cs;
  c.synthesize(cs);
  EXPECT_EQ(cs.which_is_unsatisfied(), std::nullopt);
  const std::vector<Fr> native = update_public_inputs(u.pp, u.in, 0);
  ASSERT_EQ(cs.num_inputs(), 1 + native.size());
  EXPECT_TRUE(cs.verify_inputs(native));
  // 2 KiB: one partition, h = 1 = hs[0]: k_and_h_select = 0 | 1 << 0.
  EXPECT_EQ(native[0], Fr::one());
  EXPECT_EQ(cs.get("k_and_h_select (public input)/input variable"), native[0]);
  EXPECT_EQ(cs.get("comm_r_old_input/input variable"), native[1]);
  EXPECT_EQ(cs.get("comm_d_new_input/input variable"), native[2]);
  EXPECT_EQ(cs.get("comm_r_new_input/input variable"), native[3]);

  // The circuit's challenge bits are the vanilla challenges (gadgets.rs
  // test_gen_challenge_bits_gadget): challenge 3's tree_r_old path opens node c3.
  const uint32_t c3 = filecoin::update_challenges(u.pp, u.in.comm_r_new, 0)[3];
  for (unsigned i = 0; i < u.pp.challenge_bit_len; ++i) {
    const Fr bit =
        cs.get("gen_challenge_bits/digest_0_bits/bit " + std::to_string(3 * 6 + i) + "/boolean");
    EXPECT_EQ(bit, ((c3 >> i) & 1) ? Fr::one() : Fr::zero()) << i;
  }

  // A recomputed value changed behind the gadget's back.
  cs.set("leaf_r_new (c_index=4)/label_r_new/num", Fr::from_u64(5));
  EXPECT_EQ(cs.which_is_unsatisfied(),
            "leaf_r_new (c_index=4)/label_r_new == label_r_old + label_d_new * rho");
}

class UpdateCircuitShapes : public ::testing::TestWithParam<uint64_t> {};

TEST_P(UpdateCircuitShapes, EveryPartitionsWitnessSatisfiesEveryRow) {
  const testing::SyntheticUpdate u = testing::make_synthetic_update(GetParam(), 23);
  for (unsigned k = 0; k < u.pp.partition_count; ++k) {
    const EmptySectorUpdateCircuit c =
        EmptySectorUpdateCircuit::from_vanilla(u.pp, u.in, k, u.proofs[k]);
    ProvingAssignment pa;
    c.synthesize(pa);
    EXPECT_FALSE(pa.first_unsatisfied().has_value())
        << "k " << k << ": " << pa.first_unsatisfied()->name;
    const std::vector<Fr> native = update_public_inputs(u.pp, u.in, k);
    ASSERT_EQ(pa.input_assignment.size(), 5u);
    EXPECT_TRUE(std::equal(native.begin(), native.end(), pa.input_assignment.begin() + 1));
  }
}

INSTANTIATE_TEST_SUITE_P(TestShapes, UpdateCircuitShapes,
                         ::testing::Values(1 * KiB, 4 * KiB, 8 * KiB, 16 * KiB, 32 * KiB),
                         [](const auto& info) { return std::to_string(info.param / KiB) + "KiB"; });

TEST(UpdateCircuit, WitnessAndBlankCircuitsHaveTheSameShapeAndDensities) {
  const testing::SyntheticUpdate u = testing::make_synthetic_update(16 * KiB, 25);
  const CircuitMetrics blank = measure_circuit(EmptySectorUpdateCircuit::blank(u.pp), true);
  const CircuitMetrics full =
      measure_circuit(EmptySectorUpdateCircuit::from_vanilla(u.pp, u.in, 1, u.proofs[1]), true);
  EXPECT_EQ(full.inputs, blank.inputs);
  EXPECT_EQ(full.aux, blank.aux);
  EXPECT_EQ(full.constraints, blank.constraints);
  EXPECT_EQ(full.a_aux_density, blank.a_aux_density);
  EXPECT_EQ(full.b_input_density, blank.b_input_density);
  EXPECT_EQ(full.b_aux_density, blank.b_aux_density);
  EXPECT_EQ(blank.b_input_density, 1u);  // only ONE is in a B combination
}

TEST(UpdateCircuit, CorruptedWitnessesAreUnsatisfied) {
  const testing::SyntheticUpdate u = testing::make_synthetic_update(2 * KiB, 27);
  const EmptySectorUpdateCircuit good =
      EmptySectorUpdateCircuit::from_vanilla(u.pp, u.in, 0, u.proofs[0]);
  ASSERT_EQ(unsatisfied(good), std::nullopt);

  EmptySectorUpdateCircuit c = good;
  *c.challenge_proofs[2].path_r_old[0][3] += Fr::one();
  EXPECT_EQ(unsatisfied(c), "calculated root == provided root");
  c = good;
  *c.apex_leafs[5] += Fr::one();
  EXPECT_EQ(unsatisfied(c), "calculated root == provided root");
  c = good;
  *c.comm_c += Fr::one();
  EXPECT_EQ(unsatisfied(c), "enforce comm_r_old_calc == comm_r_old");
  c = good;  // another comm_r_new: other challenges, other rho (caught by the encoding check)
  *c.comm_r_new += Fr::one();
  EXPECT_THROW(c.synthesize(*std::make_unique<ProvingAssignment>()), std::invalid_argument);
  c = good;  // another h: the same (h = 1 everywhere for 2 KiB: only h_select's shape matters)
  c.k_and_h_select = Fr::from_u64(2);
  EXPECT_EQ(unsatisfied(c), std::nullopt) << "hs = [1; 6]: any single h_select bit is h = 1";
  c.k_and_h_select = Fr::from_u64(3);
  EXPECT_THROW(c.synthesize(*std::make_unique<ProvingAssignment>()), std::invalid_argument);
  c.k_and_h_select = Fr::from_u64(1 << 6);
  EXPECT_THROW(c.synthesize(*std::make_unique<ProvingAssignment>()), std::invalid_argument);
}

TEST(UpdateCircuit, VanillaProofsOfAnotherShapeAreRefused) {
  const testing::SyntheticUpdate u = testing::make_synthetic_update(16 * KiB, 29);
  const UpdateParams other = UpdateParams::for_sector_size(32 * KiB);
  EXPECT_THROW(EmptySectorUpdateCircuit::from_vanilla(other, u.in, 0, u.proofs[0]),
               std::invalid_argument);
  EXPECT_THROW(EmptySectorUpdateCircuit::from_vanilla(u.pp, u.in, 2, u.proofs[0]),
               std::invalid_argument);
  filecoin::UpdatePartitionProof p = u.proofs[0];
  p.challenge_proofs.pop_back();
  EXPECT_THROW(EmptySectorUpdateCircuit::from_vanilla(u.pp, u.in, 0, p), std::invalid_argument);
  p = u.proofs[0];
  p.challenge_proofs[1].proof_d_new = u.proofs[1].challenge_proofs[1].proof_d_new;
  EXPECT_THROW(EmptySectorUpdateCircuit::from_vanilla(u.pp, u.in, 0, p), std::invalid_argument)
      << "another partition path";
  EXPECT_THROW(EmptySectorUpdateCircuit::blank(UpdateParams::poseidon_for_sector_size(2 * KiB)),
               std::invalid_argument);
}

// A synthetic update (sparse trees, update_synthetic.hpp) is a real update: its partition proofs
// satisfy the circuit like a dense sector's.
TEST(UpdateCircuit, SyntheticUpdatePartitionsSatisfyTheCircuit) {
  const UpdateParams pp = UpdateParams::for_sector_size(16 * KiB);
  const filecoin::SyntheticUpdate s = filecoin::make_synthetic_update(pp, 9);
  for (unsigned k = 0; k < pp.partition_count; ++k) {
    EXPECT_EQ(unsatisfied(EmptySectorUpdateCircuit::from_vanilla(pp, s.in, k, s.proofs[k])),
              std::nullopt)
        << k;
  }
}

// poseidon/circuit.rs: tree_d_new is a Poseidon tree of the tree_r shape; challenges from
// new_poseidon (one partition, log2 N random bits).
EmptySectorUpdatePoseidonCircuit poseidon_witness(uint64_t sector_bytes, unsigned seed) {
  using namespace cuzk::filecoin;
  const UpdateParams pp = UpdateParams::poseidon_for_sector_size(sector_bytes);
  const TreeShape shape = pp.tree_r_shape();
  std::mt19937_64 rng(seed);
  const std::vector<uint8_t> key = testing::random_nodes(pp.sector_nodes, rng);
  const std::vector<uint8_t> data = testing::random_nodes(pp.sector_nodes, rng);
  const Domain comm_c = fr_to_domain(Fr::from_u64(seed));
  const MerkleTree r_old = MerkleTree::build(key, shape, TreeHasher::kPoseidon);
  const MerkleTree d_new = MerkleTree::build(data, shape, TreeHasher::kPoseidon);
  UpdatePublicInputs in;
  in.h = pp.h_default();
  in.comm_r_old = poseidon_hash2(comm_c, r_old.root());
  in.comm_d_new = d_new.root();
  std::vector<uint8_t> replica(data.size());
  update_encode_nodes(key, data, replica, 0,
                      UpdateRhos(pp, update_phi(in.comm_d_new, in.comm_r_old), in.h));
  const MerkleTree r_new = MerkleTree::build(replica, shape, TreeHasher::kPoseidon);
  in.comm_r_new = poseidon_hash2(comm_c, r_new.root());

  EmptySectorUpdatePoseidonCircuit c;
  c.pp = pp;
  const std::vector<Fr> inputs = update_public_inputs(pp, in, 0);
  c.h_select = inputs[0];
  c.comm_r_old = inputs[1];
  c.comm_d_new = inputs[2];
  c.comm_r_new = inputs[3];
  c.comm_c = domain_to_fr(comm_c);
  c.root_r_old = domain_to_fr(r_old.root());
  c.root_r_new = domain_to_fr(r_new.root());
  for (const uint32_t ch : update_challenges(pp, in.comm_r_new, 0)) {
    c.challenge_proofs.push_back(
        ChallengeWitness::from_proofs(r_old.gen_proof(ch), d_new.gen_proof(ch), r_new.gen_proof(ch),
                                      pp.challenge_bit_len, shape, shape));
  }
  return c;
}

TEST(UpdatePoseidonCircuit, WitnessFromPoseidonTreesSatisfiesTheTestCS) {
  for (const uint64_t size : {1 * KiB, 8 * KiB}) {
    const EmptySectorUpdatePoseidonCircuit c = poseidon_witness(size, 31);
    TestConstraintSystem cs;
    c.synthesize(cs);
    EXPECT_EQ(cs.which_is_unsatisfied(), std::nullopt) << size;
    EXPECT_EQ(cs.num_inputs(), 5u);
    EXPECT_EQ(cs.input_values()[1], *c.h_select);
    EXPECT_EQ(*c.h_select, Fr::one());  // h = 1 = hs[0] for the small sizes

    EmptySectorUpdatePoseidonCircuit bad = c;
    *bad.challenge_proofs[7].path_d_new[0][0] += Fr::one();
    EXPECT_EQ(unsatisfied(bad), "calculated root == provided root");
  }
}

}  // namespace
}  // namespace cuzk::update
