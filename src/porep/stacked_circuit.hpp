// The StackedDrg (PoRep) circuit of one partition, as rust-fil-proofs
// storage-proofs-porep/src/stacked/circuit/proof.rs `StackedCircuit` (`synthesize`,
// `StackedCompound::circuit` and `blank_circuit`); facts sheet 6.8. Synthesis order:
//
//   "replica_id" (private) -> "replica_id_input" (public input 1) -> "replica_id_bits" (255
//   booleans + packing, bit-reversed per byte for the SHA-256 messages);
//   "comm_d" -> "comm_d_input" (input 2); "comm_r" -> "comm_r_input" (input 3);
//   "comm_r_last", "comm_c" (private);
//   "H_comm_c_comm_r_last" (Poseidon hash2) and "enforce comm_r = H(comm_c || comm_r_last)";
//   per challenge i, "challenge_<i>" (challenge_circuit.hpp: 18 inputs each).
//
// One code path for every shape: the blank circuit (parameter generation, counting) carries the
// same structure with no values, so the constraint system is identical with and without a
// witness.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cs/constraint_system.hpp"
#include "porep/challenge_circuit.hpp"
#include "porep/public_params.hpp"
#include "porep/vanilla/porep_proof.hpp"

namespace cuzk::porep {

// Revision of this circuit's variables and constraints (pce::CircuitIdentity): bump it when a
// change here or in a gadget it uses changes them, so recorded constraints are recorded again.
inline constexpr uint32_t kStackedCircuitVersion = 1;

class StackedCircuit final : public Circuit {
 public:
  std::optional<Fr> replica_id, comm_d, comm_r, comm_r_last, comm_c;
  std::vector<ChallengeCircuit> proofs;  // one per challenge of the partition

  // `blank_circuit`: no values, challenges_per_partition empty challenge proofs.
  static StackedCircuit blank(const PublicParams& pp);

  // `StackedCompound::circuit` for partition k of a C1 output: comm_r_last and comm_c are the
  // roots of the first proof's tree_r_last / c_x proofs and must be the same in every proof
  // ("inconsistent comm_r_lasts"). Does not run the vanilla verifier (porep_verify.hpp does);
  // std::invalid_argument naming the problem when the proofs do not have the shape of `pp` or a
  // value is not a canonical field element.
  static StackedCircuit from_c1(const filecoin::SealCommitPhase1Output& c1, const PublicParams& pp,
                                unsigned k);
  // The same from one partition's proofs.
  static StackedCircuit from_vanilla(const filecoin::Domain& replica_id,
                                     const filecoin::Domain& comm_d, const filecoin::Domain& comm_r,
                                     std::span<const filecoin::PorepChallengeProof> partition,
                                     const PublicParams& pp);

  void synthesize(ConstraintSystem& cs) const override;
};

}  // namespace cuzk::porep
