// The Groth16 quotient polynomial h = (a b - c) / Z, the same field elements bellperson computes
// by the same steps: the constraint evaluations a, b, c over the domain are interpolated (ifft),
// evaluated on the coset g<omega> (where Z(x) = x^n - 1 is the non-zero constant g^n - 1),
// combined pointwise, and interpolated back (icoset_fft). Internally the scalings are fused and
// the coset evaluations stay in bit-reversed order; h is unique, so the result is identical.
#pragma once

#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "poly/evaluation_domain.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

// Wall-clock seconds of each step (each over all three vectors where it runs three times),
// twiddle tables and permutations included.
struct QuotientTiming {
  double ifft_s = 0;       // a, b, c: evaluations -> coefficients
  double coset_fft_s = 0;  // a, b, c: coefficients -> coset evaluations (1/n scaling included)
  double pointwise_s = 0;  // a b - c
  double icoset_s = 0;     // coset evaluations -> coefficients of h (1/Z(g) scaling included)
};

// values[i] /= Z(g omega^i) = g^n - 1 on coset evaluations. Throws std::invalid_argument unless
// values.size() == domain.size().
void divide_by_z_on_coset(std::span<Fr> values, const EvaluationDomain& domain, ThreadPool& pool);

// All n coefficients of the polynomial that agrees with (a b - c) / Z on the coset. a, b and c
// hold the evaluations on the first a.size() (<= n) points of the domain and are zero-padded to
// n. When a b - c vanishes on the domain, this is h itself, of degree <= n - 2, so the top
// coefficient is zero; a non-zero top coefficient reveals an unsatisfied system. Throws
// std::invalid_argument unless a, b, c have equal sizes <= domain.size(). Vectors with capacity
// n are padded without reallocating. Extra memory: one n/2-entry twiddle table at a time.
std::vector<Fr> quotient_coefficients(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c,
                                      const EvaluationDomain& domain, ThreadPool& pool,
                                      QuotientTiming* timing = nullptr);

// The n - 1 coefficients of h that the Groth16 prover commits to (bellperson drops the top one).
std::vector<Fr> groth16_quotient(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c,
                                 const EvaluationDomain& domain, ThreadPool& pool,
                                 QuotientTiming* timing = nullptr);

}  // namespace cuzk
