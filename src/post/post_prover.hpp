// One PoSt partition proved and its proof verified, as filecoin-proofs api/window_post.rs
// `generate_single_window_post_with_vanilla` / api/winning_post.rs
// `generate_winning_post_with_vanilla` and storage-proofs-core compound_proof.rs do it: the
// circuit from the partition's slots (fallback_circuit.hpp), the public inputs natively
// (public_inputs.hpp), a Groth16 proof with fresh r, s, checked against those inputs before it
// is returned. The output is one 192-byte proof (a Winning PoSt, or one Window partition).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/post/post_request.hpp"
#include "groth16/backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/types.hpp"
#include "post/public_inputs.hpp"

namespace cuzk::post {

// Wall-clock seconds of one partition.
struct PartitionTiming {
  double circuit_s = 0;          // witness from the vanilla proofs
  double inputs_s = 0;           // native public inputs
  groth16::ProverTiming prover;  // synthesis, quotient, MSMs, assembly
  double verify_s = 0;
  double total_s = 0;
};

struct PoStProof {
  std::vector<uint8_t> bytes;  // 192
  PartitionTiming timing;
};

// std::invalid_argument when the parameters do not fit the circuit; std::runtime_error if the
// proof does not verify (nothing is returned then).
PoStProof prove_post_partition(const filecoin::PoStJob& job, const groth16::Parameters& params,
                               groth16::ProverBackend& backend,
                               const groth16::ProofRandomness& rand);

// A 192-byte proof against the public inputs of `sectors` (the partition's real sectors).
// std::invalid_argument when the bytes do not decode or the key has another input count.
bool verify_post_proof(const filecoin::FallbackPoStParams& pp, const groth16::VerifyingKey& vk,
                       const filecoin::Domain& randomness, std::span<const PublicSector> sectors,
                       uint32_t partition_index, std::span<const uint8_t> proof);

}  // namespace cuzk::post
