// GpuBackend: groth16::ProverBackend on one CUDA device (ordinal chosen at construction; run one
// backend per device for several devices). A partition stays on the device from its witness to
// its MSM sums: the compact witness is uploaded once and expanded there, a, b, c come from the
// recorded circuit's matrices (kept on the device across calls) by SpMV and are checked row by
// row, the H chain runs in place, and every MSM is the split MSM (0/1 batch addition +
// Pippenger) over the proving key's points, cached on the device across calls. Only the
// witness (a few hundred MB for a 32 GiB PoRep partition) crosses PCIe per proof. Proofs equal
// CpuBackend's byte for byte.
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
#include "gpu/spmv.hpp"
#include "groth16/backend.hpp"

namespace cuzk::gpu {

class GpuBackend final : public groth16::ProverBackend {
 public:
  explicit GpuBackend(int device = 0);
  ~GpuBackend() override;

  std::string name() const override;
  void drop_caches() override { clear_caches(); }
  groth16::Proof prove(const groth16::Parameters& params, const groth16::PartitionInput& in,
                       const groth16::ProofRandomness& rand,
                       groth16::ProverTiming* timing) override;
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
  // The split MSM of n device scalars over (a device copy of) `bases`; caller holds mu_.
  template <class Curve>
  Jacobian<Curve> msm_resident(BasesCache<Curve>& cache, std::span<const Affine<Curve>> bases,
                               const Fr* d_scalars, size_t n, const uint64_t* d_density);
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
  // A partition's working set (grows to the largest partition seen; clear_caches frees it).
  DeviceCircuit circuit_;
  DeviceBuffer<Fr> d_w_, d_abc_[3];
  WitnessScratch witness_scratch_;
  DeviceBuffer<uint64_t> d_given_density_[3];
  DeviceBuffer<unsigned long long> d_flag_;
  MsmStats last_msm_;
};

}  // namespace cuzk::gpu
