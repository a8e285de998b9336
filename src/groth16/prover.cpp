#include "groth16/prover.hpp"

#include <stdexcept>
#include <string>

#include "pce/witness_cs.hpp"
#include "util/clock.hpp"

namespace cuzk::groth16 {
namespace {

using Clock = SteadyClock;

}  // namespace

Proof create_proof(const Parameters& params, const ProvingAssignment& pa,
                   const ProofRandomness& rand, ProverBackend& backend, ProverTiming* timing) {
  if (const auto& bad = pa.first_unsatisfied()) {
    throw SynthesisError(SynthesisError::Kind::kUnsatisfiable,
                         "groth16 prove: the witness does not satisfy constraint " +
                             std::to_string(bad->index) + " ('" + bad->name +
                             "'); refusing to produce an invalid proof");
  }
  if (pa.a.size() != pa.b.size() || pa.a.size() != pa.c.size() ||
      pa.a.size() < pa.input_assignment.size()) {
    throw std::invalid_argument(
        "groth16 prove: assignment is not finished (call add_input_constraints)");
  }
  const pce::CompactWitness w =
      pce::CompactWitness::from_assignment(pa.input_assignment, pa.aux_assignment);
  return backend.prove(params,
                       PartitionInput::evaluated(w, pa.a, pa.b, pa.c, pa.a_aux_density,
                                                 pa.b_input_density, pa.b_aux_density),
                       rand, timing);
}

Proof prove_recorded(const Parameters& params, const pce::RecordedCircuit& rc,
                     const Circuit& circuit, const ProofRandomness& rand, ProverBackend& backend,
                     ThreadPool& pool, ProverTiming* timing) {
  const auto t0 = Clock::now();
  pce::WitnessCS cs(&pool);
  cs.reserve(rc.num_inputs, rc.num_aux);
  circuit.synthesize(cs);
  const pce::CompactWitness w = std::move(cs).finish();
  ProverTiming local;
  ProverTiming& t = timing != nullptr ? *timing : local;
  t.synthesis_s = seconds_since(t0);
  const Proof proof = backend.prove(params, PartitionInput::recorded(w, rc), rand, &t);
  t.total_s = seconds_since(t0);
  return proof;
}

Proof prove(const Parameters& params, const Circuit& circuit, const ProofRandomness& rand,
            ProverBackend& backend, ProverTiming* timing) {
  const auto t0 = Clock::now();
  ProvingAssignment pa;
  circuit.synthesize(pa);
  pa.add_input_constraints();
  ProverTiming local;
  ProverTiming& t = timing != nullptr ? *timing : local;
  t.synthesis_s = seconds_since(t0);
  const Proof proof = create_proof(params, pa, rand, backend, &t);
  t.total_s = seconds_since(t0);
  return proof;
}

std::vector<Proof> prove_batch(const Parameters& params, std::span<const Circuit* const> circuits,
                               std::span<const ProofRandomness> rand, ProverBackend& backend,
                               std::vector<ProverTiming>* timings) {
  if (circuits.size() != rand.size())
    throw std::invalid_argument("groth16 prove_batch: one randomness per circuit");
  std::vector<Proof> proofs;
  proofs.reserve(circuits.size());
  if (timings != nullptr) timings->assign(circuits.size(), {});
  for (size_t i = 0; i < circuits.size(); ++i) {
    proofs.push_back(prove(params, *circuits[i], rand[i], backend,
                           timings != nullptr ? &(*timings)[i] : nullptr));
  }
  return proofs;
}

Proof create_proof(const Parameters& params, const ProvingAssignment& assignment,
                   const ProofRandomness& rand, ThreadPool& pool, ProverTiming* timing) {
  CpuBackend backend(pool);
  return create_proof(params, assignment, rand, backend, timing);
}
Proof prove(const Parameters& params, const Circuit& circuit, const ProofRandomness& rand,
            ThreadPool& pool, ProverTiming* timing) {
  CpuBackend backend(pool);
  return prove(params, circuit, rand, backend, timing);
}
std::vector<Proof> prove_batch(const Parameters& params, std::span<const Circuit* const> circuits,
                               std::span<const ProofRandomness> rand, ThreadPool& pool,
                               std::vector<ProverTiming>* timings) {
  CpuBackend backend(pool);
  return prove_batch(params, circuits, rand, backend, timings);
}

}  // namespace cuzk::groth16
