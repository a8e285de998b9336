// GpuBackend on a capped device: the plan (memory_plan.hpp) from the partition's shape, and the
// front of a proof that follows it (SpMV or uploads, the H chain, the H MSM in chunks, the
// inputs' MSMs), freeing between the phases what the next does not use; the aux MSMs follow in
// gpu_backend_batch.cpp. The same proof bytes as the resident path.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpu/device/cuda_check.hpp"
#include "gpu/ntt/ntt_launch.hpp"
#include "gpu/ntt/quotient.hpp"
#include "gpu/prover/gpu_backend.hpp"
#include "groth16/point_source.hpp"
#include "pce/spmv.hpp"
#include "util/clock.hpp"

namespace cuzk::gpu {

namespace {

// The shape of a partition proof over a set with `counts`: its sections from the counts, the
// rest from the partition (a recorded circuit's rows, or given a, b, c's).
ProverShape prover_shape(const groth16::SectionCounts& c, uint64_t inputs, uint64_t aux,
                         uint64_t witness_values, const pce::RecordedCircuit* circuit,
                         uint64_t rows) {
  ProverShape shape;
  shape.domain = EvaluationDomain::for_size(rows).size();
  shape.inputs = inputs;
  shape.aux = aux;
  shape.witness_values = witness_values;
  shape.recorded = circuit != nullptr;
  shape.pce_bytes = shape.recorded ? DeviceCircuit::bytes_for(*circuit) : 0;
  shape.rows = rows;
  const uint64_t widest = std::max(shape.inputs, shape.aux);
  constexpr uint32_t g1 = sizeof(G1Affine), g2 = sizeof(G2Affine);
  constexpr uint32_t x1 = sizeof(Xyzz<G1Curve>), x2 = sizeof(Xyzz<G2Curve>);
  shape.sections = {{"h", c.h, shape.domain - 1, g1, x1},
                    {"l", c.l, shape.aux, g1, x1},
                    {"a", c.a, widest, g1, x1},
                    {"b_g1", c.b_g1, widest, g1, x1},
                    {"b_g2", c.b_g2, widest, g2, x2}};
  return shape;
}

ProverShape prover_shape(const groth16::Parameters& params, const groth16::PartitionInput& in) {
  const pce::CompactWitness& w = *in.witness;
  return prover_shape(groth16::section_counts(params), w.inputs.size(), w.num_aux,
                      w.aux_values.size(), in.circuit, in.rows());
}

// The H MSM over resident (d_bases) or streamed (host) bases: its n scalars in d_scalars (no
// density).
ChunkedMsmInput<G1Curve> h_msm_input(const G1Affine* d_bases, const PointRun<G1Curve>& h,
                                     const Fr* d_scalars, size_t n) {
  ChunkedMsmInput<G1Curve> in;
  in.host_bases = h.host;
  in.d_bases = d_bases;
  in.resident_count = h.size();
  in.d_scalars = d_scalars;
  in.n = n;
  return in;
}

}  // namespace

uint64_t GpuBackend::cap_locked() const {
  if (options_.memory_limit != 0) return options_.memory_limit;
  // Uncapped: the device's free memory plus what this backend holds (its to lay out again).
  size_t free_b = 0, total_b = 0;
  CUZK_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  return free_b + cap_.in_use();
}

PlanBeside GpuBackend::plan_locked(const groth16::Parameters& params,
                                   const groth16::PartitionInput& in) {
  const uint64_t set = set_of(params);
  return plan_beside(prover_shape(params, in), cap_locked(),
                     g1_bases_.bytes_except(set) + g2_bases_.bytes_except(set),
                     options_.pool != nullptr, options_.max_chunk_scalars);
}

bool GpuBackend::proves_from_source(const groth16::Parameters& params,
                                    const pce::RecordedCircuit* circuit) {
  // Before any witness: the recorded circuit's inputs, aux and rows, every aux value taken as
  // non-0/1 (the working set at its largest). Given a, b, c (no circuit), the shape is not known
  // before the witness (a, b_g1, b_g2 keep only the points of used variables).
  if (circuit == nullptr) return false;
  const ProverShape shape =
      prover_shape(groth16::section_counts(params), circuit->num_inputs, circuit->num_aux,
                   circuit->num_aux, circuit, circuit->num_rows);
  std::lock_guard lock(mu_);
  activate();
  return !plan_device_memory(shape, cap_locked(), options_.pool != nullptr,
                             options_.max_chunk_scalars)
              .streams();
}

groth16::MsmSums GpuBackend::front_planned(const groth16::Parameters& params,
                                           const groth16::PartitionInput& in,
                                           groth16::ProverTiming& t, const MemoryPlan& plan) {
  const auto t_start = SteadyClock::now();
  const pce::CompactWitness& w = *in.witness;
  const size_t rows = in.rows(), inputs = w.inputs.size();
  const EvaluationDomain domain = EvaluationDomain::for_size(rows);
  const size_t n = domain.size();
  const bool recorded = in.circuit != nullptr;
  const bool device_spmv = recorded && plan.spmv_on_device;
  const bool streamed = device_spmv && plan.spmv_streams_matrices;
  const cudaStream_t s = stream_->get();
  if (plan.chain_two_vectors && device_spmv)
    throw std::logic_error("gpu plan: a two-vector H chain needs a, b, c on the host");
  if (recorded && !device_spmv && options_.pool == nullptr)
    throw std::logic_error("gpu plan: the host SpMV needs the backend's thread pool");
  // Not in the plan: the single-MSM entry points' copies, vectors the plan leaves on the host,
  // a batch's compact witnesses, and what a previous call that threw may have left of its later
  // phases.
  d_scalars_.release();
  d_density_.release();
  release_batch();
  if (!device_spmv || streamed) circuit_ = DeviceCircuit();
  give_back_arena_locked();
  ntt_->release_tables();
  ntt_->set_single_twiddle_table(streamed);
  // The arena (memory_plan.hpp: arena_bytes): b and c, then the H MSM's scratch and slots, in
  // one block kept across the fronts of a batch, and across batches where the batch's sections
  // lay out their slots and scratch in it too (null: each by cudaMalloc).
  DeviceArena* const arena = plan.arena_bytes != 0 ? &arena_ : nullptr;
  if (arena != nullptr) {
    arena_.reserve(plan.arena_bytes);
    arena_.reset();
  } else {
    arena_.release();
  }
  const double bandwidth = bandwidth_locked();
  const uint64_t h2d_before = h2d_bytes(), d2h_before = d2h_bytes();
  const size_t chunk = plan.chunk_scalars != 0 ? plan.chunk_scalars : (n + 63) / 64 * 64;
  const bool rh = plan.resident("h");
  const PointRun<G1Curve> h =
      point_run<G1Curve>(params, groth16::Section::kH, 0, groth16::section_counts(params).h);
  t.layout_s += seconds_since(t_start);

  if (streamed) {
    // Phases 1 and 2 interleaved, the matrices by row blocks (it times its SpMV passes and its
    // chain apart).
    chain_streamed(in, t);
  } else {
    Event start, uploaded, evaluated, quotient_done;
    start.record(s);
    // Phase 1: a, b, c on the device (SpMV) or on the host (CPU SpMV, or given).
    std::vector<Fr> host_abc[3];
    std::span<const Fr> host[3] = {in.a, in.b, in.c};
    if (device_spmv) {
      d_w_.reserve(inputs + w.num_aux);
      upload_witness(w, d_w_.get(), witness_scratch_, s);
      h2d_ += inputs * sizeof(Fr) + compact_aux_bytes(w);
      d_abc_[0].reserve(n);  // a, then h through the H MSM: not in the arena
      {
        const DeviceArena::Scope in_arena(arena);
        d_abc_[1].reserve(n);
        d_abc_[2].reserve(n);
      }
      if (circuit_.source != in.circuit->storage.get() || circuit_.rows != rows) {
        circuit_ = DeviceCircuit();
        circuit_.upload(*in.circuit, s);
        h2d_ += circuit_.bytes();
      }
      uploaded.record(s);
      spmv(circuit_, d_w_.get(), d_abc_[0].get(), d_abc_[1].get(), d_abc_[2].get(), s);
      const size_t bad = first_unsatisfied_row(d_abc_[0].get(), d_abc_[1].get(), d_abc_[2].get(),
                                               rows, d_flag_, s);
      if (bad != rows) throw pce::unsatisfied_row_error(bad, *in.circuit);
    } else {
      if (recorded) {
        for (auto& v : host_abc)
          v.resize(rows);
        pce::evaluate(*in.circuit, w, host_abc[0], host_abc[1], host_abc[2], *options_.pool);
        if (const auto bad =
                pce::first_unsatisfied_row(host_abc[0], host_abc[1], host_abc[2], *options_.pool)) {
          throw pce::unsatisfied_row_error(*bad, *in.circuit);
        }
        for (int k = 0; k < 3; ++k)
          host[k] = host_abc[k];
      }
      uploaded.record(s);
    }
    evaluated.record(s);
    // The witness is not needed past the SpMV. Freed before the prefetch below: cudaFree waits
    // for the whole device, so freed after it, it held the chain back until the 1.61 GB copy
    // was done (H100, 24 GiB, session 26: the chain +29 ms a partition, the copy's 29 ms).
    d_w_.release();
    witness_scratch_ = WitnessScratch();
    // The H MSM's first chunk of bases copied during the chain, into its slot at the arena's top
    // (memory_plan.hpp: h_first_chunk_in_chain; its copy had been waited for at the MSM's start).
    if (plan.h_first_chunk_in_chain && !rh) {
      const DeviceArena::Scope at_top(arena, DeviceArena::End::kTop);
      streamer_.reserve_first(chunk * sizeof(G1Affine));
      streamer_.prefetch_first<G1Curve>(h_msm_input(nullptr, h, nullptr, n - 1), chunk);
    }

    // Phase 2: the H chain; h ends in d_abc_[0].
    d_abc_[0].reserve(n);
    Fr* const d_a = d_abc_[0].get();
    if (!plan.chain_two_vectors) {
      for (int k = 0; k < 3; ++k) {
        d_abc_[k].reserve(n);
        if (!device_spmv) {
          d_abc_[k].upload(host[k], s);
          h2d_ += host[k].size_bytes();
        }
        d_abc_[k].zero(s, rows, n - rows);
      }
      quotient_in_place(d_abc_[0].get(), d_abc_[1].get(), d_abc_[2].get(), domain, *ntt_);
    } else {
      // c first, to its coset evaluations, parked on the host; then a and b; then a b - c in
      // ranges with c's range uploaded beside them.
      std::vector<Fr> c_coset(n);
      d_abc_[0].upload(host[2], s);
      d_abc_[0].zero(s, rows, n - rows);
      quotient_to_coset({{d_a}}, domain, *ntt_);
      d_abc_[0].download(c_coset, s);
      CUZK_CUDA_CHECK(cudaStreamSynchronize(s));  // c_coset complete before it is read back
      d_abc_[0].upload(host[0], s);
      d_abc_[0].zero(s, rows, n - rows);
      d_abc_[1].reserve(n);
      d_abc_[1].upload(host[1], s);
      d_abc_[1].zero(s, rows, n - rows);
      h2d_ += 2 * n * sizeof(Fr) + 3 * rows * sizeof(Fr);
      d2h_ += n * sizeof(Fr);
      quotient_to_coset({{d_a, d_abc_[1].get()}}, domain, *ntt_);
      {
        const size_t len = std::min<size_t>(n, kChainChunkElements);
        DeviceBuffer<Fr> c_range(len);
        for (size_t off = 0; off < n; off += len) {
          const size_t m = std::min(len, n - off);
          // Stream order: this upload waits for the previous range's product to be read.
          c_range.upload(std::span<const Fr>(c_coset).subspan(off, m), s);
          ntt_detail::launch_ab_minus_c(d_a + off, d_abc_[1].get() + off, c_range.get(), m, s);
        }
        CUZK_CUDA_CHECK(cudaStreamSynchronize(s));  // before c_range and c_coset go
      }
      d_abc_[1].release();
      quotient_from_coset(d_a, domain, *ntt_);
    }
    quotient_done.record(s);
    quotient_done.sync();
    t.upload_s = uploaded.ms_since(start) / 1e3;
    t.spmv_s = evaluated.ms_since(uploaded) / 1e3;
    t.quotient_s = quotient_done.ms_since(evaluated) / 1e3;
  }
  auto t0 = SteadyClock::now();
  d_abc_[1].release();
  d_abc_[2].release();
  // For the H MSM's slots and scratch (the first slot, copied under the chain, stays at the top).
  if (arena != nullptr) arena_.reset_bottom();
  ntt_->release_tables();
  ntt_->set_single_twiddle_table(false);

  // Phase 3: the H MSM in chunks (its bases streamed unless resident), then the inputs' parts
  // of A, B_G1, B_G2 (a few hundred scalars, their bases cached).
  groth16::MsmSums sums;
  {
    const DeviceArena::Scope in_arena(arena);  // the slots and the scratch
    if (!rh) streamer_.reserve(chunk * sizeof(G1Affine));
    t.layout_s += seconds_since(t0);
    t0 = SteadyClock::now();
    const double allocation_s0 = cap_.allocation_seconds();
    last_msm_ = MsmStats{};
    sums.h = n - 1 == 0 || h.size() == 0
                 ? G1Jacobian::identity()
                 : streamer_.msm<G1Curve>(h_msm_input(rh ? device_copy(g1_bases_, h) : nullptr, h,
                                                      d_abc_[0].get(), n - 1),
                                          chunk, ws_, s, &last_msm_);
    t.msm_h_s = seconds_since(t0);
    t.msm_h_parts = last_msm_parts(allocation_s0);
  }
  t0 = SteadyClock::now();
  streamer_.release_device();
  ws_.release();
  d_abc_[0].release();
  t.layout_s += seconds_since(t0);
  t0 = SteadyClock::now();
  d_inputs_.reserve(inputs);
  d_inputs_.upload(w.inputs, s);
  const std::vector<uint64_t>& b_words = in.b_input_density->words();
  d_input_density_.reserve(std::max<size_t>(1, b_words.size()));
  d_input_density_.upload(b_words, s);
  h2d_ += inputs * sizeof(Fr) + b_words.size() * 8;
  const size_t b_inputs = in.b_input_density->popcount();
  const auto a_in = point_run<G1Curve>(params, groth16::Section::kA, 0, inputs);
  const auto b1_in = point_run<G1Curve>(params, groth16::Section::kBG1, 0, b_inputs);
  const auto b2_in = point_run<G2Curve>(params, groth16::Section::kBG2, 0, b_inputs);
  sums.l = G1Jacobian::identity();
  sums.a =
      msm_split<G1Curve>(device_copy(g1_bases_, a_in), d_inputs_.get(), inputs, nullptr, ws_, s);
  const double a_s = seconds_since(t0);
  t0 = SteadyClock::now();
  sums.b_g1 = b_inputs == 0 ? G1Jacobian::identity()
                            : msm_split<G1Curve>(device_copy(g1_bases_, b1_in), d_inputs_.get(),
                                                 inputs, d_input_density_.get(), ws_, s);
  const double b1_s = seconds_since(t0);
  t0 = SteadyClock::now();
  sums.b_g2 = b_inputs == 0 ? G2Jacobian::identity()
                            : msm_split<G2Curve>(device_copy(g2_bases_, b2_in), d_inputs_.get(),
                                                 inputs, d_input_density_.get(), ws_, s);
  t.msm_a_s += a_s;
  t.msm_b_g1_s += b1_s;
  t.msm_b_g2_s += seconds_since(t0);
  t0 = SteadyClock::now();
  ws_.release();
  t.layout_s += seconds_since(t0);
  const uint64_t moved = (h2d_bytes() - h2d_before) + (d2h_bytes() - d2h_before);
  t.h2d_bytes += h2d_bytes() - h2d_before;
  t.d2h_bytes += d2h_bytes() - d2h_before;
  if (bandwidth > 0) t.transfer_floor_s += static_cast<double>(moved) / bandwidth;
  t.total_s = t.synthesis_s + seconds_since(t_start);
  return sums;
}

}  // namespace cuzk::gpu
