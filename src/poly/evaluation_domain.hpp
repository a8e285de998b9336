// EvaluationDomain: the radix-2 subgroup <omega> of Fr^* of size n = 2^k (0 <= k <= 28) plus the
// coset g<omega> on which Groth16 divides by the vanishing polynomial Z(x) = x^n - 1.
//
// omega = root^(2^(32 - k)) for a root of order exactly 2^32 (Fr's 2-adicity). The default root is
// 7^t (r - 1 = 2^32 t), the bellman/bellperson/blstrs convention; snarkjs domains use 5^t instead
// (see snarkjs_two_adic_root()). The coset shift g defaults to 7, as in bellman.
#pragma once

#include <cstddef>

#include "ff/fr.hpp"

namespace cuzk {

class EvaluationDomain {
 public:
  // 2^28 is the largest domain a Filecoin circuit needs (PoRep 32 GiB is ~2^27 constraints).
  static constexpr size_t kMaxLogSize = 28;

  // The domain of size 2^log_size with the bellperson root and coset shift 7.
  // Throws std::invalid_argument when log_size > kMaxLogSize.
  explicit EvaluationDomain(size_t log_size);
  // The same with another root of order exactly 2^32 and another coset shift (neither zero nor in
  // the subgroup, which would make Z vanish on the coset). Throws std::invalid_argument otherwise.
  EvaluationDomain(size_t log_size, const Fr& two_adic_root,
                   const Fr& coset_shift = Fr::from_u64(FrParams::kGenerator));

  // The smallest domain holding `count` evaluations (size = next power of two, at least 1), as
  // bellperson's EvaluationDomain::from_coeffs. Throws std::invalid_argument when count > 2^28.
  static EvaluationDomain for_size(size_t count);
  static EvaluationDomain for_size(size_t count, const Fr& two_adic_root,
                                   const Fr& coset_shift = Fr::from_u64(FrParams::kGenerator));

  size_t size() const { return size_; }
  size_t log_size() const { return log_size_; }
  const Fr& omega() const { return omega_; }          // generator of the subgroup
  const Fr& omega_inv() const { return omega_inv_; }  // omega^-1
  const Fr& n_inv() const { return n_inv_; }          // 1 / n, the ifft scaling
  const Fr& g() const { return g_; }                  // coset shift
  const Fr& g_inv() const { return g_inv_; }          // 1 / g
  // Z(g omega^i) = g^n - 1: the vanishing polynomial is constant on the coset.
  const Fr& z_on_coset() const { return z_on_coset_; }

  // Z(x) = x^n - 1 at any point.
  Fr evaluate_vanishing(const Fr& x) const;

 private:
  size_t size_ = 1;
  size_t log_size_ = 0;
  Fr omega_, omega_inv_, n_inv_, g_, g_inv_, z_on_coset_;
};

// The order-2^32 root that ffjavascript/snarkjs build their domains from: 5^t with r - 1 = 2^32 t.
inline Fr snarkjs_two_adic_root() {
  return Fr::from_u64(5).pow(Fr::kOddPart);
}

}  // namespace cuzk
