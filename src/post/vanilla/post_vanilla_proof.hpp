// Fallback (Winning / Window) PoSt vanilla proofs: the per-sector form filecoin-proofs hands out
// (`FallbackPoStSectorProof`, filecoin-proofs/src/types/mod.rs) and its verification as
// storage-proofs-post/src/fallback/vanilla.rs `verify` does it.
//
// FallbackPoStSectorProof { sector_id: u64, comm_r, vanilla_proof: Proof { sectors:
// Vec<SectorProof { inclusion_proofs: Vec<MerkleProof>, comm_c, comm_r_last }> } }, serialized
// with bincode 1.3 (.vproof files; merkle_proof_codec.hpp for MerkleProof).
//
// A sector proof is valid when Poseidon_2(comm_c, root of the first inclusion proof) = comm_r,
// there are challenge_count inclusion proofs, each has root = that comm_r_last, the path length of
// the sector's tree_r_last shape, and proves the leaf challenge of its position
// (post_challenges.hpp) against tree_r_last (leaf = the replica node). Beyond upstream's verifier,
// the proof's own comm_r_last field must equal that root too: the circuit takes the field, so a
// proof where they differ would pass upstream's vanilla check and then fail in the circuit.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/merkle/merkle_proof.hpp"
#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

struct PoStSectorProof {
  std::vector<MerkleProof> inclusion_proofs;
  Domain comm_c{};
  Domain comm_r_last{};
  bool operator==(const PoStSectorProof&) const = default;
};

struct FallbackPoStSectorProof {
  uint64_t sector_id = 0;
  Domain comm_r{};
  std::vector<PoStSectorProof> sectors;  // vanilla_proof.sectors
  bool operator==(const FallbackPoStSectorProof&) const = default;
};

// Throws std::invalid_argument naming the byte offset on malformed or trailing input.
FallbackPoStSectorProof decode_fallback_post_sector_proof(std::span<const uint8_t> bytes);
std::vector<uint8_t> encode_fallback_post_sector_proof(const FallbackPoStSectorProof& proof);

struct PoStVerifyParams {
  uint64_t sector_size = 0;
  std::optional<TreeShape> tree;  // tree_r_last; default: the shape of sector_size
  unsigned challenge_count = 0;   // per sector (10 for Window PoSt, 66 slots x 1 for Winning)
  ApiVersion api_version = ApiVersion::kV1_0_0;
  uint64_t sector_index = 0;  // the sector's position in the whole proof (challenge index rule)
  Domain randomness{};
};

// Verifies one SectorProof of sector `sector_id` with commitment `comm_r`. Throws
// MerkleProofError (the failing challenge, leaf and level in what(); level() as for
// verify_merkle_proof) or std::invalid_argument for a comm_r / comm_r_last / count mismatch.
void verify_post_sector_proof(const PoStSectorProof& proof, uint64_t sector_id,
                              const Domain& comm_r, const PoStVerifyParams& params);
// Every entry of proof.sectors for sector proof.sector_id with commitment proof.comm_r.
void verify_fallback_post_sector_proof(const FallbackPoStSectorProof& proof,
                                       const PoStVerifyParams& params);

}  // namespace cuzk::filecoin
