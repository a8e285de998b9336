#include "post/post_verifier.hpp"

#include <stdexcept>
#include <string>

#include "groth16/proof_io.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::post {

namespace {

void check_key(const groth16::VerifyingKey& vk, const filecoin::FallbackPoStParams& pp) {
  const uint64_t want = 1 + pp.public_input_count();
  if (vk.ic.size() != want) {
    throw std::invalid_argument("PoSt: the verifying key has " + std::to_string(vk.ic.size()) +
                                " IC points, the circuit has " + std::to_string(want) + " inputs");
  }
}

}  // namespace

bool verify_post_proof(const filecoin::FallbackPoStParams& pp, const groth16::VerifyingKey& vk,
                       const filecoin::Domain& randomness, std::span<const PublicSector> sectors,
                       uint32_t partition_index, std::span<const uint8_t> proof) {
  if (proof.size() != groth16::kProofBytes) {
    throw std::invalid_argument("PoSt verify: " + std::to_string(proof.size()) +
                                " proof bytes, a partition proof has " +
                                std::to_string(groth16::kProofBytes));
  }
  const auto decoded = groth16::decode_proof(proof);
  if (!decoded) throw std::invalid_argument("PoSt verify: " + decoded.error().message());
  check_key(vk, pp);
  return groth16::verify_proof(groth16::prepare_verifying_key(vk), *decoded,
                               public_inputs(pp, randomness, sectors, partition_index));
}

}  // namespace cuzk::post
