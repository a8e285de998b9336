// Proving from a snarkjs .zkey and a full witness (.wtns), following snarkjs's own conventions
// (fixture README): roots of unity from 5, H points as odd-index Lagrange evaluations on the 2n
// domain (so h_i = A_i B_i - C_i at the odd points, no division by Z), gamma = 1.
#pragma once

#include <span>

#include "groth16/prover.hpp"
#include "groth16/snarkjs_format.hpp"

namespace cuzk::groth16 {

// witness: all n_vars wire values, wire 0 = 1. The public inputs of the proof are
// witness[1..n_public]. The transforms and MSMs run on `backend` (CPU and GPU give equal bytes).
Proof prove_zkey(const Zkey& zkey, std::span<const Fr> witness, const ProofRandomness& rand,
                 ProverBackend& backend, ProverTiming* timing = nullptr);
// The same on the CPU backend over `pool`.
Proof prove_zkey(const Zkey& zkey, std::span<const Fr> witness, const ProofRandomness& rand,
                 ThreadPool& pool, ProverTiming* timing = nullptr);

}  // namespace cuzk::groth16
