#include <chrono>
#include <string>

#include "groth16/backend.hpp"
#include "groth16/point_source.hpp"
#include "msm/msm.hpp"
#include "pce/spmv.hpp"
#include "poly/fft.hpp"

namespace cuzk::groth16 {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

MsmSums CpuBackend::prove_front(const Parameters& params, const PartitionInput& in,
                                ProverTiming* timing) {
  ProverTiming local;
  ProverTiming& t = timing != nullptr ? *timing : local;
  require_host_points(params, "cpu");
  check_partition_fits(params, in);
  const pce::CompactWitness& w = *in.witness;
  const size_t rows = in.rows();
  const EvaluationDomain domain = EvaluationDomain::for_size(rows);

  // a, b, c with room for the domain (the quotient pads them in place).
  std::vector<Fr> a, b, c;
  for (std::vector<Fr>* v : {&a, &b, &c})
    v->reserve(domain.size());
  auto t0 = Clock::now();
  if (in.circuit != nullptr) {
    a.resize(rows);
    b.resize(rows);
    c.resize(rows);
    pce::evaluate(*in.circuit, w, a, b, c, pool_);
    if (const auto bad = pce::first_unsatisfied_row(a, b, c, pool_)) {
      throw pce::unsatisfied_row_error(*bad, *in.circuit);
    }
    t.spmv_s = since(t0);
  } else {
    a.assign(in.a.begin(), in.a.end());
    b.assign(in.b.begin(), in.b.end());
    c.assign(in.c.begin(), in.c.end());
  }
  t0 = Clock::now();
  const std::vector<Fr> h =
      cuzk::groth16_quotient(std::move(a), std::move(b), std::move(c), domain, pool_, &t.quotient);
  t.quotient_s = since(t0);

  const std::span<const Fr> inputs = w.inputs;
  const size_t b_inputs = in.b_input_density->popcount();
  MsmSums sums;
  t0 = Clock::now();
  sums.h = msm_g1(params.h, h);
  t.msm_h_s = since(t0);
  sums.l = G1Jacobian::identity();
  t0 = Clock::now();
  sums.a = msm_g1(std::span<const G1Affine>(params.a).first(inputs.size()), inputs);
  t.msm_a_s = since(t0);
  t0 = Clock::now();
  sums.b_g1 =
      msm_g1(std::span<const G1Affine>(params.b_g1).first(b_inputs), *in.b_input_density, inputs);
  t.msm_b_g1_s = since(t0);
  t0 = Clock::now();
  sums.b_g2 =
      msm_g2(std::span<const G2Affine>(params.b_g2).first(b_inputs), *in.b_input_density, inputs);
  t.msm_b_g2_s = since(t0);
  return sums;
}

void CpuBackend::aux_msm(const Parameters& params, AuxSection section,
                         std::span<const PartitionInput> inputs, std::span<MsmSums> sums,
                         std::span<ProverTiming> timings) {
  require_host_points(params, "cpu");
  check_batch_fits(params, inputs, sums.size(), timings.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto t0 = Clock::now();
    const std::vector<Fr> aux = inputs[i].witness->expand_aux();
    const AuxSectionBases bases = aux_section_bases(params, section, inputs[i]);
    G1Jacobian g1 = G1Jacobian::identity();
    G2Jacobian g2 = G2Jacobian::identity();
    if (section == AuxSection::kBG2) {
      g2 = msm_g2(bases.g2, *bases.density, aux);
    } else if (bases.density != nullptr) {
      g1 = msm_g1(bases.g1, *bases.density, aux);
    } else {
      g1 = msm_g1(bases.g1, aux);
    }
    add_aux_sum(sums[i], section, g1, g2);
    aux_section_seconds(timings[i], section) += since(t0);
  }
}

Proof CpuBackend::prove(const Parameters& params, const PartitionInput& in,
                        const ProofRandomness& rand, ProverTiming* timing) {
  const auto t_start = Clock::now();
  ProverTiming local;
  ProverTiming& t = timing != nullptr ? *timing : local;
  require_host_points(params, "cpu");
  MsmSums sums = prove_front(params, in, &t);
  for (const AuxSection section : kAuxSections)
    aux_msm(params, section, {&in, 1}, {&sums, 1}, {&t, 1});
  const auto t0 = Clock::now();
  // The same four lines end GpuBackend::prove: assembly timed, then the total.
  const Proof proof = assemble_proof(params.vk, sums, rand);
  t.assemble_s = since(t0);
  t.total_s = t.synthesis_s + since(t_start);
  return proof;
}
std::vector<Fr> CpuBackend::coset_ab_minus_c(std::vector<Fr> a, std::vector<Fr> b,
                                             std::vector<Fr> c, const EvaluationDomain& domain,
                                             QuotientTiming* timing) {
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
