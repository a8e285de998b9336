// The FallbackPoSt circuit (Winning and Window PoSt) of one partition, as rust-fil-proofs
// storage-proofs-post/src/fallback/circuit.rs `FallbackPoStCircuit` / `Sector` and compound.rs
// `circuit` / `blank_circuit` build it (facts sheet 2.3, 6.9, 7.4). Under "outer namespace", per
// sector slot i ("sector_<i>"), in this order:
//
//   "comm_r_last", "comm_c", "comm_r"    allocated (private);
//   "comm_r_input"                       comm_r inputized (public input);
//   "H_comm_c_comm_r_last"               Poseidon hash2(comm_c, comm_r_last), then
//   "enforce_comm_c_comm_r_last_hash_comm_r"  comm_r * 1 = that hash;
//   per challenge j, "challenge_inclusion_<j>"  PoR (circuits/por.hpp) of the leaf (a new
//                                        "value") against comm_r_last with a private root: 1
//                                        public input (the challenged leaf).
//
// Per slot: 313 + challenges x PoR (32 GiB 8-8-0: 5 302, 64 GiB 8-8-2: 5 616); so a 32 GiB
// WindowPoSt partition (2349 slots x 10) has 125 279 217 constraints and 25 840 inputs.
//
// Slots are independent: each is a ConstraintSystem::pieces piece, so witness-only synthesis
// runs them on all cores (upstream's synthesize_extendable does the same with sector chunks).
// The blank circuit has the same structure with no values, so the constraint system is the
// same with and without a witness.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "circuits/por.hpp"
#include "cs/constraint_system.hpp"
#include "post/vanilla/post_config.hpp"
#include "post/vanilla/post_partition.hpp"

namespace cuzk::post {

// Revision of this circuit's variables and constraints (pce::CircuitIdentity): bump it when a
// change here or in a gadget it uses changes them, so recorded constraints are recorded again.
inline constexpr uint32_t kFallbackPoStCircuitVersion = 1;

// circuit.rs `Sector`: one slot.
struct SectorCircuit {
  std::optional<Fr> comm_r, comm_c, comm_r_last;
  std::vector<std::optional<Fr>> leafs;  // one per challenge
  std::vector<circuits::AuthPath> paths;

  // `Sector::blank_circuit`: challenge_count empty paths of the tree of pp.leaves() leaves.
  static SectorCircuit blank(const filecoin::FallbackPoStParams& pp);
  // `Sector::circuit`: comm_c and comm_r_last from the SectorProof's fields, the leaves and
  // paths of its inclusion proofs. std::invalid_argument naming the problem when a path does not
  // have the shape of `pp` or a value is not a canonical field element.
  static SectorCircuit from_slot(const filecoin::PoStSlot& slot,
                                 const filecoin::FallbackPoStParams& pp);

  void synthesize(ConstraintSystem& cs) const;
};

class FallbackPoStCircuit final : public Circuit {
 public:
  std::vector<SectorCircuit> sectors;  // sector_count slots

  static FallbackPoStCircuit blank(const filecoin::FallbackPoStParams& pp);
  // compound.rs `circuit` for a partition (padding slots included). std::invalid_argument when
  // it does not have sector_count slots or a slot does not fit `pp`.
  static FallbackPoStCircuit from_partition(const filecoin::PoStPartition& partition,
                                            const filecoin::FallbackPoStParams& pp);

  void synthesize(ConstraintSystem& cs) const override;
};

}  // namespace cuzk::post
