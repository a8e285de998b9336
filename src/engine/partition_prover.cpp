#include "engine/partition_prover.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "pce/spmv.hpp"
#include "pce/witness_cs.hpp"

namespace cuzk::engine {

std::unique_ptr<SynthesizedPartition> synthesize_partition(PartitionCircuit partition,
                                                           const pce::RecordedCircuit* rc,
                                                           const ShapeHint& shape,
                                                           ThreadPool& pool) {
  auto out = std::make_unique<SynthesizedPartition>();
  out->public_inputs = std::move(partition.public_inputs);
  if (rc != nullptr) {
    // Witness only, the circuit's pieces on the shared pool.
    pce::WitnessCS cs(&pool);
    cs.reserve(rc->num_inputs, rc->num_aux);
    partition.circuit->synthesize(cs);
    out->witness = std::move(cs).finish();
    pce::check_witness_shape(*rc, *out->witness);
  } else {
    out->assignment.reserve(shape.rows, shape.inputs, shape.aux);
    partition.circuit->synthesize(out->assignment);
    out->assignment.add_input_constraints();
  }
  return out;
}

ProvedPartition prove_partition(groth16::ProverBackend& backend, const groth16::Parameters& params,
                                const pce::RecordedCircuit* rc,
                                const groth16::PreparedVerifyingKey* pvk,
                                const SynthesizedPartition& p, const groth16::ProofRandomness& rand,
                                const std::function<void(groth16::Proof&)>& tamper) {
  if (p.witness && rc == nullptr) {
    throw std::invalid_argument("a witness-only partition needs its circuit's recording");
  }
  ProvedPartition out;
  groth16::Proof proof =
      p.witness ? backend.prove(params, groth16::PartitionInput::recorded(*p.witness, *rc), rand,
                                &out.timing)
                : groth16::create_proof(params, p.assignment, rand, backend, &out.timing);
  if (tamper) tamper(proof);
  out.verify_started = SteadyClock::now();
  const bool verified = pvk == nullptr || groth16::verify_proof(*pvk, proof, p.public_inputs);
  out.verify_ended = SteadyClock::now();
  if (!verified) {
    out.verify_failed = true;
    return out;
  }
  const auto bytes = groth16::encode_proof(proof);
  out.proof.assign(bytes.begin(), bytes.end());
  return out;
}

}  // namespace cuzk::engine
