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
  // Products and squares are calls to one copy each, in which the Fp products are inlined (same
  // limbs, Mont32<Fp> without the out-of-line calls) so that ptxas interleaves the carry chains
  // of the independent Karatsuba products: G2 XYZZ + affine 4.73e8 -> 8.05e8/s, MSM G2 2^24
  // 694 -> 431 ms against the Fp products called one by one (H200, 2026-11-30).
  using FpInline = Mont32<Fp>;

  CUZK_GPU_FI static Fp2D zero() { return {FpD::zero(), FpD::zero()}; }
  CUZK_GPU_FI static Fp2D one() { return {FpD::one(), FpD::zero()}; }
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

  // Karatsuba: 3 Fp products, inlined and independent (ptxas interleaves their chains) inside one
  // called copy for the whole Fp2 product.
  CUZK_GPU_FI static Fp2D mul_inline(const Fp2D& a, const Fp2D& b) {
    const FpInline a0 = in(a.c0), a1 = in(a.c1), b0 = in(b.c0), b1 = in(b.c1);
    const FpInline t0 = a0 * b0;
    const FpInline t1 = a1 * b1;
    return {out(t0 - t1), out((a0 + a1) * (b0 + b1) - t0 - t1)};
  }
  // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u: 2 Fp products.
  CUZK_GPU_FI static Fp2D sqr_inline(const Fp2D& a) {
    const FpInline a0 = in(a.c0), a1 = in(a.c1);
    const FpInline t = a0 * a1;
    return {out((a0 + a1) * (a0 - a1)), out(t.dbl())};
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

 private:
  CUZK_GPU_FI static FpInline in(const FpD& x) {
    FpInline r;
    CUZK_UNROLL
    for (int i = 0; i < FpD::N; ++i)
      r.l[i] = x.l[i];
    return r;
  }
  CUZK_GPU_FI static FpD out(const FpInline& x) {
    FpD r;
    CUZK_UNROLL
    for (int i = 0; i < FpD::N; ++i)
      r.l[i] = x.l[i];
    return r;
  }
};

static_assert(sizeof(FrD) == sizeof(Fr) && alignof(FrD) == alignof(Fr));
static_assert(sizeof(FpD) == sizeof(Fp) && alignof(FpD) == alignof(Fp));
static_assert(sizeof(Fp2D) == sizeof(Fp2) && alignof(Fp2D) == alignof(Fp2));

}  // namespace cuzk::gpu
