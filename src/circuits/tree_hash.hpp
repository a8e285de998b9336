// The circuit side of rust-fil-proofs' two tree hashers (filecoin-hashers/src/poseidon.rs and
// sha256.rs, `HashFunction::*_circuit`):
//
//   Poseidon: hash_multi_leaf_circuit = neptune's poseidon_hash over the leaves, MerkleTree tag
//     (poseidon_circuit.hpp).
//   SHA-256 (tree_d): each leaf is decomposed with AllocatedNum::to_bits_le in namespace
//     "<i>_num_into_bits" (255 booleans + 1 packing constraint), padded with a constant zero to
//     256 bits and bit-reversed per byte, so the message is the leaves' little-endian bytes;
//     hash_circuit runs bellperson's sha256 in "hash", reverses the digest bits per byte again and
//     packs the first 254 into one number in "pack_le" — the trunc254 digest as an Fr.
//
// A binary SHA-256 node from two allocated numbers costs 1 + 2 * 256 + 44 866 constraints (the
// two constant top bits save 8 in the compression).
#pragma once

#include <span>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"

namespace cuzk::circuits {

using gadgets::AllocatedNum;
using gadgets::Boolean;

enum class TreeHasher { kPoseidon, kSha256 };

const char* tree_hasher_name(TreeHasher h);

// `HashFunction::hash_multi_leaf_circuit` of the hasher; leaves.size() is the node's arity.
AllocatedNum hash_multi_leaf_circuit(ConstraintSystem& cs, TreeHasher hasher,
                                     std::span<const AllocatedNum> leaves);

// Sha256Function::hash_circuit: sha256 of message bits (whole bytes, most significant bit of
// each byte first), the trunc254 digest packed into one number.
AllocatedNum sha256_hash_circuit(ConstraintSystem& cs, std::span<const Boolean> bits);
// Sha256Function::hash2_circuit: two numbers decomposed in "a_bits" / "b_bits", then hashed.
AllocatedNum sha256_hash2_circuit(ConstraintSystem& cs, const AllocatedNum& a,
                                  const AllocatedNum& b);
// Sha256Function::hash_leaf_bits_circuit: two little-endian bit strings, each padded to whole
// bytes with constant zeros and bit-reversed per byte.
AllocatedNum sha256_hash_leaf_bits_circuit(ConstraintSystem& cs, std::span<const Boolean> left,
                                           std::span<const Boolean> right);

}  // namespace cuzk::circuits
