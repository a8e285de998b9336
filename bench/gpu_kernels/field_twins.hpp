// Kernels that run the device field and curve arithmetic on host-supplied values, so tests can
// compare them byte for byte with the host twins (ff/, ec/). Each call synchronises.
#pragma once

#include <span>
#include <vector>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"

namespace cuzk::gpu::twins {

// For each i: out[4i..4i+3] = a+b, a-b, a*b, a^2 computed on the device. F: Fr, Fp or Fp2.
template <class F>
std::vector<F> field_ops(std::span<const F> a, std::span<const F> b);

// The same four results from MontF64 (gpu/arith/mont_f64.cuh, FP64 products), then a*b again by
// MontF64::mul_karatsuba: out[5i..5i+4]. Each kernel converts its operands from and its results
// to the integer form (Mont32's, the host's bytes) with one product each. F: Fr or Fp.
template <class F>
std::vector<F> field_ops_f64(std::span<const F> a, std::span<const F> b);

// For each i, with P = p[i], Q = q[i] as XYZZ points on the device: out[4i..4i+3] =
// P + Q (XYZZ + XYZZ), P + Q (mixed, Q affine), 2P, P - Q (mixed with -Q).
template <class Curve>
std::vector<Xyzz<Curve>> point_ops(std::span<const Affine<Curve>> p,
                                   std::span<const Affine<Curve>> q);

}  // namespace cuzk::gpu::twins
