// A SnapDeals vanilla partition proof as rust-fil-proofs storage-proofs-update/src/vanilla.rs
// declares it and filecoin-ffi hands it out (`GenerateUpdateVanillaProofs`: one bincode 1.3
// `PartitionProof` per partition, rust-filecoin-proofs-api update.rs; Curio passes them on as
// SubmitProofRequest.vanilla_proofs):
//
//   PartitionProof { comm_c: PoseidonDomain, apex_leafs: Vec<Sha256Domain>,
//                    challenge_proofs: Vec<ChallengeProof> }
//   ChallengeProof { proof_r_old: MerkleProof<tree_r>, proof_d_new: MerkleProof<tree_d>,
//                    proof_r_new: MerkleProof<tree_r> }
//
// bincode: comm_c as 32 raw bytes, each Vec as a u64 length then its elements, each MerkleProof
// as merkle_proof_codec.hpp writes it (tree_d proofs are Single, binary).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/merkle/merkle_proof.hpp"

namespace cuzk::filecoin {

struct UpdateChallengeProof {
  MerkleProof proof_r_old;  // tree_r_last of the sector key
  MerkleProof proof_d_new;  // tree_d of the new data
  MerkleProof proof_r_new;  // tree_r_last of the new replica
  bool operator==(const UpdateChallengeProof&) const = default;
};

struct UpdatePartitionProof {
  Domain comm_c{};
  std::vector<Domain> apex_leafs;  // this partition's nodes of tree_d's apex-leaf row
  std::vector<UpdateChallengeProof> challenge_proofs;
  bool operator==(const UpdatePartitionProof&) const = default;
};

std::vector<uint8_t> encode_update_partition_proof(const UpdatePartitionProof& proof);
// The whole span must be one proof. std::invalid_argument naming the field and byte offset on
// truncated, oversized (a length the remaining bytes cannot hold) or trailing input.
UpdatePartitionProof decode_update_partition_proof(std::span<const uint8_t> bytes);

}  // namespace cuzk::filecoin
