#include "groth16/backend.hpp"
#include "msm/msm.hpp"

namespace cuzk::groth16 {

std::vector<Fr> CpuBackend::groth16_quotient(std::vector<Fr> a, std::vector<Fr> b,
                                             std::vector<Fr> c, const EvaluationDomain& domain,
                                             QuotientTiming* timing) {
  return cuzk::groth16_quotient(std::move(a), std::move(b), std::move(c), domain, pool_, timing);
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
