// The edge values the device field tests cross with themselves and with randoms (Mont32's and
// MontF64's twins alike): no CUDA here, so the host-only tests include it too.
#pragma once

#include <cstdint>
#include <vector>

#include "ff/bigint.hpp"

namespace cuzk::gpu::testing {

// The edge table for field tests: 0, 1, 2, p - 1, R, R^2, values at 32- and 64-bit limb
// boundaries.
template <class F>
std::vector<F> edge_values() {
  std::vector<F> v = {F::zero(), F::one(), F::from_u64(2), -F::one(), -F::from_u64(2),
                      F::from_mont(F::kR), F::from_mont(F::kR2),
                      // The largest and smallest Montgomery limbs: the carry chains' extremes.
                      F::from_mont(sub_u64(F::kModulus, 1)), F::from_mont(typename F::Int{{1}})};
  for (unsigned bit : {31u, 32u, 63u, 64u, 127u, 128u, 191u, 192u}) {
    typename F::Int x;
    x.w[bit / 64] = uint64_t{1} << (bit % 64);
    if (const auto f = F::from_canonical(x)) v.push_back(*f);
    if (const auto f = F::from_canonical(sub_u64(x, 1))) v.push_back(*f);
  }
  return v;
}

}  // namespace cuzk::gpu::testing
