// The Poseidon hash circuit Filecoin's parameters were generated with: neptune's legacy
// `circuit::poseidon_hash` (neptune 11 src/circuit.rs, "retained for backwards compatibility with
// extant trusted setups"), which rust-fil-proofs calls for every tree, column and comm_r hash
// (filecoin-hashers/src/poseidon.rs, storage-proofs-porep/src/stacked/circuit/hash.rs).
//
// Shape (t = arity + 1, constants from poseidon_circuit_constants.hpp): the state starts as
// [tag, preimage...]; the tag is a constant, so its first S-box is folded natively. Every other
// S-box of a full round, and the S-box of s[0] in each partial round, costs
//   "S-box input"  — 1 constraint allocating the linear combination (not in the first round,
//                     whose inputs are already allocated),
//   l^2, l^4, l^5  — 3 constraints, the round's compressed constant folded into the first
//                     (first round) and the last (post-S-box add) of them;
// the linear layers (dense M, the pre-sparse matrix before the partial rounds, one sparse matrix
// per partial round) only build linear combinations. The result s[1] is allocated at the end
// ("hash result", 1 constraint). Count: 3 (t R_F + R_P - 1) + (t R_F + R_P - arity), i.e.
// 311 / 377 / 505 / 598 / 761 / 1009 / 1385 for arity 2 / 4 / 8 / 11 / 16 / 24 / 36.
//
// Namespaces, under the caller's: "first round", "initial full round i" (i = 1..R_F/2-1),
// "partial round i", "final full round i" (i = 0..R_F/2-2), "terminal full round", each with
// "quintic s-box i" (partial: "solitary quintic s-box"), then "hash result".
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "circuits/poseidon_circuit_constants.hpp"
#include "cs/constraint_system.hpp"
#include "gadgets/num.hpp"

namespace cuzk::circuits {

using gadgets::AllocatedNum;

// neptune `poseidon_hash` with the given domain tag as s[0]. preimage.size() must equal the
// arity (the legacy circuit does no padding; std::invalid_argument otherwise).
AllocatedNum poseidon_hash_circuit(ConstraintSystem& cs, std::span<const AllocatedNum> preimage,
                                   const PoseidonCircuitConstants& constants, const Fr& domain_tag);

// MerkleTree mode (tag 2^arity - 1), standard strength: filecoin-hashers
// `PoseidonFunction::hash_multi_leaf_circuit` for arity = preimage.size().
AllocatedNum poseidon_hash_circuit(ConstraintSystem& cs, std::span<const AllocatedNum> preimage);

// `PoseidonFunction::hash2_circuit` (comm_r = H(comm_c, comm_r_last)): arity 2, 311 constraints.
AllocatedNum poseidon_hash2_circuit(ConstraintSystem& cs, const AllocatedNum& a,
                                    const AllocatedNum& b);

// `PoseidonFunction::hash_md_circuit`: arity-36 hashes chained over elements (> 1 of them):
// acc = elements[0]; per chunk k of 35 further elements, namespace "hash md k" hashes
// [acc, chunk..., padding]; a short last chunk is padded with zeros allocated as "padding i"
// directly under `cs`. 71 elements: 2 770 constraints.
AllocatedNum poseidon_hash_md_circuit(ConstraintSystem& cs, std::span<const AllocatedNum> elements);

// The constraint count of one poseidon_hash_circuit call (neptune's formula).
size_t poseidon_circuit_constraints(const filecoin::PoseidonConstants& constants);

}  // namespace cuzk::circuits
