#include "engine/serial_prover.hpp"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/partition_prover.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/verifier.hpp"
#include "util/clock.hpp"

namespace cuzk::engine {

SerialProveResult prove_serially(const PreparedJob& job, const groth16::Parameters& params,
                                 groth16::ProverBackend& backend, ThreadPool& pool,
                                 const SerialProveOptions& options) {
  const unsigned partitions = job.partitions();
  SerialProveResult result;
  result.proof.reserve(size_t{partitions} * groth16::kProofBytes);
  const ShapeHint shape = shape_of(params);
  std::optional<groth16::PreparedVerifyingKey> pvk;
  for (unsigned k = 0; k < partitions; ++k) {
    const auto t_part = SteadyClock::now();
    PartitionCircuit pc = job.partition(k);
    PartitionTiming t;
    t.partition = k;
    t.circuit_s = pc.circuit_s;
    t.inputs_s = pc.inputs_s;
    if (!pvk) {  // the key is checked against the circuit before any synthesis
      if (params.vk.ic.size() != 1 + pc.public_inputs.size()) {
        throw std::invalid_argument("the parameters have " + std::to_string(params.vk.ic.size()) +
                                    " IC points, the circuit has " +
                                    std::to_string(1 + pc.public_inputs.size()) +
                                    " inputs (parameters of another circuit?)");
      }
      pvk = groth16::prepare_verifying_key(params.vk);
    }
    const auto t_synth = SteadyClock::now();
    const std::unique_ptr<SynthesizedPartition> synthesized =
        synthesize_partition(std::move(pc), nullptr, shape, pool);
    const double synthesis_s = seconds_since(t_synth);

    const groth16::ProofRandomness rand =
        options.randomness ? options.randomness(k) : groth16::ProofRandomness::from_os();
    ProvedPartition proved = prove_partition(backend, params, nullptr, &*pvk, *synthesized, rand);
    t.prover = proved.timing;
    t.prover.synthesis_s = synthesis_s;
    t.prover.total_s += synthesis_s;
    t.verify_s = seconds_between(proved.verify_started, proved.verify_ended);
    if (proved.verify_failed) {
      // It is never correct to return a proof that does not verify (seal.rs).
      throw std::runtime_error("the proof of partition " + std::to_string(k) +
                               " does not verify (parameters for another circuit?)");
    }
    result.proof.insert(result.proof.end(), proved.proof.begin(), proved.proof.end());
    t.total_s = seconds_since(t_part);
    result.partitions.push_back(t);
    if (options.on_partition) options.on_partition(t);
  }
  return result;
}

}  // namespace cuzk::engine
