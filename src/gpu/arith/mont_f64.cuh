// MontF64<HostField>: Montgomery products of Fr and Fp on FP64 fused multiply-adds, the method of
// Emmart, Zheng and Weems ("Faster modular exponentiation using double precision floating point
// arithmetic on the GPU", ARITH 2018): a limb product is split into a high and a low part by two
// FMAs whose results land in fixed binades, so that their mantissa bits are the integer parts.
// Built beside Mont32 to be measured (issue 32); no production kernel uses it yet.
//
// Representation. K limbs of 51 bits (Fr: K = 5, 255 bits; Fp: K = 8, 408 bits), each a uint64
// below 2^51, value fully reduced (< p), Montgomery form with R' = 2^(51 K): Fr 2^255, Fp 2^408
// (the host's R is 2^256 / 2^384; from_mont32 and to_mont32 convert with one product each).
// Stored as integers, not doubles: add, sub, neg, equality and the conversions are integer carry
// chains, and only mul / sqr touch the FP64 pipe, converting each operand limb to a double in
// two instructions (OR in the exponent of 2^52, subtract 2^52: exact for x < 2^52), K per
// operand.
//
// Why 51-bit limbs, not 52. The host twin must run the device's arithmetic with std::fma in the
// default rounding mode, so the split rounds to nearest (rounding hi toward zero would make the
// low part non-negative and allow 52 bits, at the price of the host's rounding mode switched
// around every product). For limbs a, b < 2^w and a split at 2^r:
//   hi = fma(a, b, 2^(52 + r))          = 2^(52 + r) + H, H = ab rounded to a multiple of 2^r,
//   lo = fma(a, b, (2^(52 + r) + B) - hi) = B + d,        d = ab - H in [-2^(r-1), 2^(r-1)].
// hi stays in the binade [2^(52+r), 2^(53+r)) (ulp 2^r) when ab < 2^(52+r); the subtraction is
// exact (Sterbenz: both operands in that binade); lo is exact and its bits read back linearly
// only if B + d stays inside one binade of ulp 1, [2^52, 2^53): d takes 2^r + 1 values (both
// ends, ties to even), which fit 2^52 slots only for r <= 51. With r = w = 51: B = 3 * 2^51,
// c1 = 2^103, c2 = 2^103 + 3 * 2^51 (a multiple of 2^51, representable in c1's binade), and
// H / 2^51 = bits(hi) - bits(2^103), d = bits(lo) - bits(3 * 2^51) (two's complement). 51-bit
// limbs cost no extra limb here: 255 = 5 * 51 and ceil(381 / 51) = ceil(381 / 52) = 8.
//
// Columns. Each limb product adds d to column s and H / 2^51 (< 2^51) to column s + 1, as signed
// 64-bit integers (summed modulo 2^64, so adding raw bits and subtracting the constants' bits
// is exact). A column absorbs 2^63 / 2^51 = 4096 such terms; it receives at most 2K of each kind
// (K from a b, K from the reduction) plus a carry, 4K + 1 = 33 for Fp: |column| < 2^56.
//
// Reduction (product scanning, SOS). After all a_i b_j are in the 2K columns, for i = 0..K-1:
// q = (column_i * (-p^-1 mod 2^51)) mod 2^51 (column_i's low 51 bits, carry included, two's
// complement), add q p_j to columns i + j (as above); column i is then a multiple of 2^51 and
// moves into column i + 1 by an arithmetic shift. Columns K..2K-1 hold (ab + Qp) / R' with
// Q < R' and a, b < p < R': below p (p / R' + 1) < 2p, so one conditional subtraction of p
// leaves the canonical result. Fr's 2p exceeds 2^255: the top limb is kept unmasked (< 2^52)
// until that subtraction.
//
// Counts per product (H200: 64 FP64 FMA or add, 64 IMAD, 64 ALU lanes per SM per clock):
//   mul: 2K^2 limb products x (2 DFMA + 1 DADD) + 3K DADD (operand and q conversions)
//        = Fr 165, Fp 408 FP64 instructions; integers: 2 terms of 64 bits per limb product
//        (IADD3 pairs), q = 3 IMAD each, column carries.
//   sqr: K(K+1)/2 + K^2 limb products (cross products once, 2 a_i exact in a double < 2^52:
//        products < 2^103 keep hi in its binade) = Fr 40, Fp 100 limb products.
// Against Mont32's Fp product (576 IMAD), see docs/perf-log.md ("FP64 multiplier").
//
// Hybrid (not built). Split one product's limb multiplications between the pipes, so that both
// are busy: keep the FP64 column form above and compute part of the K^2 products of the
// reduction (q_i p_j, j >= K/2, whose columns are only needed after the next q) as 51 x 51-bit
// integer products: a 51-bit limb is two 32-bit words (26 + 25 bits), the four 32x32 partial
// products (IMAD.WIDE, accumulating) give the 102-bit product, and it enters the same columns
// split at 2^51 (shifts, ALU). About 4 IMAD + 3 ALU per limb product against 3 FP64 + 2 ALU:
// balancing 3 x / 64 = 4 (2K^2 - x) / 64 gives x = 73 of Fp's 128 limb products on FP64, ~220
// instructions on each multiplier pipe, but ~420 ALU and ~860 instructions to issue (128 per
// SM per clock): the issue rate, not a pipe, bounds it at ~6.7 clocks against ~6.4 for the
// pure FP64 product, so it is worth building only if the measured FP64 product is FP64-bound
// well below its issue bound (a bit-identical host twin is easy: every integer step is exact).
// A coarser split needs no new arithmetic: a formula's independent products (~10 in an XYZZ
// addition) can go some to Mont32 and some to MontF64, the forms tracked per value, since a
// MontF64 product of x R' and y R is x y R and a Mont32 one is x y R' (only the limbs are
// repacked between 51-bit limbs and 32-bit words; tests/gpu/mont_f64_test.cpp checks it). The
// PTX suggested ~1,600 instructions for one product of each; ptxas 11.8's SASS has 1,253, with the
// IMAD, FP64 and issue bounds all near 4.9 SM clocks a product against Mont32's 9.2
// (docs/perf-log.md, "SASS, counted here"): the side-by-side rows of `cuzk-bench kernels --only
// arith` measure it.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "ff/mont_field.hpp"
#include "gpu/arith/mont32.cuh"

namespace cuzk::gpu {

namespace f64_detail {

static_assert(std::numeric_limits<double>::is_iec559, "the split needs IEEE 754 binary64");

constexpr int kW = 51;                               // limb bits
constexpr uint64_t kMask = (uint64_t{1} << kW) - 1;  // a limb's bits
constexpr double kHiC = 0x1p103;                     // c1 = 2^103
constexpr double kLoC = 0x1p103 + 0x1.8p52;          // c2 = 2^103 + 3 * 2^51
constexpr uint64_t kHiBits = 0x4660000000000000;     // bits(2^103)
constexpr uint64_t kLoBits = 0x4338000000000000;     // bits(3 * 2^51)
constexpr uint64_t kTwo52Bits = 0x4330000000000000;  // bits(2^52)
static_assert(std::bit_cast<uint64_t>(kHiC) == kHiBits);
static_assert(std::bit_cast<uint64_t>(0x1.8p52) == kLoBits);
static_assert(std::bit_cast<uint64_t>(0x1p52) == kTwo52Bits);
static_assert(kLoC - kHiC == 0x1.8p52, "c2 is representable");

// Exact IEEE binary64 steps, the same on both sides: the device's round-to-nearest intrinsics
// (which nvcc never contracts or reorders) and the host's std::fma (correctly rounded: an
// instruction or libm's). g++ contracts a * b + c into an FMA by default even in ISO C++ mode
// (g++ 12 -std=c++20 -O3 -mfma emits vfmadd for it), so the host path is written with no such
// expression: every product is an explicit fma_rn and every other step a lone subtraction or
// bit operation. tests/gpu/mont_f64_test.cpp checks one-rounding FMA and the split's exactness.
CUZK_GPU_FI double fma_rn(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
CUZK_GPU_FI double sub_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
CUZK_GPU_FI uint64_t bits(double x) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint64_t>(__double_as_longlong(x));
#else
  return std::bit_cast<uint64_t>(x);
#endif
}
CUZK_GPU_FI double from_bits(uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(b));
#else
  return std::bit_cast<double>(b);
#endif
}
// x < 2^52 as a double, exactly: 2^52 + x has x as its mantissa field.
CUZK_GPU_FI double to_f64(uint64_t x) {
  return sub_rn(from_bits(x | kTwo52Bits), 0x1p52);
}

// cols[s] += d, cols[s + 1] += H / 2^51 for the limb product a b = H + d (a, b integers, a b <
// 2^103; see the top of this file). Two's complement modulo 2^64.
CUZK_GPU_FI void mad(uint64_t& lo_col, uint64_t& hi_col, double a, double b) {
  const double hi = fma_rn(a, b, kHiC);
  const double lo = fma_rn(a, b, sub_rn(kLoC, hi));
  lo_col += bits(lo) - kLoBits;
  hi_col += bits(hi) - kHiBits;
}

// mad for signed limbs |u|, |v| < 2^51 (Karatsuba's differences): with c1 = 1.5 * 2^103 the
// sum c1 + u v stays in (2^103, 2^104), so H is read as bits(hi) - bits(c1), signed, and the
// low part is as in mad (c2 = c1 + 3 * 2^51, still a multiple of 2^51 in that binade).
constexpr double kHiSignedC = 0x1.8p103;
constexpr double kLoSignedC = 0x1.8p103 + 0x1.8p52;
constexpr uint64_t kHiSignedBits = 0x4668000000000000;  // bits(1.5 * 2^103)
static_assert(std::bit_cast<uint64_t>(kHiSignedC) == kHiSignedBits);
static_assert(kLoSignedC - kHiSignedC == 0x1.8p52, "c2 is representable");
CUZK_GPU_FI void mad_signed(uint64_t& lo_col, uint64_t& hi_col, double u, double v) {
  const double hi = fma_rn(u, v, kHiSignedC);
  const double lo = fma_rn(u, v, sub_rn(kLoSignedC, hi));
  lo_col += bits(lo) - kLoBits;
  hi_col += bits(hi) - kHiSignedBits;
}

// Arithmetic shift of a column read as signed (C++20: conversion modulo 2^64, >> arithmetic).
CUZK_GPU_FI uint64_t carry_of(uint64_t col) {
  return static_cast<uint64_t>(static_cast<int64_t>(col) >> kW);
}

template <int K>
struct Limbs51 {
  uint64_t v[K];
};

// The 51-bit limbs of b (b < 2^(51 K)).
template <int K, size_t N>
constexpr Limbs51<K> split(const BigInt<N>& b) {
  Limbs51<K> r{};
  for (int t = 0; t < K; ++t) {
    const size_t bit = static_cast<size_t>(kW) * t, w = bit / 64, off = bit % 64;
    uint64_t v = b.w[w] >> off;
    if (off > 64 - kW && w + 1 < N) v |= b.w[w + 1] << (64 - off);
    r.v[t] = v & kMask;
  }
  return r;
}

// 2^e mod p for e >= 0 (compile time).
template <size_t N>
constexpr BigInt<N> pow2(const BigInt<N>& p, int e) {
  return mont_detail::pow2_mod(p, static_cast<size_t>(e));
}

}  // namespace f64_detail

template <class HostField>
struct MontF64 {
  static constexpr int kN32 = static_cast<int>(2 * HostField::kLimbs);  // Mont32's words
  static constexpr int K =
      static_cast<int>((HostField::kBits + f64_detail::kW - 1) / f64_detail::kW);
  static constexpr int kRBits = f64_detail::kW * K;  // R' = 2^kRBits
  static_assert(HostField::kBits <= static_cast<size_t>(kRBits), "p < R'");
  // -p^-1 mod 2^51: the host's -p^-1 mod 2^64, reduced.
  static constexpr uint64_t kInv = HostField::kInv & f64_detail::kMask;

  uint64_t l[K];

  // Limb i of p, of R' mod p (one), and of the conversion factors: mul(x, C) = x C / R', so
  // x R_host -> x R' takes C = R'^2 / R_host mod p = 2^(2 kRBits - 64 N), and x R' -> x R_host
  // takes C = R_host mod p (the host's one).
  CUZK_GPU_FI static uint64_t p(int i) {
    constexpr f64_detail::Limbs51<K> k = f64_detail::split<K>(HostField::kModulus);
    return k.v[i];
  }
  CUZK_GPU_FI static double p_f64(int i) {
    constexpr f64_detail::Limbs51<K> k = f64_detail::split<K>(HostField::kModulus);
    return static_cast<double>(k.v[i]);  // exact: < 2^51
  }
  CUZK_GPU_FI static uint64_t r_mod_p(int i) {
    constexpr f64_detail::Limbs51<K> k =
        f64_detail::split<K>(f64_detail::pow2(HostField::kModulus, kRBits));
    return k.v[i];
  }
  CUZK_GPU_FI static uint64_t to_f64_form(int i) {
    constexpr f64_detail::Limbs51<K> k =
        f64_detail::split<K>(f64_detail::pow2(HostField::kModulus, 2 * kRBits - 32 * kN32));
    return k.v[i];
  }
  CUZK_GPU_FI static uint64_t to_host_form(int i) {
    constexpr f64_detail::Limbs51<K> k = f64_detail::split<K>(HostField::kR);
    return k.v[i];
  }

  CUZK_GPU_FI static MontF64 zero() {
    MontF64 z;
    CUZK_UNROLL
    for (int i = 0; i < K; ++i)
      z.l[i] = 0;
    return z;
  }
  CUZK_GPU_FI static MontF64 one() {
    MontF64 o;
    CUZK_UNROLL
    for (int i = 0; i < K; ++i)
      o.l[i] = r_mod_p(i);
    return o;
  }

  // The comparisons and operators as Mont32 declares them (mont32.cuh), so device code can take
  // either field type.
  CUZK_GPU_FI bool is_zero() const {
    uint64_t acc = 0;
    CUZK_UNROLL
    for (int i = 0; i < K; ++i)
      acc |= l[i];
    return acc == 0;
  }
  CUZK_GPU_FI bool operator==(const MontF64& o) const {
    uint64_t acc = 0;
    CUZK_UNROLL
    for (int i = 0; i < K; ++i)
      acc |= l[i] ^ o.l[i];
    return acc == 0;
  }
  CUZK_GPU_FI bool operator!=(const MontF64& o) const { return !(*this == o); }

  CUZK_GPU_FI MontF64 operator+(const MontF64& o) const { return add(*this, o); }
  CUZK_GPU_FI MontF64 operator-(const MontF64& o) const { return sub(*this, o); }
  CUZK_GPU_FI MontF64 operator*(const MontF64& o) const { return mul(*this, o); }
  CUZK_GPU_FI MontF64 operator-() const { return sub(zero(), *this); }
  CUZK_GPU_FI MontF64& operator+=(const MontF64& o) { return *this = add(*this, o); }
  CUZK_GPU_FI MontF64& operator-=(const MontF64& o) { return *this = sub(*this, o); }
  CUZK_GPU_FI MontF64& operator*=(const MontF64& o) { return *this = mul(*this, o); }
  CUZK_GPU_FI MontF64 dbl() const { return add(*this, *this); }
  CUZK_GPU_FI MontF64 sqr() const { return square(*this); }

  // a + b mod p (a, b < p): limbs with carries, the top one unmasked (a + b < 2p < 2^(kRBits+1)).
  CUZK_GPU_FI static MontF64 add(const MontF64& a, const MontF64& b) {
    MontF64 r;
    uint64_t c = 0;
    CUZK_UNROLL
    for (int i = 0; i < K - 1; ++i) {
      const uint64_t s = a.l[i] + b.l[i] + c;
      r.l[i] = s & f64_detail::kMask;
      c = s >> f64_detail::kW;
    }
    r.l[K - 1] = a.l[K - 1] + b.l[K - 1] + c;
    return reduce_once(r);
  }

  // a - b mod p (a, b < p): the difference with signed borrows, plus p when it is negative.
  CUZK_GPU_FI static MontF64 sub(const MontF64& a, const MontF64& b) {
    MontF64 r;
    uint64_t borrow = 0;  // 0 or all ones (-1)
    CUZK_UNROLL
    for (int i = 0; i < K - 1; ++i) {
      const uint64_t d = a.l[i] - b.l[i] + borrow;
      r.l[i] = d & f64_detail::kMask;
      borrow = f64_detail::carry_of(d);
    }
    const uint64_t top = a.l[K - 1] - b.l[K - 1] + borrow;
    const uint64_t neg = f64_detail::carry_of(top) == 0 ? 0 : ~uint64_t{0};
    uint64_t c = 0;
    CUZK_UNROLL
    for (int i = 0; i < K - 1; ++i) {
      const uint64_t s = r.l[i] + (p(i) & neg) + c;
      r.l[i] = s & f64_detail::kMask;
      c = s >> f64_detail::kW;
    }
    r.l[K - 1] = top + (p(K - 1) & neg) + c;
    return r;
  }

  // a b R'^-1 mod p (a, b < p): the 2K columns of a b, then the reduction (top of the file).
  CUZK_GPU_FI static MontF64 mul(const MontF64& a, const MontF64& b) {
    double x[K], y[K];
    CUZK_UNROLL
    for (int i = 0; i < K; ++i) {
      x[i] = f64_detail::to_f64(a.l[i]);
      y[i] = f64_detail::to_f64(b.l[i]);
    }
    uint64_t col[2 * K] = {};
    CUZK_UNROLL
    for (int i = 0; i < K; ++i) {
      CUZK_UNROLL
      for (int j = 0; j < K; ++j)
        f64_detail::mad(col[i + j], col[i + j + 1], x[i], y[j]);
    }
    return redc(col);
  }

  // mul with the 2K columns of a b from one Karatsuba step on the limb polynomials (X = 2^51):
  // a = a0 + X^h a1, b = b0 + X^h b1 (h = K / 2), a b = z0 + X^h (z0 + z2 + zd) + X^2h z2 with
  // z0 = a0 b0, z2 = a1 b1, zd = (a0 - a1)(b1 - b0): limbwise differences, |.| < 2^51, exact
  // in doubles and multiplied by mad_signed. h^2 + 2 (K - h)^2 limb products instead of K^2
  // (Fp 48 instead of 64, Fr 22 instead of 25) for 2 (K - h) more DADDs and the middle columns'
  // 64-bit additions; the columns stay far inside int64 (each middle one sums three of the
  // bounded columns above). A variant to measure against mul; the same result.
  CUZK_GPU_FI static MontF64 mul_karatsuba(const MontF64& a, const MontF64& b) {
    constexpr int h = K / 2, m = K - h;  // m >= h: the high half is the longer one
    double x[K], y[K], dx[m], dy[m];
    CUZK_UNROLL
    for (int i = 0; i < K; ++i) {
      x[i] = f64_detail::to_f64(a.l[i]);
      y[i] = f64_detail::to_f64(b.l[i]);
    }
    CUZK_UNROLL
    for (int i = 0; i < m; ++i) {
      dx[i] = i < h ? f64_detail::sub_rn(x[i], x[h + i]) : -x[h + i];
      dy[i] = i < h ? f64_detail::sub_rn(y[h + i], y[i]) : y[h + i];
    }
    uint64_t z0[2 * h], z2[2 * m], zd[2 * m];
    CUZK_UNROLL
    for (int s = 0; s < 2 * m; ++s) {
      if (s < 2 * h) z0[s] = 0;
      z2[s] = zd[s] = 0;
    }
    CUZK_UNROLL
    for (int i = 0; i < h; ++i) {
      CUZK_UNROLL
      for (int j = 0; j < h; ++j)
        f64_detail::mad(z0[i + j], z0[i + j + 1], x[i], y[j]);
    }
    CUZK_UNROLL
    for (int i = 0; i < m; ++i) {
      CUZK_UNROLL
      for (int j = 0; j < m; ++j) {
        f64_detail::mad(z2[i + j], z2[i + j + 1], x[h + i], y[h + j]);
        f64_detail::mad_signed(zd[i + j], zd[i + j + 1], dx[i], dy[j]);
      }
    }
    uint64_t col[2 * K];
    CUZK_UNROLL
    for (int s = 0; s < 2 * K; ++s)
      col[s] = s < 2 * h ? z0[s] : z2[s - 2 * h];
    CUZK_UNROLL
    for (int s = 0; s < 2 * m; ++s)
      col[h + s] += (s < 2 * h ? z0[s] : 0) + z2[s] + zd[s];
    return redc(col);
  }

  // a^2 R'^-1 mod p (a < p): the squares a_i^2 and the cross products once, as (2 a_i) a_j
  // (2 a_i < 2^52 is exact, and (2 a_i) a_j < 2^103 keeps hi in its binade), then mul's reduction.
  CUZK_GPU_FI static MontF64 square(const MontF64& a) {
    double x[K], x2[K];
    CUZK_UNROLL
    for (int i = 0; i < K; ++i) {
      x[i] = f64_detail::to_f64(a.l[i]);
      x2[i] = f64_detail::to_f64(2 * a.l[i]);
    }
    uint64_t col[2 * K] = {};
    CUZK_UNROLL
    for (int i = 0; i < K; ++i) {
      f64_detail::mad(col[2 * i], col[2 * i + 1], x[i], x[i]);
      CUZK_UNROLL
      for (int j = i + 1; j < K; ++j)
        f64_detail::mad(col[i + j], col[i + j + 1], x2[i], x[j]);
    }
    return redc(col);
  }

  // Montgomery reduction of the 2K columns T (T < p^2 as a value): (T + Q p) / R' mod p.
  CUZK_GPU_FI static MontF64 redc(uint64_t (&col)[2 * K]) {
    CUZK_UNROLL
    for (int i = 0; i < K; ++i) {
      const uint64_t q = (col[i] * kInv) & f64_detail::kMask;
      const double qd = f64_detail::to_f64(q);
      CUZK_UNROLL
      for (int j = 0; j < K; ++j)
        f64_detail::mad(col[i + j], col[i + j + 1], qd, p_f64(j));
      col[i + 1] += f64_detail::carry_of(col[i]);  // col[i] is now a multiple of 2^51
    }
    MontF64 r;
    uint64_t c = 0;
    CUZK_UNROLL
    for (int t = 0; t < K - 1; ++t) {
      const uint64_t v = col[K + t] + c;
      r.l[t] = v & f64_detail::kMask;
      c = f64_detail::carry_of(v);
    }
    r.l[K - 1] = col[2 * K - 1] + c;  // the value is in [0, 2p): this top limb is >= 0
    return reduce_once(r);
  }

  // r - p when r >= p (r < 2p; limbs below 2^51 but the top one, which may hold one more bit).
  CUZK_GPU_FI static MontF64 reduce_once(const MontF64& r) {
    MontF64 s;
    uint64_t borrow = 0;
    CUZK_UNROLL
    for (int i = 0; i < K - 1; ++i) {
      const uint64_t d = r.l[i] - p(i) + borrow;
      s.l[i] = d & f64_detail::kMask;
      borrow = f64_detail::carry_of(d);
    }
    s.l[K - 1] = r.l[K - 1] - p(K - 1) + borrow;
    const uint64_t keep = f64_detail::carry_of(s.l[K - 1]) == 0 ? 0 : ~uint64_t{0};  // r < p
    CUZK_UNROLL
    for (int i = 0; i < K; ++i)
      s.l[i] = (r.l[i] & keep) | (s.l[i] & ~keep);
    return s;
  }

  // Raw limbs of an integer x < p given as Mont32's 32-bit words (no conversion of form).
  CUZK_GPU_FI static MontF64 from_words(const uint32_t (&w)[kN32]) {
    MontF64 r;
    CUZK_UNROLL
    for (int t = 0; t < K; ++t) {
      const int bit = f64_detail::kW * t, first = bit / 32, off = bit % 32;
      uint64_t v = 0;
      CUZK_UNROLL
      for (int s = 0; s < 3; ++s) {  // a 51-bit limb spans at most three words
        const int idx = first + s, sh = 32 * s - off;
        if (idx < kN32 && sh < 64) v |= sh >= 0 ? uint64_t{w[idx]} << sh : uint64_t{w[idx]} >> -sh;
      }
      r.l[t] = v & f64_detail::kMask;
    }
    return r;
  }
  // The inverse of from_words (this < 2^(32 kN32)).
  CUZK_GPU_FI void to_words(uint32_t (&w)[kN32]) const {
    CUZK_UNROLL
    for (int i = 0; i < kN32; ++i) {
      uint64_t v = 0;
      CUZK_UNROLL
      for (int t = 0; t < K; ++t) {
        const int sh = f64_detail::kW * t - 32 * i;  // limb t's bit 0 sits at bit sh of word i
        if (sh >= 32 || sh <= -f64_detail::kW) continue;
        v |= sh >= 0 ? l[t] << sh : l[t] >> -sh;  // bits past 32 are dropped below
      }
      w[i] = static_cast<uint32_t>(v);
    }
  }

  // Mont32 (x R_host) <-> MontF64 (x R'): one product each, for kernel boundaries.
  CUZK_GPU_FI static MontF64 from_mont32(const Mont32<HostField>& m) {
    MontF64 c;
    CUZK_UNROLL
    for (int i = 0; i < K; ++i)
      c.l[i] = to_f64_form(i);
    return mul(from_words(m.l), c);
  }
  CUZK_GPU_FI Mont32<HostField> to_mont32() const {
    MontF64 c;
    CUZK_UNROLL
    for (int i = 0; i < K; ++i)
      c.l[i] = to_host_form(i);
    Mont32<HostField> m;
    mul(*this, c).to_words(m.l);
    return m;
  }

  static MontF64 from_host(const HostField& f) {
    return from_mont32(Mont32<HostField>::from_host(f));
  }
  HostField to_host() const { return to_mont32().to_host(); }
};

}  // namespace cuzk::gpu
