// The part of the StackedDrg circuit that proves one challenge, as rust-fil-proofs
// storage-proofs-porep/src/stacked/circuit/params.rs `Proof` (its fields, `empty`, `From<vanilla
// Proof>` and `synthesize`). Under the caller's "challenge_<i>" namespace, in this order:
//
//   "data_leaf"                          the data node (private);
//   "comm_d_inclusion"                   tree_d PoR (SHA-256, binary) of data_leaf against comm_d,
//                                        private root: 1 public input (the challenge);
//   per DRG parent j = 0..5, then per expander parent j = 0..7 ("drg_parent_" / "exp_parent_"):
//     "<kind>_<j>_num"                   the column's rows ("column/column_num_row_r");
//     "<kind>_<j>_constraint"            its column hash (Poseidon, arity = layers);
//     "<kind>_<j>_inclusion"             tree_c PoR of that hash against comm_c: 1 input (parent);
//   "challenge"                          the challenge as a UInt64 (64 booleans), then
//   "challenge input"                    packed into 1 public input;
//   per layer l = 1..L, "labeling_<l>":  each DRG parent's row l, then (l > 1) each expander
//                                        parent's row l - 1, decomposed with to_bits_le in
//                                        "drg_parent_<n>_bits" / "exp_parent_<n>_bits" (n counts
//                                        all parents of the layer), expanded to 37 parents, and
//                                        "create_label" (SHA-256 label, layer and node in the
//                                        message);
//   "encode_node"                        replica = label_L + data_leaf;
//   "comm_r_last_data_inclusion"         tree_r_last PoR of the replica: 1 input (the challenge);
//   "c_x_column_hash"                    the column hash of the L recomputed labels;
//   "c_x_inclusion"                      its tree_c PoR: 1 input (the challenge).
//
// The labeling and encoding proofs of the vanilla proof are not used (they are redundant with the
// parent columns); the challenge is taken from labeling_proofs[0].node, as upstream does.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "circuits/column.hpp"
#include "circuits/por.hpp"
#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"
#include "porep/public_params.hpp"
#include "porep/vanilla/porep_proof.hpp"

namespace cuzk::porep {

struct ChallengeCircuit {
  circuits::AuthPath comm_d_path;
  std::optional<Fr> data_leaf;
  std::optional<uint64_t> challenge;
  circuits::AuthPath comm_r_last_path;
  circuits::AuthPath comm_c_path;
  std::vector<circuits::ColumnProof> drg_parents_proofs;  // 6
  std::vector<circuits::ColumnProof> exp_parents_proofs;  // 8

  // No values, the shape of `pp` (params.rs `Proof::empty`, used by blank circuits).
  static ChallengeCircuit empty(const PublicParams& pp);
  // The witness of a vanilla proof. Checks that every path and column has the shape of `pp`
  // (std::invalid_argument naming the part otherwise: a differently shaped circuit would not
  // match the parameters) and converts the values strictly (a non-canonical field element is
  // std::invalid_argument, where upstream panics).
  static ChallengeCircuit from_vanilla(const filecoin::PorepChallengeProof& proof,
                                       const PublicParams& pp);

  // params.rs `Proof::synthesize`.
  void synthesize(ConstraintSystem& cs, const gadgets::AllocatedNum& comm_d,
                  const gadgets::AllocatedNum& comm_c, const gadgets::AllocatedNum& comm_r_last,
                  std::span<const gadgets::Boolean> replica_id_bits) const;
};

}  // namespace cuzk::porep
