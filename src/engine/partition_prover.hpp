// One partition from its circuit to its proof bytes: the two steps every orchestration of a
// proof shares, the engine's pipeline (a synthesis worker, then a prover worker with its retries)
// and the `cuzk` commands' serial driver (serial_prover.hpp).
//
//   synthesize_partition  the circuit's witness: witness-only against the circuit's recorded
//                         constraints when there is a recording, else into the classic proving
//                         assignment, reserved to the parameters' shape so its vectors never
//                         regrow (perf-log: 1.4-1.5x faster synthesis);
//   prove_partition       a Groth16 proof of it on a backend, verified against the partition's
//                         public inputs before it is encoded (192 bytes): a proof that does not
//                         verify is never returned.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "cs/constraint_system.hpp"
#include "cs/proving_assignment.hpp"
#include "engine/handlers/circuit_handler.hpp"
#include "groth16/backend.hpp"
#include "groth16/types.hpp"
#include "groth16/verifier.hpp"
#include "pce/compact_witness.hpp"
#include "pce/recorded_circuit.hpp"
#include "util/clock.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {

// A synthesized partition: the prover's input (the compact witness of a recorded circuit, or
// the classic assignment) and the public inputs its proof must verify for.
struct SynthesizedPartition {
  std::optional<pce::CompactWitness> witness;
  ProvingAssignment assignment;
  std::vector<Fr> public_inputs;
};

// `rc` null: the classic assignment, reserved to `shape`. Witness-only synthesis runs the
// circuit's pieces on `pool`. std::invalid_argument when the witness does not have the
// recording's shape; the circuit's own errors propagate.
std::unique_ptr<SynthesizedPartition> synthesize_partition(PartitionCircuit partition,
                                                           const pce::RecordedCircuit* rc,
                                                           const ShapeHint& shape,
                                                           ThreadPool& pool);

// What prove_partition made of one partition.
struct ProvedPartition {
  std::vector<uint8_t> proof;  // the encoded proof; empty when it failed its verification
  bool verify_failed = false;
  groth16::ProverTiming timing;  // the backend's phases (synthesis is not part of this step)
  // When the self-verification ran (both the prove's end when it was not asked for).
  SteadyClock::time_point verify_started, verify_ended;
};

// Proves `p` with `params` on `backend`: from its compact witness against `rc` (the recording
// it was synthesized against), or from its classic assignment. Then, unless `pvk` is null, the
// proof is verified against p.public_inputs (`tamper`, when given, changes it first: the
// engine's fault injection). The backend's and the verifier's errors propagate
// (std::invalid_argument from verify_proof for a key with another input count).
ProvedPartition prove_partition(groth16::ProverBackend& backend, const groth16::Parameters& params,
                                const pce::RecordedCircuit* rc,
                                const groth16::PreparedVerifyingKey* pvk,
                                const SynthesizedPartition& p, const groth16::ProofRandomness& rand,
                                const std::function<void(groth16::Proof&)>& tamper = {});

}  // namespace cuzk::engine
