// The Groth16 prover (backend-neutral orchestration, CPU backend): synthesize into a
// ProvingAssignment, compute H with the FFTs, run the five MSMs (H, L, A, B in G1, B in G2) and
// assemble A, B, C exactly as bellperson does, so the same circuit, parameters and r, s give the
// same proof bytes.
#pragma once

#include <span>
#include <vector>

#include "cs/constraint_system.hpp"
#include "cs/proving_assignment.hpp"
#include "groth16/backend.hpp"
#include "groth16/types.hpp"
#include "poly/quotient.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

// The blinding factors of one proof. Production takes them from the OS CSPRNG; tests inject them.
struct ProofRandomness {
  Fr r, s;
  static ProofRandomness from_os();
};

// Wall-clock seconds per phase of one proof.
struct ProverTiming {
  double synthesis_s = 0;
  double quotient_s = 0;  // the FFT chain for H
  QuotientTiming quotient;
  double msm_h_s = 0, msm_l_s = 0, msm_a_s = 0, msm_b_g1_s = 0, msm_b_g2_s = 0;
  double assemble_s = 0;
  double total_s = 0;
};

// From a finished assignment: synthesis done and add_input_constraints() called. Throws
// std::invalid_argument when the parameters do not fit the assignment, and SynthesisError
// (kUnsatisfiable, naming the constraint) when the witness breaks a constraint.
Proof create_proof(const Parameters& params, const ProvingAssignment& assignment,
                   const ProofRandomness& rand, ProverBackend& backend,
                   ProverTiming* timing = nullptr);

// Synthesizes `circuit` into a ProvingAssignment, then create_proof.
Proof prove(const Parameters& params, const Circuit& circuit, const ProofRandomness& rand,
            ProverBackend& backend, ProverTiming* timing = nullptr);

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
