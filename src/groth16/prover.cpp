#include "groth16/prover.hpp"

#include <array>
#include <chrono>
#include <stdexcept>
#include <string>

#include "poly/evaluation_domain.hpp"
#include "util/os_random.hpp"

namespace cuzk::groth16 {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

Fr random_fr() {
  // 512 random bits reduced mod r: negligible bias.
  std::array<uint8_t, 64> bytes{};
  os_random_bytes(bytes);
  std::array<uint8_t, 32> lo{}, hi{};
  std::copy(bytes.begin(), bytes.begin() + 32, lo.begin());
  std::copy(bytes.begin() + 32, bytes.end(), hi.begin());
  lo[31] &= 0x3f;
  hi[31] &= 0x3f;
  return *Fr::from_bytes_le(lo) + *Fr::from_bytes_le(hi) * Fr::from_mont(Fr::kR2);
}

void expect_size(size_t got, size_t want, const char* what) {
  if (got != want) {
    throw std::invalid_argument(std::string("groth16 prove: parameters do not fit the circuit: ") +
                                what + " has " + std::to_string(got) +
                                " points, the circuit needs " + std::to_string(want));
  }
}

}  // namespace

ProofRandomness ProofRandomness::from_os() {
  return {random_fr(), random_fr()};
}

Proof create_proof(const Parameters& params, const ProvingAssignment& pa,
                   const ProofRandomness& rand, ProverBackend& backend, ProverTiming* timing) {
  const auto t_start = Clock::now();
  ProverTiming local;
  ProverTiming& t = timing != nullptr ? *timing : local;

  if (const auto& bad = pa.first_unsatisfied()) {
    throw SynthesisError(SynthesisError::Kind::kUnsatisfiable,
                         "groth16 prove: the witness does not satisfy constraint " +
                             std::to_string(bad->index) + " ('" + bad->name +
                             "'); refusing to produce an invalid proof");
  }
  const size_t num_inputs = pa.input_assignment.size();
  const size_t num_aux = pa.aux_assignment.size();
  if (pa.a.size() != pa.b.size() || pa.a.size() != pa.c.size() || pa.a.size() < num_inputs) {
    throw std::invalid_argument(
        "groth16 prove: assignment is not finished (call add_input_constraints)");
  }
  const EvaluationDomain domain = EvaluationDomain::for_size(pa.a.size());
  const size_t b_inputs = pa.b_input_density.popcount();
  const size_t a_aux = pa.a_aux_density.popcount();
  const size_t b_aux = pa.b_aux_density.popcount();
  expect_size(params.vk.ic.size(), num_inputs, "vk.ic");
  expect_size(params.h.size(), domain.size() - 1, "h");
  expect_size(params.l.size(), num_aux, "l");
  expect_size(params.a.size(), num_inputs + a_aux, "a");
  expect_size(params.b_g1.size(), b_inputs + b_aux, "b_g1");
  expect_size(params.b_g2.size(), b_inputs + b_aux, "b_g2");

  auto t0 = Clock::now();
  const std::vector<Fr> h = backend.groth16_quotient(pa.a, pa.b, pa.c, domain, &t.quotient);
  t.quotient_s = seconds_since(t0);

  const std::span<const G1Affine> a_bases(params.a), b1_bases(params.b_g1);
  const std::span<const G2Affine> b2_bases(params.b_g2);

  t0 = Clock::now();
  const G1Jacobian h_sum = backend.msm_g1(params.h, h);
  t.msm_h_s = seconds_since(t0);

  t0 = Clock::now();
  const G1Jacobian l_sum = backend.msm_g1(params.l, pa.aux_assignment);
  t.msm_l_s = seconds_since(t0);

  t0 = Clock::now();
  const G1Jacobian a_sum =
      backend.msm_g1(a_bases.first(num_inputs), pa.input_assignment) +
      backend.msm_g1(a_bases.subspan(num_inputs), pa.a_aux_density, pa.aux_assignment);
  t.msm_a_s = seconds_since(t0);

  t0 = Clock::now();
  const G1Jacobian b1_sum =
      backend.msm_g1(b1_bases.first(b_inputs), pa.b_input_density, pa.input_assignment) +
      backend.msm_g1(b1_bases.subspan(b_inputs), pa.b_aux_density, pa.aux_assignment);
  t.msm_b_g1_s = seconds_since(t0);

  t0 = Clock::now();
  const G2Jacobian b2_sum =
      backend.msm_g2(b2_bases.first(b_inputs), pa.b_input_density, pa.input_assignment) +
      backend.msm_g2(b2_bases.subspan(b_inputs), pa.b_aux_density, pa.aux_assignment);
  t.msm_b_g2_s = seconds_since(t0);

  // A = alpha + sum a_i A_i + r delta;  B = beta + sum b_i B_i + s delta;
  // C = sum aux_i L_i + sum h_i H_i + s A + r B_g1 - r s delta
  //   = L + H + s alpha + r beta + s sum a_i A_i + r sum b_i B1_i + r s delta.
  t0 = Clock::now();
  const G1Jacobian alpha = G1Jacobian::from_affine(params.vk.alpha_g1);
  const G1Jacobian beta1 = G1Jacobian::from_affine(params.vk.beta_g1);
  const G1Jacobian delta1 = G1Jacobian::from_affine(params.vk.delta_g1);
  const G1Jacobian g_a = alpha + a_sum + g1_mul(delta1, rand.r);
  const G2Jacobian g_b = G2Jacobian::from_affine(params.vk.beta_g2) + b2_sum +
                         g2_mul(G2Jacobian::from_affine(params.vk.delta_g2), rand.s);
  const G1Jacobian g_c = l_sum + h_sum + g1_mul(alpha + a_sum, rand.s) +
                         g1_mul(beta1 + b1_sum, rand.r) + g1_mul(delta1, rand.r * rand.s);
  Proof proof{g_a.to_affine(), g_b.to_affine(), g_c.to_affine()};
  t.assemble_s = seconds_since(t0);
  t.total_s = t.synthesis_s + seconds_since(t_start);
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
  return create_proof(params, pa, rand, backend, &t);
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
