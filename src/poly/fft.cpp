#include "poly/fft.hpp"

#include <stdexcept>
#include <string>

#include "poly/fft_kernels.hpp"

namespace cuzk {

namespace {

void check_size(std::span<Fr> values, const EvaluationDomain& domain, const char* what) {
  if (values.size() != domain.size()) {
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(values.size()) +
                                " values for a domain of size " + std::to_string(domain.size()));
  }
}

}  // namespace

void fft(std::span<Fr> values, const EvaluationDomain& domain, ThreadPool& pool) {
  check_size(values, domain, "fft");
  const auto tw = fft_detail::twiddle_table(domain.omega(), domain.size(), pool);
  fft_detail::dft_natural_to_bitrev(values, tw, pool);
  fft_detail::bit_reverse(values, pool);
}

void ifft(std::span<Fr> values, const EvaluationDomain& domain, ThreadPool& pool) {
  check_size(values, domain, "ifft");
  const auto tw = fft_detail::twiddle_table(domain.omega_inv(), domain.size(), pool);
  fft_detail::dft_natural_to_bitrev(values, tw, pool);
  fft_detail::bit_reverse(values, pool);
  fft_detail::scale(values, domain.n_inv(), pool);
}

void coset_fft(std::span<Fr> values, const EvaluationDomain& domain, ThreadPool& pool) {
  check_size(values, domain, "coset_fft");
  distribute_powers(values, domain.g(), pool);
  fft(values, domain, pool);
}

void icoset_fft(std::span<Fr> values, const EvaluationDomain& domain, ThreadPool& pool) {
  check_size(values, domain, "icoset_fft");
  const auto tw = fft_detail::twiddle_table(domain.omega_inv(), domain.size(), pool);
  fft_detail::dft_natural_to_bitrev(values, tw, pool);
  fft_detail::bit_reverse(values, pool);
  // 1/n and g^-i in one pass: values[i] *= n^-1 g^-i.
  fft_detail::distribute_powers(values, domain.g_inv(), domain.n_inv(), pool);
}

void distribute_powers(std::span<Fr> values, const Fr& g, ThreadPool& pool) {
  fft_detail::distribute_powers(values, g, Fr::one(), pool);
}

}  // namespace cuzk
