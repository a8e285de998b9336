// GpuBackend on a capped device: the plan (memory_plan.hpp) from the partition's shape, and the
// three-phase proof that follows it (SpMV or uploads, the H chain, chunked MSMs), freeing between
// the phases what the next does not use. The same proof bytes as the resident path.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "cs/constraint_system.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/gpu_backend.hpp"
#include "gpu/ntt_launch.hpp"
#include "gpu/quotient.hpp"
#include "pce/spmv.hpp"
#include "util/clock.hpp"

namespace cuzk::gpu {

namespace {

ProverShape prover_shape(const groth16::Parameters& params, const groth16::PartitionInput& in) {
  const pce::CompactWitness& w = *in.witness;
  ProverShape shape;
  shape.domain = EvaluationDomain::for_size(in.rows()).size();
  shape.inputs = w.inputs.size();
  shape.aux = w.num_aux;
  shape.witness_values = w.aux_values.size();
  shape.recorded = in.circuit != nullptr;
  shape.pce_bytes = shape.recorded ? DeviceCircuit::bytes_for(*in.circuit) : 0;
  const uint64_t widest = std::max(shape.inputs, shape.aux);
  constexpr uint32_t g1 = sizeof(G1Affine), g2 = sizeof(G2Affine);
  constexpr uint32_t x1 = sizeof(Xyzz<G1Curve>), x2 = sizeof(Xyzz<G2Curve>);
  shape.sections = {{"h", params.h.size(), shape.domain - 1, g1, x1},
                    {"l", params.l.size(), shape.aux, g1, x1},
                    {"a", params.a.size(), widest, g1, x1},
                    {"b_g1", params.b_g1.size(), widest, g1, x1},
                    {"b_g2", params.b_g2.size(), widest, g2, x2}};
  return shape;
}

// One msm_split run in chunks over resident (cached) or streamed bases.
template <class Curve>
Jacobian<Curve> chunked_msm(BaseStreamer& streamer, BasesCache<Curve>& cache, bool resident,
                            std::span<const Affine<Curve>> bases, const Fr* d_scalars, size_t n,
                            const DensityTracker* density, const uint64_t* d_density, size_t chunk,
                            MsmWorkspace& ws, cudaStream_t s, MsmStats* stats) {
  if (n == 0 || bases.empty()) return Jacobian<Curve>::identity();
  ChunkedMsmInput<Curve> in;
  in.host_bases = bases;
  in.d_bases = resident ? cache.get(bases, s) : nullptr;
  in.d_scalars = d_scalars;
  in.n = n;
  if (density != nullptr) {
    in.density = density->words();
    in.d_density = d_density;
  }
  return streamer.msm<Curve>(in, chunk, ws, s, stats);
}

SynthesisError unsatisfied(size_t row, const pce::RecordedCircuit& rc) {
  return SynthesisError(SynthesisError::Kind::kUnsatisfiable,
                        "groth16 prove: the witness does not satisfy row " + std::to_string(row) +
                            " of the recorded circuit " + rc.identity.to_string() +
                            "; refusing to produce an invalid proof");
}

}  // namespace

MemoryPlan GpuBackend::plan_locked(const groth16::Parameters& params,
                                   const groth16::PartitionInput& in) {
  uint64_t cap = options_.memory_limit;
  if (cap == 0) {
    // Uncapped: the device's free memory plus what this backend holds (its to lay out again).
    size_t free_b = 0, total_b = 0;
    CUZK_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    cap = free_b + cap_.in_use();
  }
  return plan_device_memory(prover_shape(params, in), cap, options_.pool != nullptr,
                            options_.max_chunk_scalars);
}

groth16::Proof GpuBackend::prove_planned(const groth16::Parameters& params,
                                         const groth16::PartitionInput& in,
                                         const groth16::ProofRandomness& rand,
                                         groth16::ProverTiming& t, const MemoryPlan& plan) {
  const auto t_start = SteadyClock::now();
  const pce::CompactWitness& w = *in.witness;
  const size_t rows = in.rows(), inputs = w.inputs.size(), aux = w.num_aux;
  const EvaluationDomain domain = EvaluationDomain::for_size(rows);
  const size_t n = domain.size();
  const bool recorded = in.circuit != nullptr;
  const bool device_spmv = recorded && plan.spmv_on_device;
  const cudaStream_t s = stream_->get();
  if (plan.chain_two_vectors && device_spmv)
    throw std::logic_error("gpu plan: a two-vector H chain needs a, b, c on the host");
  if (recorded && !device_spmv && options_.pool == nullptr)
    throw std::logic_error("gpu plan: the host SpMV needs the backend's thread pool");
  // Not in the plan: the single-MSM entry points' copies, vectors the plan leaves on the host,
  // and what a previous call that threw may have left of its later phases.
  d_scalars_.release();
  d_density_.release();
  if (!device_spmv) circuit_ = DeviceCircuit();
  ws_.release();
  streamer_.release_device();
  ntt_->release_tables();
  d_abc_[1].release();
  d_abc_[2].release();

  // Phase 1: a, b, c on the device (SpMV) or on the host (CPU SpMV, or given).
  Event start, uploaded, evaluated, quotient_done;
  start.record(s);
  bool w_on_device = false;
  const auto expand_witness = [&] {
    d_w_.reserve(inputs + aux);
    upload_witness(w, d_w_.get(), witness_scratch_, s);
    w_on_device = true;
  };
  const uint64_t* densities[3];
  std::vector<Fr> host_abc[3];
  std::span<const Fr> host[3] = {in.a, in.b, in.c};
  if (device_spmv) {
    expand_witness();
    for (DeviceBuffer<Fr>& v : d_abc_)
      v.reserve(n);
    if (circuit_.source != in.circuit->storage.get() || circuit_.rows != rows) {
      circuit_ = DeviceCircuit();
      circuit_.upload(*in.circuit, s);
    }
    uploaded.record(s);
    spmv(circuit_, d_w_.get(), d_abc_[0].get(), d_abc_[1].get(), d_abc_[2].get(), s);
    densities[0] = circuit_.a_aux_density.get();
    densities[1] = circuit_.b_input_density.get();
    densities[2] = circuit_.b_aux_density.get();
    const size_t bad =
        first_unsatisfied_row(d_abc_[0].get(), d_abc_[1].get(), d_abc_[2].get(), rows, d_flag_, s);
    if (bad != rows) throw unsatisfied(bad, *in.circuit);
  } else {
    if (recorded) {
      for (auto& v : host_abc)
        v.resize(rows);
      pce::evaluate(*in.circuit, w, host_abc[0], host_abc[1], host_abc[2], *options_.pool);
      if (const auto bad =
              pce::first_unsatisfied_row(host_abc[0], host_abc[1], host_abc[2], *options_.pool)) {
        throw unsatisfied(*bad, *in.circuit);
      }
      for (int k = 0; k < 3; ++k)
        host[k] = host_abc[k];
    }
    const DensityTracker* given[3] = {in.a_aux_density, in.b_input_density, in.b_aux_density};
    for (int k = 0; k < 3; ++k) {
      const std::vector<uint64_t>& words = given[k]->words();
      d_given_density_[k].reserve(std::max<size_t>(1, words.size()));
      d_given_density_[k].upload(words, s);
      densities[k] = d_given_density_[k].get();
    }
    uploaded.record(s);
  }
  evaluated.record(s);

  // Phase 2: the H chain; h ends in d_abc_[0].
  if (w_on_device && !plan.witness_during_chain) {
    d_w_.release();
    witness_scratch_ = WitnessScratch();
    w_on_device = false;
  }
  d_abc_[0].reserve(n);
  Fr* const d_a = d_abc_[0].get();
  if (!plan.chain_two_vectors) {
    for (int k = 0; k < 3; ++k) {
      d_abc_[k].reserve(n);
      if (!device_spmv) d_abc_[k].upload(host[k], s);
      d_abc_[k].zero(s, rows, n - rows);
    }
    quotient_in_place(d_abc_[0].get(), d_abc_[1].get(), d_abc_[2].get(), domain, *ntt_);
  } else {
    // c first, to its coset evaluations, parked on the host; then a and b; then a b - c in
    // ranges with c's range uploaded beside them.
    std::vector<Fr> c_coset(n);
    d_abc_[0].upload(host[2], s);
    d_abc_[0].zero(s, rows, n - rows);
    quotient_to_coset(d_a, domain, *ntt_);
    d_abc_[0].download(c_coset, s);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(s));  // c_coset complete before it is read back
    d_abc_[0].upload(host[0], s);
    d_abc_[0].zero(s, rows, n - rows);
    d_abc_[1].reserve(n);
    d_abc_[1].upload(host[1], s);
    d_abc_[1].zero(s, rows, n - rows);
    quotient_to_coset(d_a, domain, *ntt_);
    quotient_to_coset(d_abc_[1].get(), domain, *ntt_);
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
  d_abc_[1].release();
  d_abc_[2].release();
  ntt_->release_tables();

  // Phase 3: chunked MSMs, the largest sections' bases streamed.
  if (!w_on_device) expand_witness();
  const size_t chunk = plan.chunk_scalars;
  size_t slot = 0;  // a chunk's bases of the widest streamed curve
  for (const SectionPlan& sec : plan.sections) {
    if (!sec.resident)
      slot = std::max(slot, chunk * (sec.name == "b_g2" ? sizeof(G2Affine) : sizeof(G1Affine)));
  }
  if (slot != 0) streamer_.reserve(slot);
  const Fr* const d_inputs = d_w_.get();
  const Fr* const d_aux = d_w_.get() + inputs;
  const size_t b_inputs = in.b_input_density->popcount();
  const std::span<const G1Affine> a_bases(params.a), b1_bases(params.b_g1);
  const std::span<const G2Affine> b2_bases(params.b_g2);
  const bool rh = plan.resident("h"), rl = plan.resident("l"), ra = plan.resident("a");
  const bool rb1 = plan.resident("b_g1"), rb2 = plan.resident("b_g2");
  BaseStreamer& st = streamer_;
  MsmStats* const stats = &last_msm_;
  groth16::MsmSums sums;
  auto t0 = SteadyClock::now();
  sums.h = chunked_msm<G1Curve>(st, g1_bases_, rh, std::span<const G1Affine>(params.h), d_a, n - 1,
                                nullptr, nullptr, chunk, ws_, s, stats);
  t.msm_h_s = seconds_since(t0);
  t0 = SteadyClock::now();
  sums.l = chunked_msm<G1Curve>(st, g1_bases_, rl, std::span<const G1Affine>(params.l), d_aux, aux,
                                nullptr, nullptr, chunk, ws_, s, stats);
  t.msm_l_s = seconds_since(t0);
  t0 = SteadyClock::now();
  sums.a = chunked_msm<G1Curve>(st, g1_bases_, ra, a_bases.first(inputs), d_inputs, inputs, nullptr,
                                nullptr, chunk, ws_, s, stats) +
           chunked_msm<G1Curve>(st, g1_bases_, ra, a_bases.subspan(inputs), d_aux, aux,
                                in.a_aux_density, densities[0], chunk, ws_, s, stats);
  t.msm_a_s = seconds_since(t0);
  t0 = SteadyClock::now();
  sums.b_g1 = chunked_msm<G1Curve>(st, g1_bases_, rb1, b1_bases.first(b_inputs), d_inputs, inputs,
                                   in.b_input_density, densities[1], chunk, ws_, s, stats) +
              chunked_msm<G1Curve>(st, g1_bases_, rb1, b1_bases.subspan(b_inputs), d_aux, aux,
                                   in.b_aux_density, densities[2], chunk, ws_, s, stats);
  t.msm_b_g1_s = seconds_since(t0);
  t0 = SteadyClock::now();
  sums.b_g2 = chunked_msm<G2Curve>(st, g2_bases_, rb2, b2_bases.first(b_inputs), d_inputs, inputs,
                                   in.b_input_density, densities[1], chunk, ws_, s, stats) +
              chunked_msm<G2Curve>(st, g2_bases_, rb2, b2_bases.subspan(b_inputs), d_aux, aux,
                                   in.b_aux_density, densities[2], chunk, ws_, s, stats);
  t.msm_b_g2_s = seconds_since(t0);
  // What the next partition's first phases do not count on (memory_plan.cpp).
  ws_.release();
  streamer_.release_device();
  if (!device_spmv) {
    d_w_.release();
    witness_scratch_ = WitnessScratch();
  }
  t0 = SteadyClock::now();
  const groth16::Proof proof = groth16::assemble_proof(params.vk, sums, rand);
  t.assemble_s = seconds_since(t0);
  t.total_s = t.synthesis_s + seconds_since(t_start);
  return proof;
}

}  // namespace cuzk::gpu
