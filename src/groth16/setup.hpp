// Groth16 parameter generation with explicit toxic waste.
//
// INSECURE BY DESIGN: whoever knows the toxic waste (here: whoever knows the seed) can forge
// proofs. For tests and devnets only; production parameters come from Filecoin's MPC ceremony.
#pragma once

#include <span>
#include <string_view>

#include "cs/constraint_system.hpp"
#include "cs/r1cs.hpp"
#include "groth16/types.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

struct ToxicWaste {
  Fr tau, alpha, beta, gamma, delta;

  // Each value = SHA-512(label || seed) reduced mod r (never zero); deterministic per seed.
  static ToxicWaste insecure_from_seed(std::string_view seed);
};

// From a recorded R1cs (which must already contain the input * 0 = 0 rows, as KeyAssembly::finish
// and the snarkjs readers produce). Evaluation domain: bellperson's (powers of the 2-adic root
// from generator 7), size = smallest power of two >= r1cs.num_constraints.
Parameters generate_parameters_insecure(const R1cs& r1cs, const ToxicWaste& tw, ThreadPool& pool);

// Synthesizes `circuit` with a KeyAssembly first.
Parameters generate_parameters_insecure(const Circuit& circuit, const ToxicWaste& tw,
                                        ThreadPool& pool);

}  // namespace cuzk::groth16
