// Mont32<HostField>: the device twin of a host MontField, with 32-bit limbs.
//
// Same modulus and the same R (2^256 for Fr, 2^384 for Fp), and elements kept fully reduced
// (< p) as on the host, so the 2N 32-bit limbs of an element are bit for bit the N 64-bit limbs
// of the host element: host arrays are copied to the device unchanged (alignas(8) keeps the
// sizes and layouts equal, checked in curves.cuh).
//
// On the device, add/sub/mul are PTX carry chains (add.cc/addc, sub.cc/subc, mad.lo.cc/madc.hi.cc);
// 32-bit limbs because the GPU's integer multiplier is 32x32 bits (IMAD.WIDE): a 64-bit limb
// product would be emulated from four of them (gpu-anchors.md: 7.75e12 32x32->64 products/s on
// the H200). On the host the same operations run portable C++ with the same CIOS algorithm; the
// device tests compare both against the 64-bit host MontField.
//
// Montgomery multiplication is CIOS (Koc, Acar, Kaliski 1996) with four carry chains per limb of
// b: t += a b_i (low halves, then high halves shifted one word), m = t_0 (-p^-1), t += m p (again
// low, then high), t >>= 32. 4 N^2 multiply-adds plus ~8 N carry fix-ups; the spare top bit of
// both moduli keeps t < 2p, so one conditional subtraction reduces it.
#pragma once

#include <cstdint>
#include <cstring>

#include "ff/mont_field.hpp"
#include "util/hd.hpp"

#if defined(__CUDACC__)
#define CUZK_GPU_FI __host__ __device__ __forceinline__
#else
#define CUZK_GPU_FI inline
#endif
// Loop unrolling for the device pass only (the host compiler would warn on the pragma).
#if defined(__CUDA_ARCH__)
#define CUZK_UNROLL _Pragma("unroll")
#else
#define CUZK_UNROLL
#endif

namespace cuzk::gpu {

namespace mont32_detail {

template <size_t N>
struct Limbs32 {
  uint32_t v[2 * N];
};

template <size_t N>
constexpr Limbs32<N> split(const BigInt<N>& b) {
  Limbs32<N> r{};
  for (size_t i = 0; i < N; ++i) {
    r.v[2 * i] = static_cast<uint32_t>(b.w[i]);
    r.v[2 * i + 1] = static_cast<uint32_t>(b.w[i] >> 32);
  }
  return r;
}

}  // namespace mont32_detail

// kOutlineMul: products and squares are calls to one out-of-line copy instead of inlined code
// (fewer live registers in kernels full of products, such as the G2 additions).
template <class HostField, bool kOutlineMul = false>
struct alignas(8) Mont32 {
  static constexpr int N = static_cast<int>(2 * HostField::kLimbs);
  // -p^-1 mod 2^32: the low half of the host's -p^-1 mod 2^64.
  static constexpr uint32_t kInv = static_cast<uint32_t>(HostField::kInv);

  uint32_t l[N];

  // Limb i of p and of R mod p (the Montgomery form of 1). Local constexpr tables fold to
  // immediates once the loops that index them are unrolled.
  CUZK_GPU_FI static uint32_t p(int i) {
    constexpr mont32_detail::Limbs32<HostField::kLimbs> k =
        mont32_detail::split(HostField::kModulus);
    return k.v[i];
  }
  CUZK_GPU_FI static uint32_t r_mod_p(int i) {
    constexpr mont32_detail::Limbs32<HostField::kLimbs> k = mont32_detail::split(HostField::kR);
    return k.v[i];
  }

  CUZK_GPU_FI static Mont32 zero() {
    Mont32 z;
    CUZK_UNROLL
    for (int i = 0; i < N; ++i)
      z.l[i] = 0;
    return z;
  }
  CUZK_GPU_FI static Mont32 one() {
    Mont32 o;
    CUZK_UNROLL
    for (int i = 0; i < N; ++i)
      o.l[i] = r_mod_p(i);
    return o;
  }
  // The integer 1 as raw limbs: mul(x, raw_one()) leaves Montgomery form (x R^-1).
  CUZK_GPU_FI static Mont32 raw_one() {
    Mont32 o = zero();
    o.l[0] = 1;
    return o;
  }

  CUZK_GPU_FI bool is_zero() const {
    uint32_t acc = 0;
    CUZK_UNROLL
    for (int i = 0; i < N; ++i)
      acc |= l[i];
    return acc == 0;
  }
  CUZK_GPU_FI bool operator==(const Mont32& o) const {
    uint32_t acc = 0;
    CUZK_UNROLL
    for (int i = 0; i < N; ++i)
      acc |= l[i] ^ o.l[i];
    return acc == 0;
  }
  CUZK_GPU_FI bool operator!=(const Mont32& o) const { return !(*this == o); }

  CUZK_GPU_FI Mont32 operator+(const Mont32& o) const { return add(*this, o); }
  CUZK_GPU_FI Mont32 operator-(const Mont32& o) const { return sub(*this, o); }
  CUZK_GPU_FI Mont32 operator*(const Mont32& o) const {
    if constexpr (kOutlineMul)
      return mul_outline(*this, o);
    else
      return mul(*this, o);
  }
  CUZK_GPU_FI Mont32 operator-() const { return sub(zero(), *this); }
  CUZK_GPU_FI Mont32& operator+=(const Mont32& o) { return *this = add(*this, o); }
  CUZK_GPU_FI Mont32& operator-=(const Mont32& o) { return *this = sub(*this, o); }
  CUZK_GPU_FI Mont32& operator*=(const Mont32& o) { return *this = *this * o; }
  CUZK_GPU_FI Mont32 dbl() const { return add(*this, *this); }
  CUZK_GPU_FI Mont32 sqr() const {
    if constexpr (kOutlineMul)
      return square_outline(*this);
    else
      return square(*this);
  }

  // a + b mod p (a, b < p).
  CUZK_GPU_FI static Mont32 add(const Mont32& a, const Mont32& b) {
    Mont32 r;
#if defined(__CUDA_ARCH__)
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r.l[0]) : "r"(a.l[0]), "r"(b.l[0]));
    CUZK_UNROLL
    for (int i = 1; i < N - 1; ++i)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r.l[i]) : "r"(a.l[i]), "r"(b.l[i]));
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r.l[N - 1]) : "r"(a.l[N - 1]), "r"(b.l[N - 1]));
#else
    uint64_t c = 0;
    for (int i = 0; i < N; ++i) {
      c += static_cast<uint64_t>(a.l[i]) + b.l[i];
      r.l[i] = static_cast<uint32_t>(c);
      c >>= 32;
    }
#endif
    return reduce_once(r);
  }

  // a - b mod p (a, b < p).
  CUZK_GPU_FI static Mont32 sub(const Mont32& a, const Mont32& b) {
    Mont32 r;
    uint32_t mask;  // all ones when a < b
#if defined(__CUDA_ARCH__)
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r.l[0]) : "r"(a.l[0]), "r"(b.l[0]));
    CUZK_UNROLL
    for (int i = 1; i < N; ++i)
      asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r.l[i]) : "r"(a.l[i]), "r"(b.l[i]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(mask));
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(r.l[0]) : "r"(p(0) & mask));
    CUZK_UNROLL
    for (int i = 1; i < N - 1; ++i)
      asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(r.l[i]) : "r"(p(i) & mask));
    asm volatile("addc.u32 %0, %0, %1;" : "+r"(r.l[N - 1]) : "r"(p(N - 1) & mask));
#else
    uint64_t borrow = 0;
    for (int i = 0; i < N; ++i) {
      const uint64_t d = static_cast<uint64_t>(a.l[i]) - b.l[i] - borrow;
      r.l[i] = static_cast<uint32_t>(d);
      borrow = (d >> 32) & 1;
    }
    mask = borrow ? 0xffffffffu : 0u;
    uint64_t c = 0;
    for (int i = 0; i < N; ++i) {
      c += static_cast<uint64_t>(r.l[i]) + (p(i) & mask);
      r.l[i] = static_cast<uint32_t>(c);
      c >>= 32;
    }
#endif
    return r;
  }

  // a b R^-1 mod p (a, b < p).
  CUZK_GPU_FI static Mont32 mul(const Mont32& a, const Mont32& b) {
    uint32_t t[N + 2];
    CUZK_UNROLL
    for (int i = 0; i < N + 2; ++i)
      t[i] = 0;
#if defined(__CUDA_ARCH__)
    CUZK_UNROLL
    for (int i = 0; i < N; ++i) {
      const uint32_t bi = b.l[i];
      // t += a * b_i: the low halves at word j, then the high halves at word j + 1.
      asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(a.l[0]), "r"(bi));
      CUZK_UNROLL
      for (int j = 1; j < N; ++j)
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(a.l[j]), "r"(bi));
      asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[N]));
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[N + 1]));
      asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(a.l[0]), "r"(bi));
      CUZK_UNROLL
      for (int j = 1; j < N; ++j)
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(a.l[j]), "r"(bi));
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[N + 1]));
      redc_word(t);
    }
#else
    for (int i = 0; i < N; ++i) {
      uint64_t c = 0;
      for (int j = 0; j < N; ++j) {
        c += static_cast<uint64_t>(a.l[j]) * b.l[i] + t[j];
        t[j] = static_cast<uint32_t>(c);
        c >>= 32;
      }
      c += t[N];
      t[N] = static_cast<uint32_t>(c);
      t[N + 1] = static_cast<uint32_t>(c >> 32);
      redc_word(t);
    }
#endif
    Mont32 r;
    CUZK_UNROLL
    for (int i = 0; i < N; ++i)
      r.l[i] = t[i];
    return reduce_once(r);
  }

#if defined(__CUDACC__)
  __host__ __device__ __noinline__ static Mont32 mul_outline(const Mont32& a, const Mont32& b) {
    return mul(a, b);
  }
  __host__ __device__ __noinline__ static Mont32 square_outline(const Mont32& a) {
    return square(a);
  }
#else
  static Mont32 mul_outline(const Mont32& a, const Mont32& b) {
    return mul(a, b);
  }
  static Mont32 square_outline(const Mont32& a) {
    return square(a);
  }
#endif

  // One word of Montgomery reduction: t += m p with m = t_0 (-p^-1) mod 2^32, which zeroes
  // word 0, then t >>= 32. t has two spare top words (t < 2^(32 (N + 1)) on entry).
  CUZK_GPU_FI static void redc_word(uint32_t (&t)[N + 2]) {
    const uint32_t m = t[0] * kInv;
#if defined(__CUDA_ARCH__)
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(m), "r"(p(0)));
    CUZK_UNROLL
    for (int j = 1; j < N; ++j)
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(m), "r"(p(j)));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[N]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[N + 1]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(m), "r"(p(0)));
    CUZK_UNROLL
    for (int j = 1; j < N; ++j)
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(m), "r"(p(j)));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[N + 1]));
#else
    uint64_t c = (static_cast<uint64_t>(m) * p(0) + t[0]) >> 32;
    for (int j = 1; j < N; ++j) {
      c += static_cast<uint64_t>(m) * p(j) + t[j];
      t[j] = static_cast<uint32_t>(c);
      c >>= 32;
    }
    c += t[N];
    t[N] = static_cast<uint32_t>(c);
    t[N + 1] += static_cast<uint32_t>(c >> 32);
#endif
    CUZK_UNROLL
    for (int j = 0; j < N + 1; ++j)
      t[j] = t[j + 1];
    t[N + 1] = 0;
  }

  // a^2 R^-1 mod p (a < p) with each cross product once: T = a^2 in 2N words (cross products
  // a_i a_j, i < j, doubled, plus the squares a_i^2), then Q = REDC(low half of T) <= p and
  // Q + (high half of T) < 2p, one conditional subtraction. N^2 + N products and 2 N^2 for the
  // reduction, against 4 N^2 in mul (Fp: 444 against 576).
  CUZK_GPU_FI static Mont32 square(const Mont32& a) {
    uint32_t T[2 * N];
    CUZK_UNROLL
    for (int k = 0; k < 2 * N; ++k)
      T[k] = 0;
#if defined(__CUDA_ARCH__)
    // Row i adds a_i a_j (j > i) at words i + j: low halves (carry into words i + N, i + N + 1,
    // the second still zero), then high halves one word up.
    CUZK_UNROLL
    for (int i = 0; i < N - 1; ++i) {
      asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;"
                   : "+r"(T[2 * i + 1])
                   : "r"(a.l[i]), "r"(a.l[i + 1]));
      CUZK_UNROLL
      for (int j = i + 2; j < N; ++j)
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(T[i + j]) : "r"(a.l[i]), "r"(a.l[j]));
      asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(T[i + N]));
      asm volatile("addc.u32 %0, 0, 0;" : "=r"(T[i + N + 1]));
      asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;"
                   : "+r"(T[2 * i + 2])
                   : "r"(a.l[i]), "r"(a.l[i + 1]));
      CUZK_UNROLL
      for (int j = i + 2; j < N; ++j)
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;"
                     : "+r"(T[i + j + 1])
                     : "r"(a.l[i]), "r"(a.l[j]));
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(T[i + N + 1]));
    }
    // T = 2 T (no overflow: 2 x cross products <= a^2 < 2^(64 N)).
    asm volatile("add.cc.u32 %0, %0, %0;" : "+r"(T[1]));
    CUZK_UNROLL
    for (int k = 2; k < 2 * N - 1; ++k)
      asm volatile("addc.cc.u32 %0, %0, %0;" : "+r"(T[k]));
    asm volatile("addc.u32 %0, %0, %0;" : "+r"(T[2 * N - 1]));
    // T += a_i^2 at words 2i, 2i + 1: one chain over all 2N words.
    asm volatile("mad.lo.cc.u32 %0, %1, %1, %0;" : "+r"(T[0]) : "r"(a.l[0]));
    asm volatile("madc.hi.cc.u32 %0, %1, %1, %0;" : "+r"(T[1]) : "r"(a.l[0]));
    CUZK_UNROLL
    for (int i = 1; i < N - 1; ++i) {
      asm volatile("madc.lo.cc.u32 %0, %1, %1, %0;" : "+r"(T[2 * i]) : "r"(a.l[i]));
      asm volatile("madc.hi.cc.u32 %0, %1, %1, %0;" : "+r"(T[2 * i + 1]) : "r"(a.l[i]));
    }
    asm volatile("madc.lo.cc.u32 %0, %1, %1, %0;" : "+r"(T[2 * N - 2]) : "r"(a.l[N - 1]));
    asm volatile("madc.hi.u32 %0, %1, %1, %0;" : "+r"(T[2 * N - 1]) : "r"(a.l[N - 1]));
#else
    for (int i = 0; i < N - 1; ++i) {
      uint64_t c = 0;
      for (int j = i + 1; j < N; ++j) {
        c += static_cast<uint64_t>(a.l[i]) * a.l[j] + T[i + j];
        T[i + j] = static_cast<uint32_t>(c);
        c >>= 32;
      }
      T[i + N] = static_cast<uint32_t>(c);  // no earlier row reaches word i + N
    }
    uint32_t top = 0;
    for (int k = 0; k < 2 * N; ++k) {
      const uint32_t v = T[k];
      T[k] = (v << 1) | top;
      top = v >> 31;
    }
    uint64_t c = 0;
    for (int i = 0; i < N; ++i) {
      const uint64_t sq = static_cast<uint64_t>(a.l[i]) * a.l[i];
      c += (sq & 0xffffffffu) + T[2 * i];
      T[2 * i] = static_cast<uint32_t>(c);
      c = (c >> 32) + (sq >> 32) + T[2 * i + 1];
      T[2 * i + 1] = static_cast<uint32_t>(c);
      c >>= 32;
    }
#endif
    uint32_t t[N + 2];
    CUZK_UNROLL
    for (int k = 0; k < N; ++k)
      t[k] = T[k];
    t[N] = t[N + 1] = 0;
    CUZK_UNROLL
    for (int i = 0; i < N; ++i)
      redc_word(t);
    // t <= p and the high half < p: their sum is below 2p (and 2^(32 N)).
    Mont32 r;
#if defined(__CUDA_ARCH__)
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r.l[0]) : "r"(t[0]), "r"(T[N]));
    CUZK_UNROLL
    for (int k = 1; k < N - 1; ++k)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r.l[k]) : "r"(t[k]), "r"(T[N + k]));
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r.l[N - 1]) : "r"(t[N - 1]), "r"(T[2 * N - 1]));
#else
    uint64_t sum = 0;
    for (int k = 0; k < N; ++k) {
      sum += static_cast<uint64_t>(t[k]) + T[N + k];
      r.l[k] = static_cast<uint32_t>(sum);
      sum >>= 32;
    }
#endif
    return reduce_once(r);
  }

  // r - p when r >= p (r < 2p).
  CUZK_GPU_FI static Mont32 reduce_once(const Mont32& r) {
    Mont32 s;
    uint32_t borrow;  // all ones when r < p
#if defined(__CUDA_ARCH__)
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(s.l[0]) : "r"(r.l[0]), "r"(p(0)));
    CUZK_UNROLL
    for (int i = 1; i < N; ++i)
      asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(s.l[i]) : "r"(r.l[i]), "r"(p(i)));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
#else
    uint64_t b = 0;
    for (int i = 0; i < N; ++i) {
      const uint64_t d = static_cast<uint64_t>(r.l[i]) - p(i) - b;
      s.l[i] = static_cast<uint32_t>(d);
      b = (d >> 32) & 1;
    }
    borrow = b ? 0xffffffffu : 0u;
#endif
    CUZK_UNROLL
    for (int i = 0; i < N; ++i)
      s.l[i] = (r.l[i] & borrow) | (s.l[i] & ~borrow);
    return s;
  }

  // Host <-> device representation: the same bytes (see the top of this file).
  static Mont32 from_host(const HostField& f) {
    Mont32 r;
    std::memcpy(r.l, f.mont().w, sizeof(r.l));
    return r;
  }
  HostField to_host() const {
    typename HostField::Int v;
    std::memcpy(v.w, l, sizeof(l));
    return HostField::from_mont(v);
  }
};

}  // namespace cuzk::gpu
