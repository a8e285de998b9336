// The Poseidon hash as neptune / rust-fil-proofs compute it (facts sheet 3.4).
//
// State s[0..t): s[0] = domain tag, s[1..1+k) = the k <= arity inputs, the rest zero. The
// permutation runs R_F/2 full rounds, R_P partial rounds, R_F/2 full rounds; round r adds the t
// constants rc[r*t .. r*t+t) to every element (also in partial rounds), applies x^5 to every
// element (full) or to s[0] only (partial), then multiplies by the MDS matrix. The hash is s[1]
// afterwards.
//
// Two implementations of the permutation give identical results: the round-by-round reference
// twin (poseidon_alt.rs "Correct" mode) and the optimized one (folded constants, sparse partial
// rounds; see poseidon.cpp), which the hash functions use.
#pragma once

#include <cstdint>
#include <span>

#include "ff/fr.hpp"
#include "filecoin/domain.hpp"
#include "filecoin/hash/poseidon_constants.hpp"

namespace cuzk::filecoin {

// Domain tags (neptune hash_type.rs `HashType::domain_tag`).
namespace poseidon_tag {
Fr merkle_tree(size_t arity);         // 2^arity - 1
Fr constant_length(uint64_t length);  // length * 2^64
Fr custom(uint64_t id);               // id * 2^40, id in 1..256 (else std::invalid_argument)
inline Fr encryption() {
  return Fr::from_u64(uint64_t{1} << 32);
}  // 2^32
inline Fr sponge() {
  return Fr::zero();
}
}  // namespace poseidon_tag

// In place; state.size() must equal c.width() (std::invalid_argument otherwise).
void poseidon_permute_reference(const PoseidonConstants& c, std::span<Fr> state);
void poseidon_permute(const PoseidonConstants& c, std::span<Fr> state);

// s = [tag, inputs..., 0...], permute, return s[1]. inputs.size() <= arity (neptune `input` +
// `hash`: unused slots stay zero); std::invalid_argument otherwise.
Fr poseidon_hash_with_tag(const PoseidonConstants& c, const Fr& tag, std::span<const Fr> inputs);
Fr poseidon_hash_reference_with_tag(const PoseidonConstants& c, const Fr& tag,
                                    std::span<const Fr> inputs);

// MerkleTree mode, the Filecoin tree/column/comm_r hash: exactly arity inputs.
Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> inputs);
// Same over Domains (strict conversion: an input >= r throws std::invalid_argument).
Domain poseidon_hash(const PoseidonConstants& c, std::span<const Domain> inputs);
// comm_r = Poseidon_2(comm_c, comm_r_last) and other binary nodes.
Domain poseidon_hash2(const Domain& a, const Domain& b);

// ConstantLength(L) with L = inputs.size() <= arity: one permutation, tag L * 2^64, zero padded
// (for L > arity neptune absorbs with a sponge, which is not implemented).
Fr poseidon_hash_constant_length(const PoseidonConstants& c, std::span<const Fr> inputs);
// Custom(id) tag (SnapDeals uses id 1): inputs.size() <= arity.
Fr poseidon_hash_custom(const PoseidonConstants& c, uint64_t id, std::span<const Fr> inputs);

// filecoin-hashers poseidon.rs `hash_md`: arity-36 MerkleTree hashes chained, acc = input[0],
// then acc = H(acc, next 35 elements, zero padded) while elements remain. Needs > 1 element.
Fr poseidon_hash_md(std::span<const Fr> input);

}  // namespace cuzk::filecoin
