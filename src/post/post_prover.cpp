#include "post/post_prover.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "groth16/proof_io.hpp"
#include "groth16/verifier.hpp"
#include "post/fallback_circuit.hpp"

namespace cuzk::post {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void check_key(const groth16::VerifyingKey& vk, const filecoin::FallbackPoStParams& pp) {
  const uint64_t want = 1 + pp.public_input_count();
  if (vk.ic.size() != want) {
    throw std::invalid_argument("PoSt: the verifying key has " + std::to_string(vk.ic.size()) +
                                " IC points, the circuit has " + std::to_string(want) + " inputs");
  }
}

}  // namespace

PoStProof prove_post_partition(const filecoin::PoStJob& job, const groth16::Parameters& params,
                               groth16::ProverBackend& backend,
                               const groth16::ProofRandomness& rand) {
  check_key(params.vk, job.params);
  PoStProof out;
  const auto t_start = Clock::now();
  auto t0 = Clock::now();
  const FallbackPoStCircuit circuit =
      FallbackPoStCircuit::from_partition(job.partition, job.params);
  out.timing.circuit_s = seconds_since(t0);
  t0 = Clock::now();
  const std::vector<Fr> inputs = public_inputs(job.params, job.randomness, job.partition);
  out.timing.inputs_s = seconds_since(t0);

  const groth16::Proof proof = groth16::prove(params, circuit, rand, backend, &out.timing.prover);
  t0 = Clock::now();
  const bool ok = groth16::verify_proof(groth16::prepare_verifying_key(params.vk), proof, inputs);
  out.timing.verify_s = seconds_since(t0);
  if (!ok) {
    throw std::runtime_error(
        "PoSt: the proof does not verify against its public inputs (parameters for another "
        "circuit?)");
  }
  const auto bytes = groth16::encode_proof(proof);
  out.bytes.assign(bytes.begin(), bytes.end());
  out.timing.total_s = seconds_since(t_start);
  return out;
}

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
