// The Groth16 prover's entry points: a circuit (with its witness) and parameters in, a proof out,
// exactly as bellperson computes it, so the same circuit, parameters and r, s give the same proof
// bytes. Two ways to synthesize: against the circuit's recorded constraints (witness-only, the
// production path: prove_recorded) or into the classic ProvingAssignment (the twin the recorded
// path is tested against, and what circuits without a recording use). Either way the partition
// goes to ProverBackend::prove.
#pragma once

#include <span>
#include <vector>

#include "cs/constraint_system.hpp"
#include "cs/proving_assignment.hpp"
#include "groth16/backend.hpp"
#include "groth16/types.hpp"
#include "pce/recorded_circuit.hpp"
#include "poly/quotient.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

// From a finished assignment: synthesis done and add_input_constraints() called. Throws
// std::invalid_argument when the parameters do not fit the assignment, and SynthesisError
// (kUnsatisfiable, naming the constraint) when the witness breaks a constraint.
Proof create_proof(const Parameters& params, const ProvingAssignment& assignment,
                   const ProofRandomness& rand, ProverBackend& backend,
                   ProverTiming* timing = nullptr);

// Synthesizes `circuit` into a ProvingAssignment, then create_proof.
Proof prove(const Parameters& params, const Circuit& circuit, const ProofRandomness& rand,
            ProverBackend& backend, ProverTiming* timing = nullptr);

// Witness-only synthesis of `circuit` (on `pool`, its pieces concurrently) against its recording
// `rc`, then ProverBackend::prove with a, b, c from the recorded matrices.
Proof prove_recorded(const Parameters& params, const pce::RecordedCircuit& rc,
                     const Circuit& circuit, const ProofRandomness& rand, ProverBackend& backend,
                     ThreadPool& pool, ProverTiming* timing = nullptr);

// Several circuits of the same shape under one key; randomness and timings per circuit.
std::vector<Proof> prove_batch(const Parameters& params, std::span<const Circuit* const> circuits,
                               std::span<const ProofRandomness> rand, ProverBackend& backend,
                               std::vector<ProverTiming>* timings = nullptr);

// The same on the CPU backend over `pool`.
Proof create_proof(const Parameters& params, const ProvingAssignment& assignment,
                   const ProofRandomness& rand, ThreadPool& pool, ProverTiming* timing = nullptr);
Proof prove(const Parameters& params, const Circuit& circuit, const ProofRandomness& rand,
            ThreadPool& pool, ProverTiming* timing = nullptr);
std::vector<Proof> prove_batch(const Parameters& params, std::span<const Circuit* const> circuits,
                               std::span<const ProofRandomness> rand, ThreadPool& pool,
                               std::vector<ProverTiming>* timings = nullptr);

}  // namespace cuzk::groth16
