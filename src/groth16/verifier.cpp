#include "groth16/verifier.hpp"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "util/os_random.hpp"

namespace cuzk::groth16 {
namespace {

G1Jacobian public_input_combination(const PreparedVerifyingKey& pvk, std::span<const Fr> inputs) {
  if (inputs.size() + 1 != pvk.ic.size()) {
    throw std::invalid_argument("groth16 verify: " + std::to_string(inputs.size()) +
                                " public inputs given, the verifying key expects " +
                                std::to_string(pvk.ic.size() - 1));
  }
  G1Jacobian acc = G1Jacobian::from_affine(pvk.ic[0]);
  for (size_t i = 0; i < inputs.size(); ++i)
    acc += g1_mul(G1Jacobian::from_affine(pvk.ic[i + 1]), inputs[i]);
  return acc;
}

}  // namespace

PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk) {
  if (vk.ic.empty()) throw std::invalid_argument("groth16: verifying key has no ic points");
  return {pairing(vk.alpha_g1, vk.beta_g2), -vk.gamma_g2, -vk.delta_g2, vk.ic};
}

bool verify_proof(const PreparedVerifyingKey& pvk, const Proof& proof,
                  std::span<const Fr> public_inputs) {
  const G1Affine l = public_input_combination(pvk, public_inputs).to_affine();
  // e(A, B) e(L, -gamma) e(C, -delta) == e(alpha, beta)
  const std::pair<G1Affine, G2Affine> pairs[] = {
      {proof.a, proof.b}, {l, pvk.neg_gamma_g2}, {proof.c, pvk.neg_delta_g2}};
  return multi_pairing(pairs) == pvk.alpha_g1_beta_g2;
}

bool verify_proofs_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                         std::span<const std::vector<Fr>> public_inputs) {
  if (proofs.size() != public_inputs.size()) {
    throw std::invalid_argument("groth16 batch verify: proofs and input sets differ in number");
  }
  if (proofs.empty()) return true;
  std::vector<std::pair<G1Affine, G2Affine>> pairs;
  pairs.reserve(proofs.size() + 2);
  G1Jacobian sum_l, sum_c;
  Fr sum_r;
  for (size_t i = 0; i < proofs.size(); ++i) {
    // 128-bit weights from the OS CSPRNG: soundness error 2^-128, and half-size scalars.
    std::array<uint8_t, 32> bytes{};
    os_random_bytes(std::span(bytes).first(16));
    const Fr r = *Fr::from_bytes_le(bytes);
    sum_r += r;
    sum_l += g1_mul(public_input_combination(pvk, public_inputs[i]), r);
    sum_c += g1_mul(G1Jacobian::from_affine(proofs[i].c), r);
    pairs.emplace_back(g1_mul(G1Jacobian::from_affine(proofs[i].a), r).to_affine(), proofs[i].b);
  }
  pairs.emplace_back(sum_l.to_affine(), pvk.neg_gamma_g2);
  pairs.emplace_back(sum_c.to_affine(), pvk.neg_delta_g2);
  // prod e(r_i A_i, B_i) e(sum r_i L_i, -gamma) e(sum r_i C_i, -delta) == e(alpha, beta)^(sum r_i)
  return multi_pairing(pairs) == pvk.alpha_g1_beta_g2.pow(sum_r.to_canonical());
}

}  // namespace cuzk::groth16
