// GpuBackend: groth16::ProverBackend on one CUDA device (ordinal chosen at construction; run one
// backend per device for several devices). The quotient runs as the device H chain; every MSM
// runs the split MSM (0/1 batch addition + Pippenger) with the proving key's points cached on the
// device across calls. Proofs equal CpuBackend's byte for byte.
//
// Construction throws std::runtime_error when CUDA reports no such device. CUDA failures surface
// as CudaError (a std::runtime_error naming the call site; out_of_memory() for exhausted device
// memory). One call at a time per backend (a mutex serialises them).
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "gpu/bases_cache.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/msm.hpp"
#include "gpu/ntt.hpp"
#include "groth16/backend.hpp"

namespace cuzk::gpu {

class GpuBackend final : public groth16::ProverBackend {
 public:
  explicit GpuBackend(int device = 0);
  ~GpuBackend() override;

  std::string name() const override;
  void drop_caches() override { clear_caches(); }
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

  const DeviceInfo& device() const { return info_; }
  const MsmStats& last_msm() const { return last_msm_; }
  // Frees the cached points, twiddle tables and scratch.
  void clear_caches();

 private:
  template <class Curve>
  Jacobian<Curve> msm(BasesCache<Curve>& cache, std::span<const Affine<Curve>> bases,
                      const DensityTracker* density, std::span<const Fr> scalars);
  void activate() const;

  DeviceInfo info_;
  std::mutex mu_;
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<NttEngine> ntt_;
  MsmWorkspace ws_;
  BasesCache<G1Curve> g1_bases_;
  BasesCache<G2Curve> g2_bases_;
  DeviceBuffer<Fr> d_scalars_;
  DeviceBuffer<uint64_t> d_density_;
  MsmStats last_msm_;
};

}  // namespace cuzk::gpu
