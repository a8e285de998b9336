// The witness of one challenge of the SnapDeals circuits (storage-proofs-update circuit.rs and
// poseidon/circuit.rs `ChallengeProof`): the three leaves and the sibling hashes of each path,
// level by level from the leaves (base levels, then sub, then top). The index bits are not part of
// it: the circuit derives them from the challenge. Unknown values (blank circuits) are nullopt.
#pragma once

#include <optional>
#include <vector>

#include "ff/fr.hpp"
#include "filecoin/merkle/merkle_proof.hpp"
#include "filecoin/merkle/tree_shape.hpp"

namespace cuzk::update {

using PathSiblings = std::vector<std::vector<std::optional<Fr>>>;

struct ChallengeWitness {
  std::optional<Fr> leaf_r_old, leaf_d_new, leaf_r_new;
  PathSiblings path_r_old, path_d_new, path_r_new;

  // `ChallengeProof::empty`: the path shapes of tree_r (`tree_r`) and tree_d (binary, or
  // `tree_d` for the Poseidon variant) over 2^challenge_bit_len leaves.
  static ChallengeWitness blank(unsigned challenge_bit_len, const filecoin::TreeShape& tree_r,
                                const filecoin::TreeShape& tree_d);
  // `ChallengeProof::from_merkle_proofs`, each path checked against the shape (levels and
  // siblings per level) and every value converted strictly: std::invalid_argument naming the
  // proof otherwise.
  static ChallengeWitness from_proofs(const filecoin::MerkleProof& proof_r_old,
                                      const filecoin::MerkleProof& proof_d_new,
                                      const filecoin::MerkleProof& proof_r_new,
                                      unsigned challenge_bit_len, const filecoin::TreeShape& tree_r,
                                      const filecoin::TreeShape& tree_d);
};

// The empty path of a tree of `shape` over 2^bit_len leaves (sibling counts per level).
PathSiblings blank_path(unsigned bit_len, const filecoin::TreeShape& shape);

}  // namespace cuzk::update
