#include "gpu/ntt/quotient.hpp"

#include <stdexcept>
#include <string>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/ntt/ntt_launch.hpp"

namespace cuzk::gpu {

namespace {

// Events between the steps, for QuotientTiming (null: untimed).
struct StepEvents {
  Event ifft, coset, pointwise;
};

// Each vector: DIF with omega^-1 (natural evaluations -> n x coefficients, bit-reversed), then
// DIT with omega (bit-reversed -> natural coset evaluations) whose first pass multiplies
// coefficient k by g^k / n as it loads it; the product a b - c; DIF with omega^-1 back, times
// g^-k / (n Z(g)) (the division by Z(g) = g^n - 1 folded in) within the one permutation pass.
// (The load scaling in the DIT instead of a pass of its own: 2^27 chain 368.5 -> 362.4 ms.)
void run_chain(Fr* d_a, Fr* d_b, Fr* d_c, const EvaluationDomain& domain, NttEngine& ntt,
               StepEvents* ev) {
  const size_t log_n = domain.log_size();
  Fr* vs[3] = {d_a, d_b, d_c};
  for (Fr* v : vs)
    ntt.dif(v, log_n, domain.omega_inv());
  if (ev != nullptr) ev->ifft.record(ntt.stream());
  for (Fr* v : vs)
    ntt.dit_scaled(v, log_n, domain.omega(), domain.g(), domain.n_inv());
  if (ev != nullptr) ev->coset.record(ntt.stream());
  ntt_detail::launch_ab_minus_c(d_a, d_b, d_c, domain.size(), ntt.stream());
  if (ev != nullptr) ev->pointwise.record(ntt.stream());
  ntt.dif(d_a, log_n, domain.omega_inv());
  ntt.bit_reverse_scaled(d_a, log_n, domain.g_inv(), domain.n_inv() * domain.z_on_coset().inv());
}

}  // namespace

void quotient_in_place(Fr* d_a, Fr* d_b, Fr* d_c, const EvaluationDomain& domain, NttEngine& ntt) {
  run_chain(d_a, d_b, d_c, domain, ntt, nullptr);
}

void quotient_to_coset(std::span<Fr* const> vs, const EvaluationDomain& domain, NttEngine& ntt) {
  for (Fr* v : vs)
    ntt.dif(v, domain.log_size(), domain.omega_inv());
  for (Fr* v : vs)
    ntt.dit_scaled(v, domain.log_size(), domain.omega(), domain.g(), domain.n_inv());
}

void quotient_from_coset(Fr* d_a, const EvaluationDomain& domain, NttEngine& ntt) {
  ntt.dif(d_a, domain.log_size(), domain.omega_inv());
  ntt.bit_reverse_scaled(d_a, domain.log_size(), domain.g_inv(),
                         domain.n_inv() * domain.z_on_coset().inv());
}

std::vector<Fr> groth16_quotient(std::span<const Fr> a, std::span<const Fr> b,
                                 std::span<const Fr> c, const EvaluationDomain& domain,
                                 NttEngine& ntt, QuotientTiming* timing) {
  const size_t n = domain.size();
  if (a.size() != b.size() || a.size() != c.size() || a.size() > n) {
    throw std::invalid_argument("gpu quotient: a, b, c have sizes " + std::to_string(a.size()) +
                                ", " + std::to_string(b.size()) + ", " + std::to_string(c.size()) +
                                "; they must be equal and at most the domain size " +
                                std::to_string(n));
  }
  const cudaStream_t s = ntt.stream();
  Event start, done;
  StepEvents ev;
  start.record(s);
  DeviceBuffer<Fr> d_a(n), d_b(n), d_c(n);
  d_a.upload(a, s);
  d_b.upload(b, s);
  d_c.upload(c, s);
  for (DeviceBuffer<Fr>* v : {&d_a, &d_b, &d_c})
    v->zero(s, a.size());
  run_chain(d_a.get(), d_b.get(), d_c.get(), domain, ntt, &ev);
  std::vector<Fr> h(n - 1);
  d_a.download(h, s);
  done.record(s);
  done.sync();
  if (timing != nullptr) {
    timing->ifft_s = ev.ifft.ms_since(start) / 1e3;
    timing->coset_fft_s = ev.coset.ms_since(ev.ifft) / 1e3;
    timing->pointwise_s = ev.pointwise.ms_since(ev.coset) / 1e3;
    timing->icoset_s = done.ms_since(ev.pointwise) / 1e3;
  }
  return h;
}

std::vector<Fr> coset_ab_minus_c(std::span<const Fr> a, std::span<const Fr> b,
                                 std::span<const Fr> c, const EvaluationDomain& domain,
                                 NttEngine& ntt, QuotientTiming* timing) {
  const size_t n = domain.size();
  if (a.size() != n || b.size() != n || c.size() != n) {
    throw std::invalid_argument("gpu coset_ab_minus_c: a, b, c must each hold the domain size " +
                                std::to_string(n) + " of values");
  }
  const cudaStream_t s = ntt.stream();
  Event start, coset, done;
  start.record(s);
  DeviceBuffer<Fr> d_a(n), d_b(n), d_c(n);
  d_a.upload(a, s);
  d_b.upload(b, s);
  d_c.upload(c, s);
  for (DeviceBuffer<Fr>* v : {&d_a, &d_b, &d_c}) {
    ntt.ifft(v->get(), domain);
    ntt.coset_fft(v->get(), domain);
  }
  coset.record(s);
  ntt_detail::launch_ab_minus_c(d_a.get(), d_b.get(), d_c.get(), n, s);
  std::vector<Fr> h(n);
  d_a.download(h, s);
  done.record(s);
  done.sync();
  if (timing != nullptr) {
    timing->coset_fft_s = coset.ms_since(start) / 1e3;  // uploads, iNTTs and coset NTTs
    timing->pointwise_s = done.ms_since(coset) / 1e3;   // product and download
  }
  return h;
}

}  // namespace cuzk::gpu
