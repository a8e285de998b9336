#include "poly/evaluation_domain.hpp"

#include <stdexcept>
#include <string>

namespace cuzk {

namespace {

Fr pow2_power(Fr x, size_t doublings) {
  for (size_t i = 0; i < doublings; ++i)
    x = x.sqr();
  return x;
}

size_t log2_ceil_checked(size_t count) {
  size_t k = 0;
  while ((size_t{1} << k) < count) {
    if (++k > EvaluationDomain::kMaxLogSize) {
      throw std::invalid_argument("EvaluationDomain: " + std::to_string(count) +
                                  " elements need a domain larger than 2^" +
                                  std::to_string(EvaluationDomain::kMaxLogSize));
    }
  }
  return k;
}

}  // namespace

EvaluationDomain::EvaluationDomain(size_t log_size) : EvaluationDomain(log_size, kFrTwoAdicRoot) {}

EvaluationDomain::EvaluationDomain(size_t log_size, const Fr& two_adic_root,
                                   const Fr& coset_shift) {
  if (log_size > kMaxLogSize) {
    throw std::invalid_argument("EvaluationDomain: size 2^" + std::to_string(log_size) +
                                " exceeds the maximum 2^" + std::to_string(kMaxLogSize));
  }
  // Order exactly 2^32: the 2^31-th power is -1 (then the 2^32-th is 1).
  if (pow2_power(two_adic_root, Fr::kTwoAdicity - 1) != -Fr::one()) {
    throw std::invalid_argument("EvaluationDomain: root " + two_adic_root.to_hex() +
                                " does not have order 2^32");
  }
  log_size_ = log_size;
  size_ = size_t{1} << log_size;
  omega_ = pow2_power(two_adic_root, Fr::kTwoAdicity - log_size);
  omega_inv_ = omega_.inv();
  n_inv_ = Fr::from_u64(size_).inv();
  g_ = coset_shift;
  if (g_.is_zero()) throw std::invalid_argument("EvaluationDomain: coset shift is zero");
  g_inv_ = g_.inv();
  z_on_coset_ = evaluate_vanishing(g_);
  // g in <omega> would make the coset the subgroup itself, where Z vanishes.
  if (z_on_coset_.is_zero()) {
    throw std::invalid_argument("EvaluationDomain: coset shift " + g_.to_hex() +
                                " lies in the subgroup");
  }
}

EvaluationDomain EvaluationDomain::for_size(size_t count) {
  return EvaluationDomain(log2_ceil_checked(count));
}

EvaluationDomain EvaluationDomain::for_size(size_t count, const Fr& two_adic_root,
                                            const Fr& coset_shift) {
  return EvaluationDomain(log2_ceil_checked(count), two_adic_root, coset_shift);
}

Fr EvaluationDomain::evaluate_vanishing(const Fr& x) const {
  return pow2_power(x, log_size_) - Fr::one();
}

}  // namespace cuzk
