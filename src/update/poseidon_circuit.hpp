// The EmptySectorUpdate-Poseidon circuit (one partition), as rust-fil-proofs
// storage-proofs-update/src/poseidon/circuit.rs (upstream marks it "NOT AUDITED"). Differences to
// update_circuit.hpp: the public selector is h_select alone ("h_select", 6 bits, "h_select binary
// decomp"); no partition bits, apex leafs or partition path ("gen_challenge_bits partition zero"
// is an allocated 0); challenge_count x partitions challenges of log2(N) random bits; tree_d_new
// has the tree_r shape and is opened like tree_r with Poseidon ("path_d_new sibling (...)", "por
// tree_d_new (c_index=c)") against comm_d_new. 32 GiB: 1376 challenges, 22 305 906 constraints,
// 5 inputs.
//
// Upstream has no vanilla prover for this variant; the witness is built from Merkle proofs.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cs/constraint_system.hpp"
#include "update/challenge_witness.hpp"
#include "update/vanilla/update_params.hpp"

namespace cuzk::update {

inline constexpr uint32_t kEmptySectorUpdatePoseidonCircuitVersion = 1;

class EmptySectorUpdatePoseidonCircuit final : public Circuit {
 public:
  filecoin::UpdateParams pp;  // UpdateParams::poseidon_for_sector_size
  std::optional<Fr> h_select, comm_r_old, comm_d_new, comm_r_new;
  std::optional<Fr> comm_c, root_r_old, root_r_new;
  std::vector<ChallengeWitness> challenge_proofs;

  // std::invalid_argument for params that are not the Poseidon variant's.
  static EmptySectorUpdatePoseidonCircuit blank(const filecoin::UpdateParams& pp);

  void synthesize(ConstraintSystem& cs) const override;
};

}  // namespace cuzk::update
