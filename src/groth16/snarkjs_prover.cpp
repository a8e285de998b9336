#include "groth16/snarkjs_prover.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "poly/evaluation_domain.hpp"
#include "util/clock.hpp"

namespace cuzk::groth16 {
namespace {

using Clock = SteadyClock;

}  // namespace

Proof prove_zkey(const Zkey& z, std::span<const Fr> w, const ProofRandomness& rand,
                 ProverBackend& backend, ProverTiming* timing) {
  const auto t_start = Clock::now();
  ProverTiming local;
  ProverTiming& t = timing != nullptr ? *timing : local;
  if (w.size() != z.n_vars) {
    throw std::invalid_argument("groth16 prove (zkey): witness has " + std::to_string(w.size()) +
                                " values, the key " + std::to_string(z.n_vars) + " wires");
  }
  if (!w[0].is_one()) throw std::invalid_argument("groth16 prove (zkey): witness wire 0 is not 1");
  const size_t n = z.domain_size;

  // a_j, b_j from the stored A/B coefficients; c_j = a_j b_j (snarkjs keeps no C matrix).
  auto t0 = Clock::now();
  std::vector<Fr> a(n), b(n), c(n);
  for (const ZkeyCoefficient& k : z.coefficients)
    (k.matrix == 0 ? a : b)[k.row] += k.value * w[k.signal];
  for (size_t j = 0; j < n; ++j)
    c[j] = a[j] * b[j];
  t.synthesis_s = seconds_since(t0);

  // Values at the odd points of the 2n domain: ifft over omega_n, scale coefficient k by
  // omega_2n^k (a coset fft with shift omega_2n), fft.
  t0 = Clock::now();
  size_t log_n = 0;
  while ((size_t{1} << log_n) < n)
    ++log_n;
  if (log_n + 1 > EvaluationDomain::kMaxLogSize)
    throw std::invalid_argument("groth16 prove (zkey): domain too large");
  const EvaluationDomain wide(log_n + 1, snarkjs_two_adic_root());
  const EvaluationDomain domain(log_n, snarkjs_two_adic_root(), wide.omega());
  const std::vector<Fr> h =
      backend.coset_ab_minus_c(std::move(a), std::move(b), std::move(c), domain, &t.quotient);
  t.quotient_s = seconds_since(t0);

  const size_t first_private = z.n_public + 1;
  t0 = Clock::now();
  const G1Jacobian a_sum = backend.msm_g1(z.a, w);
  t.msm_a_s = seconds_since(t0);
  t0 = Clock::now();
  const G1Jacobian b1_sum = backend.msm_g1(z.b1, w);
  t.msm_b_g1_s = seconds_since(t0);
  t0 = Clock::now();
  const G2Jacobian b2_sum = backend.msm_g2(z.b2, w);
  t.msm_b_g2_s = seconds_since(t0);
  t0 = Clock::now();
  const G1Jacobian c_sum = backend.msm_g1(z.c, w.subspan(first_private));
  t.msm_l_s = seconds_since(t0);
  t0 = Clock::now();
  const G1Jacobian h_sum = backend.msm_g1(z.h, h);
  t.msm_h_s = seconds_since(t0);

  t0 = Clock::now();
  const G1Jacobian delta1 = G1Jacobian::from_affine(z.delta_g1);
  const G1Jacobian pi_a = G1Jacobian::from_affine(z.alpha_g1) + a_sum + g1_mul(delta1, rand.r);
  const G2Jacobian pi_b = G2Jacobian::from_affine(z.beta_g2) + b2_sum +
                          g2_mul(G2Jacobian::from_affine(z.delta_g2), rand.s);
  const G1Jacobian b1 = G1Jacobian::from_affine(z.beta_g1) + b1_sum + g1_mul(delta1, rand.s);
  const G1Jacobian pi_c =
      c_sum + h_sum + g1_mul(pi_a, rand.s) + g1_mul(b1, rand.r) - g1_mul(delta1, rand.r * rand.s);
  Proof proof{pi_a.to_affine(), pi_b.to_affine(), pi_c.to_affine()};
  t.assemble_s = seconds_since(t0);
  t.total_s = seconds_since(t_start);
  return proof;
}

Proof prove_zkey(const Zkey& z, std::span<const Fr> w, const ProofRandomness& rand,
                 ThreadPool& pool, ProverTiming* timing) {
  CpuBackend backend(pool);
  return prove_zkey(z, w, rand, backend, timing);
}

}  // namespace cuzk::groth16
