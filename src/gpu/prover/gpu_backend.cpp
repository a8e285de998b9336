#include "gpu/prover/gpu_backend.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpu/device/cuda_check.hpp"
#include "gpu/ntt/quotient.hpp"
#include "gpu/prover/resident_runs.hpp"
#include "groth16/point_source.hpp"
#include "pce/spmv.hpp"
#include "util/clock.hpp"

namespace cuzk::gpu {

namespace {

// Who refuses a set read from its source on a plan that streams from host memory.
constexpr const char* kStreamingPlan = "gpu (a plan that streams bases from the host)";

}  // namespace

GpuBackend::GpuBackend(int device, GpuBackendOptions options)
    : cap_(options.memory_limit), options_(options), streamer_(device, options.pool) {
  const int count = device_count();
  if (count == 0) {
    throw std::runtime_error("GpuBackend: no CUDA device (cudaGetDeviceCount found none)");
  }
  if (device < 0 || device >= count) {
    throw std::runtime_error("GpuBackend: device " + std::to_string(device) + " requested, " +
                             std::to_string(count) + " present");
  }
  info_ = list_devices().at(static_cast<size_t>(device));
  activate();
  DeviceMemoryCap::Scope charged(cap_);
  stream_ = std::make_unique<Stream>();
  ntt_ = std::make_unique<NttEngine>(stream_->get());
}

GpuBackend::~GpuBackend() {
  // Buffers free on the device they were allocated on.
  cudaSetDevice(info_.ordinal);
}

void GpuBackend::activate() const {
  CUZK_CUDA_CHECK(cudaSetDevice(info_.ordinal));
}

std::string GpuBackend::name() const {
  return "gpu:" + std::to_string(info_.ordinal) + " (" + info_.name + ")";
}

void GpuBackend::clear_caches() {
  std::lock_guard lock(mu_);
  activate();
  clear_locked();
  packed_matrices_ = PackedMatrices();
}

void GpuBackend::leave_circuit() {
  std::lock_guard lock(mu_);
  activate();
  release_working_locked();
}

bool GpuBackend::holds(const groth16::Parameters& params) {
  std::lock_guard lock(mu_);
  const uint64_t set = set_of(params);
  return g1_bases_.holds(set) &&
         (groth16::section_counts(params).b_g2 == 0 || g2_bases_.holds(set));
}

uint64_t GpuBackend::set_of(const groth16::Parameters& p) {
  // FNV-1a over the point arrays' addresses and lengths: what tells loaded sets apart (a set
  // loaded again at the same addresses has the same points; the caches' fingerprints check).
  // A set read from its source: the source's identity (a file's, the same across loads).
  uint64_t h = 1469598103934665603ull;
  const auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  if (p.source != nullptr) {
    mix(p.source->identity());
    return h | 1;
  }
  for (const auto& [data, size] : {std::pair<const void*, size_t>{p.h.data(), p.h.size()},
                                   {p.l.data(), p.l.size()},
                                   {p.a.data(), p.a.size()},
                                   {p.b_g1.data(), p.b_g1.size()},
                                   {p.b_g2.data(), p.b_g2.size()}}) {
    mix(reinterpret_cast<uintptr_t>(data));
    mix(size);
  }
  return h | 1;
}

void GpuBackend::clear_locked() {
  g1_bases_.clear();
  g2_bases_.clear();
  release_working_locked();
}

void GpuBackend::release_working_locked() {
  ntt_->release_tables();
  ws_.release();
  d_scalars_.release();
  d_density_.release();
  circuit_ = DeviceCircuit();
  d_w_.release();
  for (auto& v : d_abc_)
    v.release();
  witness_scratch_ = WitnessScratch();
  for (auto& d : d_given_density_)
    d.release();
  d_flag_.release();
  streamer_.release_device();
  d_coefficients_.release();
  d_inputs_.release();
  d_input_density_.release();
  release_batch();
  arena_.release();  // after every buffer that may have taken from it
  last_plan_key_.clear();
}

void GpuBackend::give_back_arena_locked() {
  d_abc_[1].release();
  d_abc_[2].release();
  streamer_.release_device();
  ws_.release();
}

void GpuBackend::set_host_admission(groth16::HostAdmission a) {
  std::lock_guard lock(mu_);
  host_admission_ = std::move(a);
}

MemoryPlan GpuBackend::last_plan() const {
  std::lock_guard lock(mu_);
  return last_plan_;
}

std::optional<groth16::DeviceHolding> GpuBackend::device_holding() {
  std::lock_guard lock(mu_);
  // The caches hold what the last plan keeps resident (all of it, or its resident sections).
  return groth16::DeviceHolding{g1_bases_.bytes() + g2_bases_.bytes(),
                                !last_plan_.all_resident && last_plan_.streams(),
                                streamer_.pinned_bytes() + packed_matrices_.bytes.size()};
}

MemoryPlan GpuBackend::plan_for(const groth16::Parameters& params,
                                const groth16::PartitionInput& in) {
  groth16::check_partition_fits(params, in);
  std::lock_guard lock(mu_);
  activate();
  return plan_locked(params, in).plan;
}

MemoryPlan GpuBackend::begin_locked(const groth16::Parameters& params,
                                    const groth16::PartitionInput& in) {
  const uint64_t set = set_of(params);
  PlanBeside beside = plan_locked(params, in);
  if (!beside.keep_others) {
    g1_bases_.drop_except(set);
    g2_bases_.drop_except(set);
  }
  g1_bases_.use_set(set);
  g2_bases_.use_set(set);
  MemoryPlan plan = std::move(beside.plan);
  if (!plan.all_resident && options_.adjust_plan) options_.adjust_plan(plan);
  const std::string key = plan.layout_key();
  if (key != last_plan_key_) {
    // Another layout: what the previous one cached may not fit beside this one's buffers.
    if (!last_plan_key_.empty()) clear_locked();
    last_plan_key_ = key;
  }
  last_plan_ = plan;
  return plan;
}

groth16::Proof GpuBackend::prove(const groth16::Parameters& params,
                                 const groth16::PartitionInput& in,
                                 const groth16::ProofRandomness& rand,
                                 groth16::ProverTiming* timing) {
  groth16::ProverTiming local;
  groth16::ProverTiming& t = timing != nullptr ? *timing : local;
  const auto t_start = SteadyClock::now();
  groth16::check_partition_fits(params, in);
  std::lock_guard lock(mu_);
  activate();
  DeviceMemoryCap::Scope charged(cap_);
  const MemoryPlan plan = begin_locked(params, in);
  if (plan.all_resident) return prove_resident(params, in, rand, t);
  if (plan.streams()) groth16::require_host_points(params, kStreamingPlan);
  read_source_locked(params, in);
  // A batch of one: the front, then each aux section.
  t.layout_s += seconds_since(t_start);  // the checks and the plan
  groth16::MsmSums sums = front_planned(params, in, t, plan);
  for (const groth16::AuxSection section : groth16::kAuxSections)
    aux_planned(params, section, {&in, 1}, {&sums, 1}, {&t, 1}, plan);
  auto t0 = SteadyClock::now();
  release_batch();
  t.layout_s += seconds_since(t0);
  t0 = SteadyClock::now();
  const groth16::Proof proof = groth16::assemble_proof(params.vk, sums, rand);
  t.assemble_s = seconds_since(t0);
  t.total_s = t.synthesis_s + seconds_since(t_start);
  return proof;
}

bool GpuBackend::warm_step(const groth16::Parameters& params, const groth16::PartitionInput& in) {
  groth16::check_partition_fits(params, in);
  std::lock_guard lock(mu_);
  activate();
  DeviceMemoryCap::Scope charged(cap_);
  const MemoryPlan plan = begin_locked(params, in);
  if (plan.streams()) {
    groth16::require_host_points(params, kStreamingPlan);
    return false;  // the plan streams bases at every proof
  }
  // A host set under a chunked plan uploads its bases at its first proof (a set read from its
  // source is read by these steps on every plan that keeps it resident).
  if (!plan.all_resident && params.source == nullptr) return false;
  const uint64_t step =
      params.source != nullptr ? options_.warm_source_step_bytes : options_.warm_step_bytes;
  const bool copied = warm_locked(params, in, std::max<uint64_t>(step, 1));
  if (!copied) streamer_.release_device();  // every run resident: the slots' device half goes
  return copied;
}

size_t GpuBackend::batch_limit(const groth16::Parameters& params,
                               const groth16::PartitionInput& in) {
  MemoryPlan plan = plan_for(params, in);
  if (plan.all_resident) return 1;
  if (options_.adjust_plan) options_.adjust_plan(plan);
  return static_cast<size_t>(plan.batch_partitions);
}

// Every streamed section's points in place (h whole, the aux sections as aux_section_bases
// gives them: their chunks are what streams): the chunks then leave from them by DMA at the
// link's rate, with no host copy on the pool into the pinned slots (BaseStreamer::for_each_chunk
// asks is_page_locked). The recorded matrices, where the plan streams them by row blocks, are
// packed into page-locked memory instead, or locked in place where the pack has no room.
// A refused array stays pageable and is staged as before. Never a file mapping: its
// registration did not return in 150 s on the H100 host (FileCopy); a PCE file is read.
groth16::PageLocks GpuBackend::lock_streamed_points(const groth16::Parameters& params,
                                                    const groth16::PartitionInput& in) {
  if (!groth16::has_host_points(params)) return {};  // nothing of the points on the host
  MemoryPlan plan = plan_for(params, in);
  if (plan.all_resident) return {};
  if (options_.adjust_plan) options_.adjust_plan(plan);
  groth16::PageLocks locks;
  const auto lock = [&](std::span<const std::byte> bytes) {
    if (bytes.empty()) return;
    try {
      locks.handles.push_back(std::make_shared<HostPageLock>(bytes.data(), bytes.size()));
      locks.bytes += bytes.size();
    } catch (const CudaError&) {
    }
  };
  std::lock_guard guard(mu_);
  activate();
  if (!plan.resident("h")) lock(std::as_bytes(std::span<const G1Affine>(params.h)));
  for (const groth16::AuxSection section : groth16::kAuxSections) {
    if (plan.resident(groth16::aux_section_name(section))) continue;
    const groth16::AuxSectionBases b = groth16::aux_section_bases(params, section, in);
    lock(std::as_bytes(b.g1));
    lock(std::as_bytes(b.g2));
  }
  // The recorded matrices packed once here (packed_matrices), or, where the budget or the host
  // has no room for the pack, their CSR locked in place.
  if (in.circuit != nullptr && plan.spmv_on_device && plan.spmv_streams_matrices &&
      packed_matrices(*in.circuit).bytes.size() == 0) {
    for (const pce::CsrMatrix* m : {&in.circuit->a, &in.circuit->b, &in.circuit->c}) {
      lock(std::as_bytes(m->row_ptr));
      lock(std::as_bytes(m->cols));
      lock(std::as_bytes(m->coeffs));
    }
  }
  return locks;
}

uint64_t GpuBackend::matrix_copy_bytes() const {
  std::lock_guard lock(mu_);
  return packed_matrices_.bytes.size();
}

// prove's prologue again (timing, fit check, lock, device, cap): the lock and the cap's scope
// are guards that must live for the whole call, so each entry point opens them itself.
groth16::MsmSums GpuBackend::prove_front(const groth16::Parameters& params,
                                         const groth16::PartitionInput& in,
                                         groth16::ProverTiming* timing) {
  groth16::ProverTiming local;
  groth16::ProverTiming& t = timing != nullptr ? *timing : local;
  const auto t0 = SteadyClock::now();
  groth16::check_partition_fits(params, in);
  std::lock_guard lock(mu_);
  activate();
  DeviceMemoryCap::Scope charged(cap_);
  const MemoryPlan plan = begin_locked(params, in);
  if (plan.streams()) groth16::require_host_points(params, kStreamingPlan);
  read_source_locked(params, in);
  const double planned_s = seconds_since(t0);  // the checks and the plan
  groth16::MsmSums sums = front_planned(params, in, t, plan);
  t.layout_s += planned_s;
  t.total_s += planned_s;
  return sums;
}

void GpuBackend::aux_msm(const groth16::Parameters& params, groth16::AuxSection section,
                         std::span<const groth16::PartitionInput> inputs,
                         std::span<groth16::MsmSums> sums,
                         std::span<groth16::ProverTiming> timings) {
  const auto t0 = SteadyClock::now();
  groth16::check_batch_fits(params, inputs, sums.size(), timings.size());
  std::lock_guard lock(mu_);
  activate();
  DeviceMemoryCap::Scope charged(cap_);
  const MemoryPlan plan = begin_locked(params, inputs.front());
  if (plan.streams()) groth16::require_host_points(params, kStreamingPlan);
  read_source_locked(params, inputs.front());
  // The checks and the plan, shared like the section's time.
  const double planned_s = seconds_since(t0) / static_cast<double>(timings.size());
  for (groth16::ProverTiming& t : timings) {
    t.layout_s += planned_s;
    t.total_s += planned_s;
  }
  aux_planned(params, section, inputs, sums, timings, plan);
}

double GpuBackend::pinned_h2d_bandwidth() {
  std::lock_guard lock(mu_);
  activate();
  DeviceMemoryCap::Scope charged(cap_);
  return bandwidth_locked();
}

double GpuBackend::bandwidth_locked() {
  if (pinned_bandwidth_ > 0) return pinned_bandwidth_;
  // The median of three copies from pinned memory of 64 MiB (gpu-anchors: 55 GB/s on the H200's
  // PCIe Gen5 x16 from 16 MiB up), or of what the cap has room for; no room: not measured.
  uint64_t bytes = uint64_t{64} << 20;
  if (cap_.limit() != 0) {
    const uint64_t room = cap_.limit() > cap_.in_use() ? cap_.limit() - cap_.in_use() : 0;
    bytes = std::min(bytes, room / 2);
  }
  if (bytes < (uint64_t{1} << 20)) return 0;
  PinnedBuffer<uint8_t> host(bytes);
  DeviceBuffer<uint8_t> device(bytes);
  const cudaStream_t s = stream_->get();
  float ms[3];
  for (float& m : ms) {
    Event a, b;
    a.record(s);
    CUZK_CUDA_CHECK(cudaMemcpyAsync(device.get(), host.get(), bytes, cudaMemcpyHostToDevice, s));
    b.record(s);
    b.sync();
    m = b.ms_since(a);
  }
  std::sort(ms, ms + 3);
  pinned_bandwidth_ = static_cast<double>(bytes) / (static_cast<double>(ms[1]) / 1e3);
  return pinned_bandwidth_;
}

groth16::ProverTiming::MsmParts GpuBackend::last_msm_parts(double allocation_s0) const {
  groth16::ProverTiming::MsmParts parts;
  parts.sort_s = last_msm_.sort_ms / 1e3;
  parts.accumulate_s = last_msm_.accumulate_ms / 1e3;
  parts.reduce_s = last_msm_.reduce_ms / 1e3;
  parts.allocate_s = cap_.allocation_seconds() - allocation_s0;
  return parts;
}

void GpuBackend::release_batch() {
  batch_witness_.clear();
  batch_tails_.clear();
  batch_key_.clear();
  d_chunk_scalars_.release();
  d_section_density_.release();
  section_density_source_ = nullptr;
}

groth16::Proof GpuBackend::prove_resident(const groth16::Parameters& params,
                                          const groth16::PartitionInput& in,
                                          const groth16::ProofRandomness& rand,
                                          groth16::ProverTiming& t) {
  const auto t_start = SteadyClock::now();
  // A set read from its source: what the engine's warm steps have not copied yet (the tools
  // prove with none), counted as upload.
  read_source_locked(params, in);
  const double read_s = seconds_since(t_start);
  const pce::CompactWitness& w = *in.witness;
  const size_t rows = in.rows(), inputs = w.inputs.size(), aux = w.num_aux;
  const EvaluationDomain domain = EvaluationDomain::for_size(rows);
  const size_t n = domain.size();

  const cudaStream_t s = stream_->get();
  Event start, uploaded, evaluated, quotient_done;
  start.record(s);
  d_w_.reserve(inputs + aux);
  for (DeviceBuffer<Fr>& v : d_abc_)
    v.reserve(n);
  upload_witness(w, d_w_.get(), witness_scratch_, s);
  Fr* const d_a = d_abc_[0].get();
  Fr* const d_b = d_abc_[1].get();
  Fr* const d_c = d_abc_[2].get();
  const uint64_t* densities[3];
  if (in.circuit != nullptr) {
    if (circuit_.source != in.circuit->storage.get() || circuit_.rows != rows) {
      circuit_ = DeviceCircuit();  // the previous circuit's copy first: memory for the new one
      circuit_.upload(*in.circuit, s);
    }
    uploaded.record(s);
    spmv(circuit_, d_w_.get(), d_a, d_b, d_c, s);
    densities[0] = circuit_.a_aux_density.get();
    densities[1] = circuit_.b_input_density.get();
    densities[2] = circuit_.b_aux_density.get();
  } else {
    d_abc_[0].upload(in.a, s);
    d_abc_[1].upload(in.b, s);
    d_abc_[2].upload(in.c, s);
    const DensityTracker* given[3] = {in.a_aux_density, in.b_input_density, in.b_aux_density};
    for (int k = 0; k < 3; ++k) {
      const std::vector<uint64_t>& words = given[k]->words();
      d_given_density_[k].reserve(std::max<size_t>(1, words.size()));
      d_given_density_[k].upload(words, s);
      densities[k] = d_given_density_[k].get();
    }
    uploaded.record(s);
  }
  if (in.circuit != nullptr) {
    const size_t bad = first_unsatisfied_row(d_a, d_b, d_c, rows, d_flag_, s);
    if (bad != rows) {
      throw pce::unsatisfied_row_error(bad, *in.circuit);
    }
  }
  evaluated.record(s);
  for (DeviceBuffer<Fr>& v : d_abc_)
    v.zero(s, rows, n - rows);
  quotient_in_place(d_a, d_b, d_c, domain, *ntt_);
  quotient_done.record(s);
  quotient_done.sync();
  t.upload_s = read_s + uploaded.ms_since(start) / 1e3;
  t.spmv_s = evaluated.ms_since(uploaded) / 1e3;
  t.quotient_s = quotient_done.ms_since(evaluated) / 1e3;

  const Fr* const d_inputs = d_w_.get();
  const Fr* const d_aux = d_w_.get() + inputs;
  // The runs' device copies: a host set's uploaded on a miss, a source set's made whole above.
  const ResidentRuns r = resident_runs(params, in);
  const auto sum = [&]<class Curve>(BasesCache<Curve>& cache, const PointRun<Curve>& run,
                                    const Fr* d_scalars, size_t scalars, const uint64_t* density) {
    if (run.size() == 0 || scalars == 0) return Jacobian<Curve>::identity();
    return msm_resident<Curve>(device_copy(cache, run), run.size(), d_scalars, scalars, density);
  };
  groth16::MsmSums sums;
  auto t0 = SteadyClock::now();
  const double allocation_s0 = cap_.allocation_seconds();
  last_msm_ = MsmStats{};  // (an empty run leaves it untouched)
  sums.h = sum(g1_bases_, r.h, d_a, n - 1, nullptr);
  t.msm_h_s = seconds_since(t0);
  t.msm_h_parts = last_msm_parts(allocation_s0);
  t0 = SteadyClock::now();
  sums.l = sum(g1_bases_, r.l, d_aux, aux, nullptr);
  t.msm_l_s = seconds_since(t0);
  t0 = SteadyClock::now();
  sums.a = sum(g1_bases_, r.a_inputs, d_inputs, inputs, nullptr) +
           sum(g1_bases_, r.a_aux, d_aux, aux, densities[0]);
  t.msm_a_s = seconds_since(t0);
  t0 = SteadyClock::now();
  sums.b_g1 = sum(g1_bases_, r.b1_inputs, d_inputs, inputs, densities[1]) +
              sum(g1_bases_, r.b1_aux, d_aux, aux, densities[2]);
  t.msm_b_g1_s = seconds_since(t0);
  t0 = SteadyClock::now();
  sums.b_g2 = sum(g2_bases_, r.b2_inputs, d_inputs, inputs, densities[1]) +
              sum(g2_bases_, r.b2_aux, d_aux, aux, densities[2]);
  t.msm_b_g2_s = seconds_since(t0);
  t0 = SteadyClock::now();
  const groth16::Proof proof = groth16::assemble_proof(params.vk, sums, rand);
  t.assemble_s = seconds_since(t0);
  t.total_s = t.synthesis_s + seconds_since(t_start);
  return proof;
}

std::vector<Fr> GpuBackend::coset_ab_minus_c(std::vector<Fr> a, std::vector<Fr> b,
                                             std::vector<Fr> c, const EvaluationDomain& domain,
                                             QuotientTiming* timing) {
  std::lock_guard lock(mu_);
  activate();
  DeviceMemoryCap::Scope charged(cap_);
  return gpu::coset_ab_minus_c(a, b, c, domain, *ntt_, timing);
}

template <class Curve>
Jacobian<Curve> GpuBackend::msm_resident(const Affine<Curve>* d_bases, size_t count,
                                         const Fr* d_scalars, size_t n, const uint64_t* d_density) {
  last_msm_ = MsmStats{};
  if (n == 0 || count == 0) return Jacobian<Curve>::identity();
  return msm_split<Curve>(d_bases, d_scalars, n, d_density, ws_, stream_->get(), &last_msm_);
}

template <class Curve>
Jacobian<Curve> GpuBackend::msm(BasesCache<Curve>& cache, std::span<const Affine<Curve>> bases,
                                const DensityTracker* density, std::span<const Fr> scalars) {
  if (density == nullptr && bases.size() != scalars.size())
    throw std::invalid_argument("gpu msm: bases and scalars differ in length");
  if (density != nullptr) {
    if (scalars.size() != density->size())
      throw std::invalid_argument("gpu msm: scalars.size() != density.size()");
    if (bases.size() != density->popcount())
      throw std::invalid_argument("gpu msm: bases.size() != density.popcount()");
  }
  std::lock_guard lock(mu_);
  last_msm_ = MsmStats{};
  if (scalars.empty() || bases.empty()) return Jacobian<Curve>::identity();
  activate();
  DeviceMemoryCap::Scope charged(cap_);
  // After a planned proof, these cached bases are not in the next plan's layout: the next
  // proof starts from empty caches.
  if (!last_plan_key_.empty() && last_plan_key_ != "resident") last_plan_key_ = "single msm";
  const cudaStream_t s = stream_->get();
  const Affine<Curve>* d_bases = cache.get(bases, s);
  d_scalars_.reserve(scalars.size());
  d_scalars_.upload(scalars, s);
  const uint64_t* d_density = nullptr;
  if (density != nullptr) {
    const std::vector<uint64_t>& words = density->words();
    d_density_.reserve(words.size());
    d_density_.upload(words, s);
    d_density = d_density_.get();
  }
  return msm_split<Curve>(d_bases, d_scalars_.get(), scalars.size(), d_density, ws_, s, &last_msm_);
}

G1Jacobian GpuBackend::msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) {
  return msm<G1Curve>(g1_bases_, bases, nullptr, scalars);
}
G2Jacobian GpuBackend::msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) {
  return msm<G2Curve>(g2_bases_, bases, nullptr, scalars);
}
G1Jacobian GpuBackend::msm_g1(std::span<const G1Affine> bases, const DensityTracker& density,
                              std::span<const Fr> scalars) {
  return msm<G1Curve>(g1_bases_, bases, &density, scalars);
}
G2Jacobian GpuBackend::msm_g2(std::span<const G2Affine> bases, const DensityTracker& density,
                              std::span<const Fr> scalars) {
  return msm<G2Curve>(g2_bases_, bases, &density, scalars);
}

}  // namespace cuzk::gpu
