// Inverses on the device by Fermat's little theorem (a^(p-2)), and the zcash big-endian bytes of
// a field element: what the parameter generator needs to leave Montgomery and projective form.
#pragma once

#include <cstdint>

#include "gpu/arith/fields.cuh"

namespace cuzk::gpu {

// a^(p - 2) = 1 / a (0 for a = 0), square-and-multiply over the bits of p - 2.
template <class HostField>
__device__ Mont32<HostField> fermat_inverse(const Mont32<HostField>& a) {
  constexpr typename HostField::Int e = HostField::kModulusMinus2;
  Mont32<HostField> r = Mont32<HostField>::one();
  bool started = false;
  for (int limb = static_cast<int>(HostField::kLimbs) - 1; limb >= 0; --limb) {
    for (int bit = 63; bit >= 0; --bit) {
      if (started) r = r.sqr();
      if ((e.w[limb] >> bit) & 1) {
        r = started ? r * a : a;
        started = true;
      }
    }
  }
  return r;
}

// 1 / (c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2), since u^2 = -1.
__device__ inline Fp2D fermat_inverse(const Fp2D& a) {
  const FpD t = fermat_inverse<Fp>(a.c0.sqr() + a.c1.sqr());
  return {a.c0 * t, -(a.c1 * t)};
}

// The canonical value of x as 32-bit limbs, least significant first.
template <class HostField>
__device__ __forceinline__ Mont32<HostField> canonical(const Mont32<HostField>& x) {
  return Mont32<HostField>::mul(x, Mont32<HostField>::raw_one());
}

// Fp as 48 bytes big-endian into out[0, 12) (words whose memory bytes are the big-endian value).
__device__ __forceinline__ void store_be(const FpD& x, uint32_t* out) {
  const FpD c = canonical<Fp>(x);
  CUZK_UNROLL
  for (int i = 0; i < FpD::N; ++i)
    out[i] = __byte_perm(c.l[FpD::N - 1 - i], 0, 0x0123);
}
// Fp2 as c1 || c0.
__device__ __forceinline__ void store_be(const Fp2D& x, uint32_t* out) {
  store_be(x.c1, out);
  store_be(x.c0, out + FpD::N);
}

}  // namespace cuzk::gpu
