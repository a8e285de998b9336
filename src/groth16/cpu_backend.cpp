#include "groth16/backend.hpp"
#include "msm/msm.hpp"
#include "poly/fft.hpp"

#include <chrono>

namespace cuzk::groth16 {

std::vector<Fr> CpuBackend::groth16_quotient(std::span<const Fr> a, std::span<const Fr> b,
                                             std::span<const Fr> c, const EvaluationDomain& domain,
                                             QuotientTiming* timing) {
  return cuzk::groth16_quotient(std::vector<Fr>(a.begin(), a.end()),
                                std::vector<Fr>(b.begin(), b.end()),
                                std::vector<Fr>(c.begin(), c.end()), domain, pool_, timing);
}
std::vector<Fr> CpuBackend::coset_ab_minus_c(std::vector<Fr> a, std::vector<Fr> b,
                                             std::vector<Fr> c, const EvaluationDomain& domain,
                                             QuotientTiming* timing) {
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  QuotientTiming local;
  QuotientTiming& t = timing != nullptr ? *timing : local;
  for (std::vector<Fr>* v : {&a, &b, &c}) {
    auto t0 = Clock::now();
    ifft(*v, domain, pool_);
    t.ifft_s += since(t0);
    t0 = Clock::now();
    coset_fft(*v, domain, pool_);
    t.coset_fft_s += since(t0);
  }
  const auto t0 = Clock::now();
  pool_.parallel_for(
      a.size(),
      [&](size_t begin, size_t end) {
        for (size_t j = begin; j < end; ++j)
          a[j] = a[j] * b[j] - c[j];
      },
      4096);
  t.pointwise_s = since(t0);
  return a;
}

G1Jacobian CpuBackend::msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) {
  return msm_pippenger<G1Curve>(bases, scalars, pool_);
}
G2Jacobian CpuBackend::msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) {
  return msm_pippenger<G2Curve>(bases, scalars, pool_);
}
G1Jacobian CpuBackend::msm_g1(std::span<const G1Affine> bases, const DensityTracker& density,
                              std::span<const Fr> scalars) {
  return msm_pippenger<G1Curve>(bases, density, scalars, pool_);
}
G2Jacobian CpuBackend::msm_g2(std::span<const G2Affine> bases, const DensityTracker& density,
                              std::span<const Fr> scalars) {
  return msm_pippenger<G2Curve>(bases, density, scalars, pool_);
}

}  // namespace cuzk::groth16
