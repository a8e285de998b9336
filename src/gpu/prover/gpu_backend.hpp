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
// memory in chunks overlapped with the MSMs (msm_stream.hpp), the recorded matrices may stream
// by row blocks with a two-vector H chain, or the SpMV fall back to the CPU; every device
// allocation the backend makes is charged to the limit (device_memory_cap.hpp) and one past it
// fails as out of memory. Such a plan proves partitions in batches (batch_limit() > 1): each
// partition's front (prove_front: a, b, c, the H chain, the H MSM) alone, then the batch's aux
// MSMs (aux_msm) with each chunk of a section's bases uploaded once for every partition. When
// everything fits, the resident path runs unchanged and batch_limit() is 1.
//
// Construction throws std::runtime_error when CUDA reports no such device. CUDA failures surface
// as CudaError (a std::runtime_error naming the call site; out_of_memory() for exhausted device
// memory). One call at a time per backend (a mutex serialises them).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "gpu/device/device_arena.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/device/device_info.hpp"
#include "gpu/device/device_memory_cap.hpp"
#include "gpu/msm/msm.hpp"
#include "gpu/msm/msm_stream.hpp"
#include "gpu/ntt/ntt.hpp"
#include "gpu/plan/memory_plan.hpp"
#include "gpu/prover/bases_cache.hpp"
#include "gpu/spmv/spmv.hpp"
#include "groth16/backend.hpp"
#include "pce/packed_matrix.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {

struct GpuBackendOptions {
  uint64_t memory_limit = 0;   // bytes of the device this backend may use; 0: the device's
  ThreadPool* pool = nullptr;  // host copies of streamed bases, the CPU SpMV fallback; null: none
  uint64_t max_chunk_scalars = kMaxChunkScalars;  // MSM chunks at most (tests force small ones)
  // Tests: alters a plan that is not all_resident before the proof follows it, to force a
  // fallback (only towards less device memory: host SpMV, two vectors, streamed sections).
  std::function<void(MemoryPlan&)> adjust_plan;
  // Bytes of bases one warm_step() copies at most: ~0.1 s through the pinned slots at the H200's
  // 52.7 GB/s, the longest a WinningPoSt waits for the step in progress (tests: smaller).
  uint64_t warm_step_bytes = uint64_t{4} << 30;
  // The same for a set read from its PointSource (a .params file, decoded on the pool into the
  // pinned slots): reading runs at ~1 GB/s, not the link's rate, so a step is ~0.5 s.
  uint64_t warm_source_step_bytes = uint64_t{512} << 20;
  // Bytes of a staging slot of the row-block SpMV at most (tests: smaller, so that a matrix
  // takes many blocks).
  uint64_t matrix_slot_bytes = kMinMatrixSlotBytes;
};

class GpuBackend final : public groth16::ProverBackend {
 public:
  explicit GpuBackend(int device = 0, GpuBackendOptions options = {});
  ~GpuBackend() override;

  std::string name() const override;
  // Frees the working set and the recorded circuit on the device; the sets' bases stay while
  // later plans leave room beside them (memory_plan.hpp: plan_beside), and the packed matrices
  // on the host stay.
  void leave_circuit() override;
  bool holds(const groth16::Parameters& params) override;
  // A set read from its source proves here when the plan keeps every base resident, whole
  // MSMs or chunked (the warm steps read the source; nothing of the points stays on the host).
  // A plan that streams sections from host memory cannot: prove, warm_step, prove_front and
  // aux_msm then throw groth16::HostPointsNeeded. The forecast needs the recorded circuit
  // (none: false).
  bool proves_from_source(const groth16::Parameters& params,
                          const pce::RecordedCircuit* circuit) override;
  void set_host_admission(groth16::HostAdmission a) override;
  groth16::Proof prove(const groth16::Parameters& params, const groth16::PartitionInput& in,
                       const groth16::ProofRandomness& rand,
                       groth16::ProverTiming* timing) override;
  bool warm_step(const groth16::Parameters& params, const groth16::PartitionInput& in) override;
  size_t batch_limit(const groth16::Parameters& params, const groth16::PartitionInput& in) override;
  groth16::PageLocks lock_streamed_points(const groth16::Parameters& params,
                                          const groth16::PartitionInput& in) override;
  std::optional<groth16::DeviceHolding> device_holding() override;
  // The bytes of the packed, page-locked copy of the recorded matrices the backend holds (0:
  // none; the CSR is locked in place, staged, or not streamed).
  uint64_t matrix_copy_bytes() const;
  groth16::MsmSums prove_front(const groth16::Parameters& params, const groth16::PartitionInput& in,
                               groth16::ProverTiming* timing) override;
  void aux_msm(const groth16::Parameters& params, groth16::AuxSection section,
               std::span<const groth16::PartitionInput> inputs, std::span<groth16::MsmSums> sums,
               std::span<groth16::ProverTiming> timings) override;
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
  // Bytes copied host to device and device to host since construction.
  uint64_t h2d_bytes() const { return h2d_ + streamer_.uploaded_bytes(); }
  uint64_t d2h_bytes() const { return d2h_; }
  // Pinned host-to-device bandwidth measured on this device (bytes/s; measured once, the first
  // time a plan streams: the floor of a capped proof's transfers; 0 when the cap has no room
  // for a 1 MiB copy).
  double pinned_h2d_bandwidth();
  uint64_t memory_peak() const { return cap_.peak(); }
  // The bytes of the block the arena holds now (memory_plan.hpp: arena_bytes; 0: none).
  uint64_t arena_block_bytes() const { return arena_.bytes(); }
  // The plan of the last proof (all_resident when nothing streamed).
  MemoryPlan last_plan() const;
  // The plan a proof of `in` over `params` would follow now.
  MemoryPlan plan_for(const groth16::Parameters& params, const groth16::PartitionInput& in);
  // Frees the cached points, twiddle tables and scratch, and the packed matrices.
  void clear_caches();

 private:
  template <class Curve>
  Jacobian<Curve> msm(BasesCache<Curve>& cache, std::span<const Affine<Curve>> bases,
                      const DensityTracker* density, std::span<const Fr> scalars);
  // The split MSM of n device scalars over `count` device bases (none: the identity); caller
  // holds mu_.
  template <class Curve>
  Jacobian<Curve> msm_resident(const Affine<Curve>* d_bases, size_t count, const Fr* d_scalars,
                               size_t n, const uint64_t* d_density);
  // Copies up to `budget` more bytes of `run` to its cache entry through the pinned slots (host
  // copies, or points read from the source), less what it copied from budget; whether the run
  // was not yet whole. Caller holds mu_.
  template <class Curve>
  bool warm_run(BasesCache<Curve>& cache, const PointRun<Curve>& run, uint64_t& budget);
  // The device copy of `run`, whole: a host run uploaded on a miss, a source run as
  // read_source_locked made it. Caller holds mu_.
  template <class Curve>
  const Affine<Curve>* device_copy(BasesCache<Curve>& cache, const PointRun<Curve>& run);
  // Every run of the all-resident plan of `in` one warm step further (budget bytes at most):
  // whether any run was not yet whole. Caller holds mu_.
  bool warm_locked(const groth16::Parameters& params, const groth16::PartitionInput& in,
                   uint64_t budget);
  // A set read from its source: every run of `in` read whole onto the device (what the warm
  // steps have not read yet: none after the engine's steps; all of it for the tools'), before
  // the proof's buffers are made. Caller holds mu_.
  void read_source_locked(const groth16::Parameters& params, const groth16::PartitionInput& in);
  void activate() const;
  groth16::Proof prove_resident(const groth16::Parameters& params,
                                const groth16::PartitionInput& in,
                                const groth16::ProofRandomness& rand, groth16::ProverTiming& t);
  // The plan of a proof of `in` now, with the caches laid out for it (cleared when the layout
  // changes). Caller holds mu_ inside a DeviceMemoryCap::Scope.
  MemoryPlan begin_locked(const groth16::Parameters& params, const groth16::PartitionInput& in);
  // gpu_backend_planned.cpp: a capped device's front (SpMV or uploads, the H chain, the H MSM,
  // the inputs' MSMs), freeing between the phases what the next does not use.
  groth16::MsmSums front_planned(const groth16::Parameters& params,
                                 const groth16::PartitionInput& in, groth16::ProverTiming& t,
                                 const MemoryPlan& plan);
  // gpu_backend_streamed.cpp: the front's a, b, c and H chain with the matrices streamed by row
  // blocks and two vectors; h ends in d_abc_[0]. Sets t's upload, SpMV (the matrices' passes and
  // the row check) and quotient (the NTTs and pointwise steps) seconds.
  void chain_streamed(const groth16::PartitionInput& in, groth16::ProverTiming& t);
  // One matrix's rows times w, by row blocks through the streamer of at most max_rows rows each:
  // block [b0, b1) into out(b0)[0, b1 - b0), then after(b0, b1) (null: nothing), both queued in
  // stream order. A packed matrix's blocks are whole groups (max_rows a multiple of them, or
  // all rows); a CSR's lie page-locked (`pinned`) or are staged.
  using BlockOut = std::function<Fr*(size_t b0)>;
  using BlockDone = std::function<void(size_t b0, size_t b1)>;
  void spmv_streamed(const pce::CsrMatrix& m, size_t rows, bool pinned, const BlockOut& out,
                     const BlockDone& after = nullptr, size_t max_rows = SIZE_MAX);
  void spmv_streamed(const pce::PackedMatrix& m, const BlockOut& out,
                     const BlockDone& after = nullptr, size_t max_rows = SIZE_MAX);
  // The packed, page-locked copy of rc's matrices (pce/packed_matrix.hpp) that chain_streamed
  // streams, made once per set (lock_streamed_points, else the first chain): 2.2 GB at 32 GiB
  // PoRep where the CSR is 5.9, and 2.63 GB a partition over the link where the CSR's blocks
  // were 8.11 (C twice; H100, 16 GiB, 2026-12-08: 24.6 -> 19.2 GB a partition, 19.44 -> 18.94
  // s/proof). Where the engine's budget has no room for it (host_admission_) or the
  // host refuses the memory or its registration, `bytes` stays empty and chain_streamed reads
  // rc's CSR: page-locked in place where lock_streamed_points locked it, else staged.
  struct PackedMatrices {
    const pce::RecordedCircuit* source = nullptr;
    uint64_t fingerprint = 0;
    groth16::AdmittedHostBytes admitted;  // the budget's share for `bytes`
    RegisteredHostBuffer bytes;
    pce::PackedMatrix m[3];            // A, B, C (views of `bytes`)
    std::vector<uint64_t> offsets[3];  // the packs' group offsets until `bytes` holds them
    uint64_t wanted = 0;               // bytes' size
    bool refused = false;              // the host refused the memory or its registration
  };
  const PackedMatrices& packed_matrices(const pce::RecordedCircuit& rc);
  // gpu_backend_batch.cpp: the aux MSMs of a batch.
  void aux_planned(const groth16::Parameters& params, groth16::AuxSection section,
                   std::span<const groth16::PartitionInput> inputs,
                   std::span<groth16::MsmSums> sums, std::span<groth16::ProverTiming> timings,
                   const MemoryPlan& plan);
  // The plan of a proof of `in` now, beside the other sets' cached bases when they leave it
  // unchanged (else keep_others is false). Caller holds mu_.
  PlanBeside plan_locked(const groth16::Parameters& params, const groth16::PartitionInput& in);
  // The bytes a plan may use: the memory limit, else the device's free memory and this
  // backend's. Caller holds mu_.
  uint64_t cap_locked() const;
  // Which parameter set `params` is, for the bases caches (never 0: no set).
  static uint64_t set_of(const groth16::Parameters& params);
  void clear_locked();
  // Everything clear_locked frees but the cached bases. Neither frees the packed matrices (host
  // memory, kept across a circuit switch and a layout change: a WinningPoSt between two fronts
  // of a 16 GiB PoRep must not cost it a new pack, ~2 s); clear_caches and another recording's
  // pack do.
  void release_working_locked();
  // Frees every buffer that may hold bytes of arena_ (b and c, the streamer's device
  // slots, the MSM scratch), so that it may be reset: a front that threw midway left them.
  void give_back_arena_locked();
  // Frees the batch's compact witnesses (a front or another layout needs the room).
  void release_batch();
  double bandwidth_locked();  // pinned_h2d_bandwidth() with mu_ held
  // The last MSM's parts (last_msm_), with the host's cudaMalloc and cudaFree time since the
  // cap's allocation_seconds() was `allocation_s0`.
  groth16::ProverTiming::MsmParts last_msm_parts(double allocation_s0) const;

  // First member: the buffers below refund it when they are freed.
  DeviceMemoryCap cap_;
  // A capped device's block for the front's b and c, then the H MSM's slots and scratch, and
  // (batch_in_arena) each batch section's slots and scratch (memory_plan.hpp: arena_bytes);
  // before the buffers that take from it, so that it outlives them.
  DeviceArena arena_;
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
  groth16::HostAdmission host_admission_;  // the budget packed_matrices_ asks (mu_)
  PackedMatrices packed_matrices_;
  DeviceBuffer<Fr> d_coefficients_, d_inputs_, d_chunk_scalars_;
  DeviceBuffer<uint64_t> d_input_density_, d_section_density_;
  const void* section_density_source_ = nullptr;  // the host bitmap d_section_density_ holds
  // The batch's compact witnesses, uploaded once for its four aux sections.
  std::vector<WitnessScratch> batch_witness_;
  std::vector<DeviceBuffer<uint8_t>>
      batch_tails_;  // per partition: a section's tail (bases, scalars)
  std::vector<const pce::CompactWitness*> batch_key_;
  uint64_t h2d_ = 0, d2h_ = 0;
  double pinned_bandwidth_ = 0;  // pinned_h2d_bandwidth(), 0 until measured
  MsmStats last_msm_;
  MemoryPlan last_plan_;
  size_t warm_slot_bytes_ = 0;  // the staging slots' size of the warm step in progress
  std::string last_plan_key_;   // the summary of the plan the caches were laid out for
};

}  // namespace cuzk::gpu
