// The node hash of Filecoin Merkle trees, the merkletree `Algorithm::multi_node` of the two
// hashers rust-fil-proofs uses (filecoin-hashers/src/poseidon.rs, sha256.rs):
//   * Poseidon: a parent of k children is the Poseidon MerkleTree hash of arity k over the
//     children as field elements (k = 2, 4, 8, 16 occur; tag 2^k - 1). Children must be canonical
//     (upstream panics "from_repr failure"; here std::invalid_argument). The `height` argument
//     upstream passes is ignored by both hashers.
//   * SHA-256: trunc254(SHA-256(child_0 || ... || child_{k-1})); for k = 2 this is sha256_node.
// Leaves are never hashed on their own (`leaf()` is the identity for both).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "filecoin/domain.hpp"
#include "filecoin/hash/poseidon_constants.hpp"
#include "filecoin/hash/sha256.hpp"

namespace cuzk::filecoin {

enum class TreeHasher { kPoseidon, kSha256 };

// "poseidon_hasher" / "sha256_hasher" (the `Hasher::name()` strings used in identifiers).
std::string tree_hasher_name(TreeHasher h);

// Hashes groups of `arity` children. Holds per-thread state (a SHA-256 context), so use one per
// thread; the Poseidon constants are the shared immutable PoseidonConstants::standard(arity).
class NodeHasher {
 public:
  NodeHasher(TreeHasher hasher, uint32_t arity);

  TreeHasher hasher() const { return hasher_; }
  uint32_t arity() const { return arity_; }

  // children.size() must equal arity (std::invalid_argument otherwise).
  Domain hash(std::span<const Domain> children);
  // `arity` children stored contiguously (32 bytes each).
  Domain hash_bytes(const uint8_t* children);

 private:
  TreeHasher hasher_;
  uint32_t arity_;
  const PoseidonConstants* poseidon_ = nullptr;
  std::optional<Sha256> sha_;
};

}  // namespace cuzk::filecoin
