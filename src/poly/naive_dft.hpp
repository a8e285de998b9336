// The O(n^2) reference twin of fft.hpp: evaluates a polynomial at every power of a root by
// Horner's rule. Evidently correct and slow; the tests compare the fast transforms with it.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk {

// sum_j coeffs[j] x^j.
inline Fr evaluate_polynomial(std::span<const Fr> coeffs, const Fr& x) {
  Fr acc;
  for (size_t j = coeffs.size(); j-- > 0;)
    acc = acc * x + coeffs[j];
  return acc;
}

// out[i] = sum_j coeffs[j] (shift root^i)^j for i in [0, coeffs.size()).
inline std::vector<Fr> naive_dft(std::span<const Fr> coeffs, const Fr& root,
                                 const Fr& shift = Fr::one()) {
  std::vector<Fr> out(coeffs.size());
  Fr x = shift;
  for (size_t i = 0; i < out.size(); ++i, x *= root)
    out[i] = evaluate_polynomial(coeffs, x);
  return out;
}

}  // namespace cuzk
