// Reference multi-scalar multiplication: sum_i scalars[i] * points[i], one scalar
// multiplication at a time. The oracle for the Pippenger and GPU MSMs of later layers.
#pragma once

#include <span>
#include <stdexcept>

#include "ec/scalar_mul.hpp"

namespace cuzk {

template <class Curve, size_t N>
Jacobian<Curve> msm_naive(std::span<const Affine<Curve>> points,
                          std::span<const BigInt<N>> scalars) {
  if (points.size() != scalars.size()) throw std::invalid_argument("msm_naive: size mismatch");
  Jacobian<Curve> acc;
  for (size_t i = 0; i < points.size(); ++i) {
    acc += scalar_mul_wnaf(Jacobian<Curve>::from_affine(points[i]), scalars[i]);
  }
  return acc;
}

}  // namespace cuzk
