// The BLS12-381 fields on the device: Fr and Fp as Mont32 instances, and Fp2 = Fp[u] / (u^2 + 1)
// over them with the host Fp2's formulas (Karatsuba product, complex squaring), so values and
// bytes agree with ff/fp2.hpp.
#pragma once

#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "gpu/mont32.cuh"

namespace cuzk::gpu {

using FrD = Mont32<Fr>;
// Fp products are out of line: the curve kernels hold whole points in registers, and one called
// copy of the product leaves ptxas room that inlined copies take (G1 MSM 2^26 965 -> 860 ms, G2
// 2^24 1142 -> 883 ms and no more spills in the G2 accumulation, H200 2026-11-30). Fr products
// (NTT butterflies, scalings) stay inline.
using FpD = Mont32<Fp, true>;

struct Fp2D {
  FpD c0, c1;

  CUZK_GPU_FI static Fp2D zero() { return {FpD::zero(), FpD::zero()}; }
  CUZK_GPU_FI static Fp2D one() { return {FpD::one(), FpD::zero()}; }
  CUZK_GPU_FI bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_GPU_FI bool operator==(const Fp2D& o) const { return c0 == o.c0 && c1 == o.c1; }
  CUZK_GPU_FI bool operator!=(const Fp2D& o) const { return !(*this == o); }

  CUZK_GPU_FI Fp2D operator+(const Fp2D& o) const { return {c0 + o.c0, c1 + o.c1}; }
  CUZK_GPU_FI Fp2D operator-(const Fp2D& o) const { return {c0 - o.c0, c1 - o.c1}; }
  CUZK_GPU_FI Fp2D operator-() const { return {-c0, -c1}; }
  // Karatsuba: 3 Fp products.
  CUZK_GPU_FI Fp2D operator*(const Fp2D& o) const {
    const FpD t0 = c0 * o.c0;
    const FpD t1 = c1 * o.c1;
    return {t0 - t1, (c0 + c1) * (o.c0 + o.c1) - t0 - t1};
  }
  CUZK_GPU_FI Fp2D& operator+=(const Fp2D& o) { return *this = *this + o; }
  CUZK_GPU_FI Fp2D& operator-=(const Fp2D& o) { return *this = *this - o; }
  CUZK_GPU_FI Fp2D& operator*=(const Fp2D& o) { return *this = *this * o; }
  CUZK_GPU_FI Fp2D dbl() const { return {c0.dbl(), c1.dbl()}; }
  // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u: 2 Fp products.
  CUZK_GPU_FI Fp2D sqr() const {
    const FpD t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t.dbl()};
  }
};

static_assert(sizeof(FrD) == sizeof(Fr) && alignof(FrD) == alignof(Fr));
static_assert(sizeof(FpD) == sizeof(Fp) && alignof(FpD) == alignof(Fp));
static_assert(sizeof(Fp2D) == sizeof(Fp2) && alignof(Fp2D) == alignof(Fp2));

}  // namespace cuzk::gpu
