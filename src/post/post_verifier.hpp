// The verification of one PoSt partition's proof, as filecoin-proofs api/window_post.rs
// `verify_window_post` / api/winning_post.rs `verify_winning_post` and storage-proofs-core
// compound_proof.rs do it: the public inputs natively from the challenged sectors
// (public_inputs.hpp), one Groth16 check. The proof itself (the circuit from the partition's
// slots, fallback_circuit.hpp, with fresh r, s, self-verified): post_partitions.hpp builds the
// partition, the engine or, for `cuzk post prove`, engine/serial_prover.hpp proves it.
#pragma once

#include <cstdint>
#include <span>

#include "groth16/types.hpp"
#include "post/public_inputs.hpp"
#include "post/vanilla/post_config.hpp"

namespace cuzk::post {

// A 192-byte proof against the public inputs of `sectors` (the partition's real sectors).
// std::invalid_argument when the bytes do not decode or the key has another input count.
bool verify_post_proof(const filecoin::FallbackPoStParams& pp, const groth16::VerifyingKey& vk,
                       const filecoin::Domain& randomness, std::span<const PublicSector> sectors,
                       uint32_t partition_index, std::span<const uint8_t> proof);

}  // namespace cuzk::post
