// ProverBackend: the heavy operations of a Groth16 proof (the quotient's FFT chain and the MSMs)
// behind one interface, so the CPU and GPU backends plug into the same prover orchestration and
// must produce identical proofs.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cs/density.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "poly/evaluation_domain.hpp"
#include "poly/quotient.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

class ProverBackend {
 public:
  virtual ~ProverBackend() = default;
  virtual std::string name() const = 0;
  // Frees what the backend keeps between calls (device copies of proving-key points).
  virtual void drop_caches() {}

  // The n - 1 coefficients of h for evaluations a, b, c (bellperson's H; see poly/quotient.hpp).
  // Read-only views: the GPU backend uploads them as they are (no host copies of a partition's
  // three vectors); the CPU backend transforms copies.
  virtual std::vector<Fr> groth16_quotient(std::span<const Fr> a, std::span<const Fr> b,
                                           std::span<const Fr> c, const EvaluationDomain& domain,
                                           QuotientTiming* timing) = 0;

  // snarkjs's H: a, b, c hold n = domain.size() evaluations each; returns A(x) B(x) - C(x) at the
  // coset points g omega^i (g = domain.g(); snarkjs uses omega_2n, i.e. the odd points of the 2n
  // domain), where A, B, C interpolate a, b, c over the domain. No division by Z.
  virtual std::vector<Fr> coset_ab_minus_c(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c,
                                           const EvaluationDomain& domain,
                                           QuotientTiming* timing) = 0;

  // sum scalars[i] * bases[i] (bases.size() == scalars.size()).
  virtual G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) = 0;
  virtual G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) = 0;
  // Density-filtered (bases.size() == density.popcount(), scalars.size() == density.size()).
  virtual G1Jacobian msm_g1(std::span<const G1Affine> bases, const DensityTracker& density,
                            std::span<const Fr> scalars) = 0;
  virtual G2Jacobian msm_g2(std::span<const G2Affine> bases, const DensityTracker& density,
                            std::span<const Fr> scalars) = 0;
};

// The CPU backend: poly/ and msm/ over a thread pool.
class CpuBackend final : public ProverBackend {
 public:
  explicit CpuBackend(ThreadPool& pool) : pool_(pool) {}
  std::string name() const override { return "cpu"; }
  std::vector<Fr> groth16_quotient(std::span<const Fr> a, std::span<const Fr> b,
                                   std::span<const Fr> c, const EvaluationDomain& domain,
                                   QuotientTiming* timing) override;
  std::vector<Fr> coset_ab_minus_c(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c,
                                   const EvaluationDomain& domain, QuotientTiming* timing) override;
  G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) override;
  G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) override;
  G1Jacobian msm_g1(std::span<const G1Affine> bases, const DensityTracker& density,
                    std::span<const Fr> scalars) override;
  G2Jacobian msm_g2(std::span<const G2Affine> bases, const DensityTracker& density,
                    std::span<const Fr> scalars) override;

 private:
  ThreadPool& pool_;
};

}  // namespace cuzk::groth16
