// The PoRep vanilla proof of one challenge and the commit-phase-1 output, in the structure
// rust-fil-proofs and filecoin-proofs-api serialize (facts sheet 6.4, 6.5):
//
//   Column             { index: u32, rows: [label_1 .. label_L], _h }       (vanilla/column.rs)
//   ColumnProof        { column, inclusion_proof: tree_c proof of H(rows) }  (column_proof.rs)
//   LabelingProof      { parents: 37 labels, layer_index: u32, node: u64 }  (labeling_proof.rs)
//   EncodingProof      { parents, layer_index, node }                       (encoding_proof.rs)
//   ReplicaColumnProof { c_x, drg_parents: 6, exp_parents: 8 }              (params.rs)
//   Proof              { comm_d_proofs, comm_r_last_proof, replica_column_proofs,
//                        labeling_proofs: L, encoding_proof }                (params.rs)
//   SealCommitPhase1Output { registered_proof, vanilla_proofs: [[Proof; cpp]; partitions],
//                            comm_r, comm_d, replica_id, seed, ticket }   (api src/seal.rs)
// Field order is declaration order, as serde writes it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/merkle/merkle_proof.hpp"
#include "filecoin/registered_proof.hpp"
#include "filecoin/replica_id.hpp"

namespace cuzk::filecoin {

struct Column {
  uint32_t index = 0;
  std::vector<Domain> rows;  // label of layer l at rows[l - 1]
  bool operator==(const Column&) const = default;
};

struct ColumnProof {
  Column column;
  MerkleProof inclusion_proof;
  bool operator==(const ColumnProof&) const = default;
};

struct LabelingProof {
  std::vector<Domain> parents;
  uint32_t layer_index = 0;
  uint64_t node = 0;
  bool operator==(const LabelingProof&) const = default;
};
// Same fields and rules; the circuit and the verifier use it as the key derivation.
using EncodingProof = LabelingProof;

struct ReplicaColumnProof {
  ColumnProof c_x;
  std::vector<ColumnProof> drg_parents;
  std::vector<ColumnProof> exp_parents;
  bool operator==(const ReplicaColumnProof&) const = default;
};

// Plain structs, field for field as the Rust ones (the table above), with a defaulted ==.
struct PorepChallengeProof {
  MerkleProof comm_d_proofs;
  MerkleProof comm_r_last_proof;
  ReplicaColumnProof replica_column_proofs;
  std::vector<LabelingProof> labeling_proofs;
  EncodingProof encoding_proof;
  bool operator==(const PorepChallengeProof&) const = default;
};

struct SealCommitPhase1Output {
  RegisteredSealProof registered_proof = RegisteredSealProof::kStackedDrg2KiBV1_1;
  std::vector<std::vector<PorepChallengeProof>> vanilla_proofs;  // [partition][challenge]
  Domain comm_r{};
  Domain comm_d{};
  Domain replica_id{};
  Ticket seed{};
  Ticket ticket{};
  bool operator==(const SealCommitPhase1Output&) const = default;
};

// vanilla/hash.rs `hash_single_column`: the Poseidon MerkleTree hash of arity = rows (only 2 and
// 11 exist upstream, which panics otherwise; here std::invalid_argument naming the count).
Domain column_hash(std::span<const Domain> rows);

// params.rs `Proof::from_parts`: the labeling proofs (layer l: the DRG parents' labels of layer l
// and, for l > 1, the expander parents' labels of layer l - 1, cycled to 37) and the encoding
// proof (a copy of the last labeling proof) follow from the parents' columns. `c_x.column.index`
// is the challenge and its row count the number of layers.
PorepChallengeProof make_challenge_proof(MerkleProof comm_d_proof, ColumnProof c_x,
                                         std::vector<ColumnProof> drg_parents,
                                         std::vector<ColumnProof> exp_parents,
                                         MerkleProof comm_r_last_proof);

// The 37 parent labels of layer `layer` (1-based) recomputed from parent columns (6 DRG then 8
// expander), the Q of facts sheet 5.2. Throws std::invalid_argument on a missing row.
std::vector<Domain> label_parents_from_columns(std::span<const ColumnProof> drg_parents,
                                               std::span<const ColumnProof> exp_parents,
                                               unsigned layer);

}  // namespace cuzk::filecoin
