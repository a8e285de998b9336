// G1 and G2 on the device: the ec/ point templates (Affine, Jacobian, Xyzz) instantiated over the
// device fields, so every curve formula has one definition for host and device (the templates
// are constexpr; kernels call them through nvcc's --expt-relaxed-constexpr).
//
// The storage layouts equal the host ones byte for byte (asserted below): host arrays of
// G1Affine/G2Affine are copied to the device unchanged and device Xyzz sums come back as host
// Xyzz values.
#pragma once

#include <cstddef>

#include "ec/affine.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ec/jacobian.hpp"
#include "ec/xyzz.hpp"
#include "gpu/arith/fields.cuh"

namespace cuzk::gpu {

struct G1CurveD {
  using Field = FpD;
  using Host = G1Curve;
};
struct G2CurveD {
  using Field = Fp2D;
  using Host = G2Curve;
};

template <class HostCurve>
struct DeviceCurveOf;
template <>
struct DeviceCurveOf<G1Curve> {
  using type = G1CurveD;
};
template <>
struct DeviceCurveOf<G2Curve> {
  using type = G2CurveD;
};

template <class CurveD>
constexpr bool layouts_match() {
  using H = typename CurveD::Host;
  return sizeof(Affine<CurveD>) == sizeof(Affine<H>) &&
         sizeof(Affine<CurveD>) == 2 * sizeof(typename CurveD::Field) &&
         offsetof(Affine<CurveD>, y) == offsetof(Affine<H>, y) &&
         sizeof(Xyzz<CurveD>) == sizeof(Xyzz<H>) && sizeof(Jacobian<CurveD>) == sizeof(Jacobian<H>);
}
static_assert(layouts_match<G1CurveD>());
static_assert(layouts_match<G2CurveD>());

}  // namespace cuzk::gpu
