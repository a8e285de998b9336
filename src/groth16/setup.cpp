#include "groth16/setup.hpp"

#include <chrono>

#include <openssl/sha.h>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "cs/key_assembly.hpp"
#include "ec/fixed_base.hpp"

namespace cuzk::groth16 {
namespace {

Fr hash_to_fr(std::string_view label, std::string_view seed) {
  for (uint32_t counter = 0;; ++counter) {
    std::string msg = "cuzk insecure groth16 toxic waste/";
    msg += label;
    msg += '/';
    msg += std::to_string(counter);
    msg += '/';
    msg += seed;
    std::array<uint8_t, SHA512_DIGEST_LENGTH> d{};
    SHA512(reinterpret_cast<const uint8_t*>(msg.data()), msg.size(), d.data());
    // 512-bit little-endian value mod r = lo + hi * 2^256 (2^256 mod r = R of Fr).
    std::array<uint8_t, 32> lo{}, hi{};
    std::copy(d.begin(), d.begin() + 32, lo.begin());
    std::copy(d.begin() + 32, d.end(), hi.begin());
    lo[31] &= 0x3f;  // below 2^254 < r, so canonical
    hi[31] &= 0x3f;
    const Fr v = *Fr::from_bytes_le(lo) + *Fr::from_bytes_le(hi) * Fr::from_mont(Fr::kR2);
    if (!v.is_zero()) return v;
  }
}

size_t domain_size_for(size_t rows) {
  size_t m = 1;
  unsigned log = 0;
  while (m < rows) {
    m <<= 1;
    ++log;
  }
  if (log > Fr::kTwoAdicity)
    throw std::invalid_argument("groth16 setup: circuit too large for Fr's 2-adicity");
  return m;
}

}  // namespace

ToxicWaste ToxicWaste::insecure_from_seed(std::string_view seed) {
  return {hash_to_fr("tau", seed), hash_to_fr("alpha", seed), hash_to_fr("beta", seed),
          hash_to_fr("gamma", seed), hash_to_fr("delta", seed)};
}

SetupScalars setup_scalars(size_t rows, const ToxicWaste& tw) {
  const size_t m = domain_size_for(rows);
  SetupScalars s;
  while ((size_t{1} << s.log_m) < m)
    ++s.log_m;
  s.omega = kFrTwoAdicRoot;
  for (size_t i = s.log_m; i < Fr::kTwoAdicity; ++i)
    s.omega = s.omega.sqr();
  s.z_tau = tw.tau.pow(BigInt<1>::from_u64(m)) - Fr::one();
  if (s.z_tau.is_zero())
    throw std::invalid_argument("groth16 setup: tau lies in the evaluation domain");
  s.lagrange_scale = s.z_tau * Fr::from_u64(m).inv();
  s.gamma_inv = tw.gamma.inv();
  s.delta_inv = tw.delta.inv();
  return s;
}

namespace {

// Lagrange basis at tau: L_j(tau) = (tau^m - 1) / m * omega^j / (tau - omega^j).
std::vector<Fr> lagrange_at_tau(const SetupScalars& s, const ToxicWaste& tw) {
  const size_t m = size_t{1} << s.log_m;
  std::vector<Fr> lagrange(m);
  std::vector<Fr> omega_pow(m);
  Fr w = Fr::one();
  for (size_t j = 0; j < m; ++j, w *= s.omega) {
    omega_pow[j] = w;
    lagrange[j] = tw.tau - w;
  }
  batch_invert(std::span<Fr>(lagrange));
  for (size_t j = 0; j < m; ++j)
    lagrange[j] *= omega_pow[j] * s.lagrange_scale;
  return lagrange;
}

// From every variable's QAP polynomials at tau (inputs first, then aux) to the parameters.
Parameters from_qap(const std::vector<Fr>& u, const std::vector<Fr>& v, const std::vector<Fr>& w,
                    size_t num_inputs, const SetupScalars& s, const ToxicWaste& tw,
                    ThreadPool& pool, const ProgressFn& progress = nullptr) {
  const size_t nvars = u.size();
  const size_t m = size_t{1} << s.log_m;
  std::vector<Fr> ic_s(num_inputs), l_s(nvars - num_inputs);
  for (size_t i = 0; i < nvars; ++i) {
    const Fr k = tw.beta * u[i] + tw.alpha * v[i] + w[i];
    if (i < num_inputs) {
      ic_s[i] = k * s.gamma_inv;
    } else {
      l_s[i - num_inputs] = k * s.delta_inv;
    }
  }
  std::vector<Fr> h_s(m - 1);
  Fr t = s.z_tau * s.delta_inv;  // tau^i Z(tau) / delta
  for (size_t i = 0; i + 1 < m; ++i, t *= tw.tau)
    h_s[i] = t;
  // The A and B queries keep only non-zero evaluations (bellperson drops identity points).
  std::vector<Fr> a_s, b_s;
  for (size_t i = 0; i < nvars; ++i) {
    if (!u[i].is_zero()) a_s.push_back(u[i]);
    if (!v[i].is_zero()) b_s.push_back(v[i]);
  }

  const FixedBaseTable<G1Curve> g1(G1Jacobian::generator());
  const FixedBaseTable<G2Curve> g2(G2Jacobian::generator());
  Parameters p;
  p.vk.alpha_g1 = g1.mul(tw.alpha).to_affine();
  p.vk.beta_g1 = g1.mul(tw.beta).to_affine();
  p.vk.beta_g2 = g2.mul(tw.beta).to_affine();
  p.vk.gamma_g2 = g2.mul(tw.gamma).to_affine();
  p.vk.delta_g1 = g1.mul(tw.delta).to_affine();
  p.vk.delta_g2 = g2.mul(tw.delta).to_affine();
  const auto batch = [&](const auto& table, const char* what, const std::vector<Fr>& scalars,
                         auto& points) {
    points.resize(scalars.size());
    ProgressCounter done(progress, std::string("setup ") + what, scalars.size());
    table.mul_batch(scalars, points, pool, &done);
  };
  batch(g1, "ic", ic_s, p.vk.ic);
  batch(g1, "h", h_s, p.h);
  batch(g1, "l", l_s, p.l);
  batch(g1, "a", a_s, p.a);
  batch(g1, "b_g1", b_s, p.b_g1);
  batch(g2, "b_g2", b_s, p.b_g2);
  return p;
}

}  // namespace

Parameters generate_parameters_insecure(const R1cs& r1cs, const ToxicWaste& tw, ThreadPool& pool,
                                        const ProgressFn& progress) {
  const SetupScalars s = setup_scalars(r1cs.num_constraints, tw);
  const size_t m = size_t{1} << s.log_m;
  const std::vector<Fr> lagrange = lagrange_at_tau(s, tw);

  // QAP polynomials of every variable at tau (inputs first, then aux).
  const size_t nvars = r1cs.num_inputs + r1cs.num_aux;
  std::vector<Fr> u(nvars), v(nvars), w(nvars);
  const auto column = [&](Variable var) {
    return var.is_input() ? var.index : r1cs.num_inputs + var.index;
  };
  const auto accumulate = [&](const std::vector<R1csEntry>& entries, std::vector<Fr>& out) {
    for (const R1csEntry& e : entries) {
      if (e.row >= m) throw std::invalid_argument("groth16 setup: R1CS row out of range");
      out[column(e.var)] += e.coeff * lagrange[e.row];
    }
  };
  accumulate(r1cs.a, u);
  accumulate(r1cs.b, v);
  accumulate(r1cs.c, w);
  return from_qap(u, v, w, r1cs.num_inputs, s, tw, pool, progress);
}

Parameters generate_parameters_insecure(const pce::RecordedCircuit& rc, const ToxicWaste& tw,
                                        ThreadPool& pool) {
  const SetupScalars s = setup_scalars(rc.num_rows, tw);
  const std::vector<Fr> lagrange = lagrange_at_tau(s, tw);
  const size_t nvars = rc.num_columns();
  std::vector<Fr> uvw[3] = {std::vector<Fr>(nvars), std::vector<Fr>(nvars), std::vector<Fr>(nvars)};
  const pce::CsrMatrix* mats[3] = {&rc.a, &rc.b, &rc.c};
  // The transposed products u = A^T L, v = B^T L, w = C^T L, one matrix per task.
  pool.run(3, [&](size_t k) {
    const pce::CsrMatrix& mat = *mats[k];
    std::vector<Fr>& out = uvw[k];
    for (size_t r = 0; r < mat.rows(); ++r) {
      for (uint32_t e = mat.row_ptr[r]; e < mat.row_ptr[r + 1]; ++e)
        out[mat.cols[e]] += rc.coefficients[mat.coeffs[e]] * lagrange[r];
    }
  });
  return from_qap(uvw[0], uvw[1], uvw[2], rc.num_inputs, s, tw, pool);
}

Parameters generate_parameters_insecure(const Circuit& circuit, const ToxicWaste& tw,
                                        ThreadPool& pool) {
  KeyAssembly assembly;
  circuit.synthesize(assembly);
  return generate_parameters_insecure(assembly.finish(), tw, pool);
}

Parameters generate_test_parameters(const Circuit& blank, std::string_view seed, ThreadPool& pool,
                                    SetupTiming* timing, const ProgressFn& progress) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  if (progress) progress("synthesis (key assembly)", 0, 1);
  KeyAssembly assembly;
  blank.synthesize(assembly);
  const R1cs r1cs = assembly.finish();
  if (progress) progress("synthesis (key assembly)", 1, 1);
  const auto t1 = Clock::now();
  Parameters params =
      generate_parameters_insecure(r1cs, ToxicWaste::insecure_from_seed(seed), pool, progress);
  if (timing != nullptr) {
    timing->synthesis_s = std::chrono::duration<double>(t1 - t0).count();
    timing->setup_s = std::chrono::duration<double>(Clock::now() - t1).count();
    timing->constraints = r1cs.num_constraints;
    timing->inputs = r1cs.num_inputs;
    timing->aux = r1cs.num_aux;
  }
  return params;
}

}  // namespace cuzk::groth16
