#include "update/prove_update.hpp"

#include <chrono>

#include "gpu/backend_factory.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/verifier.hpp"
#include "update/public_inputs.hpp"
#include "update/update_circuit.hpp"

namespace cuzk::update {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

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

UpdateProveResult prove_update(const filecoin::UpdateParams& pp,
                               const filecoin::UpdatePublicInputs& in,
                               std::span<const filecoin::UpdatePartitionProof> proofs,
                               const groth16::Parameters& params,
                               const UpdateProveOptions& options) {
  if (options.pool == nullptr)
    throw std::invalid_argument("update prove: options.pool is required");
  ThreadPool& pool = *options.pool;
  UpdateProveResult result;
  if (proofs.size() != pp.partition_count) {
    throw VanillaRejectedError(std::to_string(proofs.size()) +
                               " partition proofs, the sector size has " +
                               std::to_string(pp.partition_count));
  }
  auto t0 = Clock::now();
  if (!options.vanilla_checked) check_update_vanilla(pp, in, proofs, &pool);
  result.vanilla_verify_s = seconds_since(t0);
  check_vk(params.vk);

  std::unique_ptr<groth16::ProverBackend> backend =
      groth16::make_backend(options.backend, pool, &result.backend);
  const groth16::PreparedVerifyingKey pvk = groth16::prepare_verifying_key(params.vk);
  result.proof.reserve(pp.partition_count * groth16::kProofBytes);
  for (unsigned k = 0; k < pp.partition_count; ++k) {
    PartitionTiming t;
    t.partition = k;
    const auto t_part = Clock::now();
    t0 = Clock::now();
    const EmptySectorUpdateCircuit circuit =
        EmptySectorUpdateCircuit::from_vanilla(pp, in, k, proofs[k]);
    t.circuit_s = seconds_since(t0);
    t0 = Clock::now();
    const std::vector<Fr> inputs = update_public_inputs(pp, in, k);
    t.inputs_s = seconds_since(t0);
    const groth16::ProofRandomness rand =
        options.randomness ? options.randomness(k) : groth16::ProofRandomness::from_os();
    const groth16::Proof proof = groth16::prove(params, circuit, rand, *backend, &t.prover);
    t0 = Clock::now();
    const bool ok = groth16::verify_proof(pvk, proof, inputs);
    t.verify_s = seconds_since(t0);
    if (!ok) {
      throw std::runtime_error("update prove: the proof of partition " + std::to_string(k) +
                               " does not verify (parameters for another circuit?)");
    }
    const auto bytes = groth16::encode_proof(proof);
    result.proof.insert(result.proof.end(), bytes.begin(), bytes.end());
    t.total_s = seconds_since(t_part);
    result.partitions.push_back(t);
    if (options.on_partition) options.on_partition(t);
  }
  return result;
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
