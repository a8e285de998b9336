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
#include "pce/recorded_circuit.hpp"
#include "util/progress.hpp"
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
// `progress` hears the fixed-base multiplications ("setup ic", "setup h", ..., in points).
Parameters generate_parameters_insecure(const R1cs& r1cs, const ToxicWaste& tw, ThreadPool& pool,
                                        const ProgressFn& progress = nullptr);

// Synthesizes `circuit` with a KeyAssembly first.
Parameters generate_parameters_insecure(const Circuit& circuit, const ToxicWaste& tw,
                                        ThreadPool& pool);

// The seeded test parameters of a blank circuit, timed: what `cuzk porep|post|update params`
// make on the CPU (INSECURE: whoever knows `seed` can forge proofs).
struct SetupTiming {
  double synthesis_s = 0;  // KeyAssembly over the blank circuit
  double setup_s = 0;      // the QAP at tau and the fixed-base multiplications
  size_t constraints = 0;  // with the input rows
  size_t inputs = 0, aux = 0;
};
// `progress` hears "synthesis" (one step) and the setup's phases.
Parameters generate_test_parameters(const Circuit& blank, std::string_view seed, ThreadPool& pool,
                                    SetupTiming* timing = nullptr,
                                    const ProgressFn& progress = nullptr);

// From a recorded circuit (pce/): the same parameters as from the R1cs of the same circuit (the
// recording's merged rows give the same u, v, w). The CPU twin of the device generator
// (gpu/setup/setup.hpp).
Parameters generate_parameters_insecure(const pce::RecordedCircuit& rc, const ToxicWaste& tw,
                                        ThreadPool& pool);

// The scalars of the parameters before the fixed-base multiplications, and the setup's
// derived constants: what the CPU and device generators share.
struct SetupScalars {
  size_t log_m = 0;   // domain size 2^log_m >= rows
  Fr omega, z_tau;    // omega of order 2^log_m; Z(tau) = tau^m - 1 (never zero)
  Fr lagrange_scale;  // Z(tau) / m: L_j(tau) = lagrange_scale * omega^j / (tau - omega^j)
  Fr gamma_inv, delta_inv;
};
// std::invalid_argument when the domain exceeds Fr's 2-adicity or tau lies in the domain.
SetupScalars setup_scalars(size_t rows, const ToxicWaste& tw);

}  // namespace cuzk::groth16
