// The radix-2 butterfly core (a, b) -> (a + b, a - b) on Fr with branch-free modular corrections.
// Fr's operator+ and operator- correct by a data-dependent branch, which mispredicts about half of
// the time on transform data (random residues); masks cost a few instructions instead. Measured
// in cache with the product w y, one core: 27-28 ns -> 17-19 ns per butterfly
// (BM_ButterflyThroughput vs BM_ButterflyThroughputBranchFree; the product alone is 11 ns).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/fr.hpp"

namespace cuzk::fft_detail {

// sum = a + b, diff = a - b. The outputs may alias the inputs.
inline void add_sub(const Fr& a, const Fr& b, Fr& sum, Fr& diff) {
  using Int = Fr::Int;
  const Int x = a.mont(), y = b.mont();
  Int s, s_minus_p, d, p_if_wrapped;
  add_with_carry(s, x, y);  // < 2p < 2^256: no carry out
  const uint64_t s_small = 0 - sub_with_borrow(s_minus_p, s, Fr::kModulus);  // all ones if s < p
  const uint64_t wrapped = 0 - sub_with_borrow(d, x, y);                     // all ones if x < y
  for (size_t i = 0; i < Fr::kLimbs; ++i) {
    p_if_wrapped.w[i] = Fr::kModulus.w[i] & wrapped;
    s.w[i] = (s.w[i] & s_small) | (s_minus_p.w[i] & ~s_small);
  }
  add_with_carry(d, d, p_if_wrapped);
  sum = Fr::from_mont(s);
  diff = Fr::from_mont(d);
}

}  // namespace cuzk::fft_detail
