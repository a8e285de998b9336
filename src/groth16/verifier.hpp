// Groth16 verification: e(A, B) = e(alpha, beta) e(L, gamma) e(C, delta) with
// L = ic[0] + sum_i input_i ic[i + 1]; and batch verification of many proofs under one key by a
// random linear combination (one multi-pairing for all of them).
#pragma once

#include <span>
#include <stdexcept>

#include "groth16/types.hpp"

namespace cuzk::groth16 {

PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk);

// public_inputs exclude ONE. A wrong number of inputs is an error, not a failed proof.
bool verify_proof(const PreparedVerifyingKey& pvk, const Proof& proof,
                  std::span<const Fr> public_inputs);

// All proofs (each with its inputs) valid, with overwhelming probability: checks
// e(sum r_i A_i, B_i)... as prod_i e(r_i A_i, B_i) = e(sum r_i alpha, beta) e(sum r_i L_i, gamma)
// e(sum r_i C_i, delta) with fresh random r_i from the OS CSPRNG.
bool verify_proofs_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                         std::span<const std::vector<Fr>> public_inputs);

}  // namespace cuzk::groth16
