// The EmptySectorUpdate (SnapDeals) circuit of one partition, as rust-fil-proofs
// storage-proofs-update/src/circuit.rs `EmptySectorUpdateCircuit::synthesize` (facts sheets 2.3,
// 6.9, 7.5). Synthesis order:
//
//   "k_and_h_select" -> public input 1 -> its log2(partitions) + 6 bits ("k_and_h_select_bit_i",
//   "k_and_h_select binary decomp"); the partition bits packed ("pack partition bits");
//   "comm_r_old", "comm_d_new", "comm_r_new" (public inputs 2-4); "phi" =
//   Poseidon_2^{Custom(1)}(comm_d_new, comm_r_old); "comm_c", "root_r_old", "root_r_new",
//   "apex_leaf_i", "partition_path_sibling_i" (private); comm_r_old = Poseidon_2(comm_c,
//   root_r_old) and the same for comm_r_new; "apex_gadget" (apex_por); "gen_challenge_bits";
//   then per challenge (c_index), one piece each: its high bits and rho, "leaf_r_old",
//   "leaf_d_new", "leaf_r_new" = leaf_r_old + leaf_d_new * rho, the tree_r_old and tree_r_new
//   paths and their por_no_challenge_input, the apex leaf its bits select, and the tree_d path
//   up to that apex leaf.
//
// 32 GiB: 81 049 499 constraints, 5 inputs (with ONE). The blank circuit (parameter generation,
// counting) has the same structure with no values.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cs/constraint_system.hpp"
#include "update/challenge_witness.hpp"
#include "update/vanilla/update_params.hpp"
#include "update/vanilla/update_proof.hpp"
#include "update/vanilla/update_vanilla.hpp"

namespace cuzk::update {

// Revision of this circuit's variables and constraints (pce::CircuitIdentity): bump it when a
// change here or in a gadget it uses changes them.
inline constexpr uint32_t kEmptySectorUpdateCircuitVersion = 1;

class EmptySectorUpdateCircuit final : public Circuit {
 public:
  filecoin::UpdateParams pp;
  // Public inputs.
  std::optional<Fr> k_and_h_select, comm_r_old, comm_d_new, comm_r_new;
  // Private inputs.
  std::optional<Fr> comm_c, root_r_old, root_r_new;
  std::vector<std::optional<Fr>> apex_leafs;
  std::vector<ChallengeWitness> challenge_proofs;

  // `EmptySectorUpdateCircuit::blank`. std::invalid_argument for Poseidon-variant params.
  static EmptySectorUpdateCircuit blank(const filecoin::UpdateParams& pp);
  // `EmptySectorUpdateCompound::circuit` for partition k: the roots come from the first
  // challenge's proofs. Does not run the vanilla verifier; std::invalid_argument naming the
  // problem when the proof does not have the shape of `pp`, the challenges do not share one
  // partition path, or a value is not a canonical field element.
  static EmptySectorUpdateCircuit from_vanilla(const filecoin::UpdateParams& pp,
                                               const filecoin::UpdatePublicInputs& in, unsigned k,
                                               const filecoin::UpdatePartitionProof& proof);

  // std::invalid_argument when the witness has another shape than `pp`, k_and_h_select is not a
  // valid partition and h selection, or a recomputed leaf_r_new differs from the witness's.
  void synthesize(ConstraintSystem& cs) const override;
};

}  // namespace cuzk::update
