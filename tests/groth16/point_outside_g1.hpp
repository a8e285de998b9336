// A point on y^2 = x^3 + 4 outside the order-r subgroup (the cofactor is ~2^126: the first x
// with a square root gives one), for the tests of the readers' subgroup checks.
#pragma once

#include <cstdint>

#include "ec/g1.hpp"

namespace cuzk::testing {

inline G1Affine point_outside_g1() {
  for (uint64_t x = 1;; ++x) {
    const Fp fx = Fp::from_u64(x);
    if (const auto y = (fx.sqr() * fx + Fp::from_u64(4)).sqrt()) {
      const G1Affine p = G1Affine::from_xy(fx, *y);
      if (p.is_on_curve() && !g1_is_in_subgroup(p)) return p;
    }
  }
}

}  // namespace cuzk::testing
