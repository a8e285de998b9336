// GpuBackend: groth16::ProverBackend on one CUDA device (ordinal chosen at construction; run one
// backend per device for several devices). A partition stays on the device from its witness to
// its MSM sums: the compact witness is uploaded once and expanded there, a, b, c come from the
// recorded circuit's matrices (kept on the device across calls) by SpMV and are checked row by
// row, the H chain runs in place, and every MSM is the split MSM (0/1 batch addition +
// Pippenger) over the proving key's points, cached on the device across calls. Only the
// witness (a few hundred MB for a 32 GiB PoRep partition) crosses PCIe per proof. Proofs equal
// CpuBackend's byte for byte.
//
// With a memory limit ([gpus] memory_limit), or on a device too small for all of that, each proof
// follows a device memory plan (memory_plan.hpp): the largest sections' bases stream from host
// memory in chunks overlapped with the MSMs (msm_stream.hpp), the SpMV may fall back to the CPU
// and the H chain to two vectors; every device allocation the backend makes is charged to the
// limit (device_memory_cap.hpp) and one past it fails as out of memory. When everything fits,
// the resident path runs unchanged.
//
// Construction throws std::runtime_error when CUDA reports no such device. CUDA failures surface
// as CudaError (a std::runtime_error naming the call site; out_of_memory() for exhausted device
// memory). One call at a time per backend (a mutex serialises them).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "gpu/bases_cache.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/device_memory_cap.hpp"
#include "gpu/memory_plan.hpp"
#include "gpu/msm.hpp"
#include "gpu/msm_stream.hpp"
#include "gpu/ntt.hpp"
#include "gpu/spmv.hpp"
#include "groth16/backend.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {

struct GpuBackendOptions {
  uint64_t memory_limit = 0;   // bytes of the device this backend may use; 0: the device's
  ThreadPool* pool = nullptr;  // host copies of streamed bases, the CPU SpMV fallback; null: none
  uint64_t max_chunk_scalars = kMaxChunkScalars;  // MSM chunks at most (tests force small ones)
  // Tests: alters a plan that is not all_resident before the proof follows it, to force a
  // fallback (only towards less device memory: host SpMV, two vectors, streamed sections).
  std::function<void(MemoryPlan&)> adjust_plan;
};

class GpuBackend final : public groth16::ProverBackend {
 public:
  explicit GpuBackend(int device = 0, GpuBackendOptions options = {});
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
  uint64_t memory_limit() const { return options_.memory_limit; }
  // Device bytes this backend holds now, and at most since construction.
  uint64_t memory_in_use() const { return cap_.in_use(); }
  uint64_t memory_peak() const { return cap_.peak(); }
  // The plan of the last proof (all_resident when nothing streamed).
  MemoryPlan last_plan() const;
  // The plan a proof of `in` over `params` would follow now.
  MemoryPlan plan_for(const groth16::Parameters& params, const groth16::PartitionInput& in);
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
  groth16::Proof prove_resident(const groth16::Parameters& params,
                                const groth16::PartitionInput& in,
                                const groth16::ProofRandomness& rand, groth16::ProverTiming& t);
  // gpu_backend_planned.cpp: the three-phase proof of a capped device.
  groth16::Proof prove_planned(const groth16::Parameters& params, const groth16::PartitionInput& in,
                               const groth16::ProofRandomness& rand, groth16::ProverTiming& t,
                               const MemoryPlan& plan);
  MemoryPlan plan_locked(const groth16::Parameters& params, const groth16::PartitionInput& in);
  void clear_locked();

  // First member: the buffers below refund it when they are freed.
  DeviceMemoryCap cap_;
  GpuBackendOptions options_;
  DeviceInfo info_;
  mutable std::mutex mu_;
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
  BaseStreamer streamer_;
  MsmStats last_msm_;
  MemoryPlan last_plan_;
  std::string last_plan_key_;  // the summary of the plan the caches were laid out for
};

}  // namespace cuzk::gpu
