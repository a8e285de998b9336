#include "update/update_proof.hpp"

#include "groth16/proof_io.hpp"
#include "groth16/verifier.hpp"
#include "update/public_inputs.hpp"

namespace cuzk::update {

namespace {

void check_vk(const groth16::VerifyingKey& vk) {
  if (vk.ic.size() != 1 + kUpdatePublicInputCount) {
    throw std::invalid_argument("update: the verifying key has " + std::to_string(vk.ic.size()) +
                                " IC points, the circuit has " +
                                std::to_string(1 + kUpdatePublicInputCount) + " inputs");
  }
}

}  // namespace

void check_update_vanilla(const filecoin::UpdateParams& pp, const filecoin::UpdatePublicInputs& in,
                          std::span<const filecoin::UpdatePartitionProof> proofs,
                          ThreadPool* pool) {
  try {
    filecoin::verify_update_partitions(pp, in, proofs, pool);
  } catch (const filecoin::UpdateVerifyError& e) {
    throw VanillaRejectedError(e.what());
  }
}

bool verify_update_proof(const filecoin::UpdateParams& pp, const groth16::VerifyingKey& vk,
                         const filecoin::UpdatePublicInputs& in,
                         std::span<const uint8_t> proof_bytes, std::vector<bool>* per_partition) {
  const size_t want = size_t{pp.partition_count} * groth16::kProofBytes;
  if (proof_bytes.size() != want) {
    throw std::invalid_argument("update verify: " + std::to_string(proof_bytes.size()) +
                                " proof bytes, the sector size needs " +
                                std::to_string(pp.partition_count) +
                                " x 192 = " + std::to_string(want));
  }
  const auto proofs = groth16::decode_proofs(proof_bytes);
  if (!proofs) throw std::invalid_argument("update verify: " + proofs.error().message());
  check_vk(vk);
  const groth16::PreparedVerifyingKey pvk = groth16::prepare_verifying_key(vk);
  bool all = true;
  if (per_partition != nullptr) per_partition->clear();
  for (unsigned k = 0; k < pp.partition_count; ++k) {
    const bool ok = groth16::verify_proof(pvk, (*proofs)[k], update_public_inputs(pp, in, k));
    all = all && ok;
    if (per_partition != nullptr) per_partition->push_back(ok);
  }
  return all;
}

}  // namespace cuzk::update
