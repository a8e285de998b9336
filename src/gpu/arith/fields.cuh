// The BLS12-381 fields on the device: Fr and Fp as Mont32 instances, and Fp2 = Fp[u] / (u^2 + 1)
// over them with the host Fp2's formulas (Karatsuba product, complex squaring), so values and
// bytes agree with ff/fp2.hpp.
#pragma once

#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "gpu/arith/mont32.cuh"

namespace cuzk::gpu {

using FrD = Mont32<Fr>;
using FpD = Mont32<Fp>;

struct Fp2D {
  FpD c0, c1;

  CUZK_GPU_FI static Fp2D zero() { return {FpD::zero(), FpD::zero()}; }
  CUZK_GPU_FI static Fp2D one() { return {FpD::one(), FpD::zero()}; }
  CUZK_GPU_FI static Fp2D with_spare_bit() { return {FpD::with_spare_bit(), FpD::zero()}; }
  CUZK_GPU_FI bool spare_bit() const { return c0.spare_bit(); }
  CUZK_GPU_FI bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_GPU_FI bool operator==(const Fp2D& o) const { return c0 == o.c0 && c1 == o.c1; }
  CUZK_GPU_FI bool operator!=(const Fp2D& o) const { return !(*this == o); }

  CUZK_GPU_FI Fp2D operator+(const Fp2D& o) const { return {c0 + o.c0, c1 + o.c1}; }
  CUZK_GPU_FI Fp2D operator-(const Fp2D& o) const { return {c0 - o.c0, c1 - o.c1}; }
  CUZK_GPU_FI Fp2D operator-() const { return {-c0, -c1}; }
  CUZK_GPU_FI Fp2D operator*(const Fp2D& o) const { return mul_outline(*this, o); }
  CUZK_GPU_FI Fp2D& operator+=(const Fp2D& o) { return *this = *this + o; }
  CUZK_GPU_FI Fp2D& operator-=(const Fp2D& o) { return *this = *this - o; }
  CUZK_GPU_FI Fp2D& operator*=(const Fp2D& o) { return *this = *this * o; }
  CUZK_GPU_FI Fp2D dbl() const { return {c0.dbl(), c1.dbl()}; }
  CUZK_GPU_FI Fp2D sqr() const { return sqr_outline(*this); }

  // Products and squares are calls to one copy each, with their Fp products inlined there, so
  // that ptxas interleaves the carry chains of the independent products while the G2 kernels,
  // which hold whole points of Fp2 coordinates, keep their registers: G2 XYZZ + affine 4.73e8 ->
  // 8.05e8/s, MSM G2 2^24 694 -> 431 ms against Fp products called one by one; fully inlined
  // G2 code spilled (H200, 2026-11-30).
  // Karatsuba: 3 Fp products.
  CUZK_GPU_FI static Fp2D mul_inline(const Fp2D& a, const Fp2D& b) {
    const FpD a0 = copy(a.c0), a1 = copy(a.c1), b0 = copy(b.c0), b1 = copy(b.c1);
    const FpD t0 = a0 * b0;
    const FpD t1 = a1 * b1;
    return {t0 - t1, (a0 + a1) * (b0 + b1) - t0 - t1};
  }
  // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u: 2 Fp products.
  CUZK_GPU_FI static Fp2D sqr_inline(const Fp2D& a) {
    const FpD a0 = copy(a.c0), a1 = copy(a.c1);
    const FpD t = a0 * a1;
    return {(a0 + a1) * (a0 - a1), t.dbl()};
  }
  // The operands of the called copies arrive by reference (in the caller's stack frame): reading
  // every limb up front, before the products' asm statements, keeps the loads out of the carry
  // chains (without it MSM G2 2^24 took 546 instead of 431 ms, H200 2026-11-30).
  CUZK_GPU_FI static FpD copy(const FpD& x) {
    FpD r;
    CUZK_UNROLL
    for (int i = 0; i < FpD::N; ++i)
      r.l[i] = x.l[i];
    return r;
  }
#if defined(__CUDACC__)
  __host__ __device__ __noinline__ static Fp2D mul_outline(const Fp2D& a, const Fp2D& b) {
    return mul_inline(a, b);
  }
  __host__ __device__ __noinline__ static Fp2D sqr_outline(const Fp2D& a) {
    return sqr_inline(a);
  }
#else
  static Fp2D mul_outline(const Fp2D& a, const Fp2D& b) {
    return mul_inline(a, b);
  }
  static Fp2D sqr_outline(const Fp2D& a) {
    return sqr_inline(a);
  }
#endif
};

static_assert(sizeof(FrD) == sizeof(Fr) && alignof(FrD) == alignof(Fr));
static_assert(sizeof(FpD) == sizeof(Fp) && alignof(FpD) == alignof(Fp));
static_assert(sizeof(Fp2D) == sizeof(Fp2) && alignof(Fp2D) == alignof(Fp2));

}  // namespace cuzk::gpu
