// Variable-time modular inversion by a binary extended GCD on 62-bit chunks (after T. Pornin,
// "Optimized Binary GCD for Modular Inversion", eprint 2020/972).
//
// Each round runs 62 binary-GCD steps on 126-bit approximations of (a, b) -- their exact low 62
// bits and their top 64 bits -- and records them as a 2x2 matrix of signed 64-bit factors; the
// matrix is then applied once to the full-width a, b and to the Bezout coefficients u, v. The
// coefficients are divided by 2^62 each round Montgomery-style (add a multiple of m that clears
// the low 62 bits, shift), which keeps the invariants a = x u, b = x v (mod m) exact, so no
// correction factor is needed at the end. Variable time: it stops as soon as a reaches zero.
// Not constant time, like the rest of the field code (see mont_field.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"

namespace cuzk::binv_detail {

inline constexpr unsigned kSteps = 62;
inline constexpr uint64_t kLow62 = (1ULL << kSteps) - 1;

// r[0..N] = a[0..N-1] * f + b[0..N-1] * g as a two's-complement (N+1)-limb integer. The caller
// guarantees |a f + b g| < 2^(64N + 63), which holds for a, b < 2^(64N) and |f| + |g| <= 2^62.
template <size_t N>
inline void lin_comb(uint64_t r[N + 1], const uint64_t a[N], int64_t f, const uint64_t b[N],
                     int64_t g) {
  // a * f = a * (f mod 2^64) - [f < 0] a 2^64, likewise for b * g.
  const uint64_t uf = static_cast<uint64_t>(f);
  const uint64_t ug = static_cast<uint64_t>(g);
  uint64_t ca = 0, cb = 0;
  unsigned char c = 0;
  for (size_t i = 0; i < N; ++i) {
    const u128 pa = static_cast<u128>(a[i]) * uf + ca;
    const u128 pb = static_cast<u128>(b[i]) * ug + cb;
    ca = static_cast<uint64_t>(pa >> 64);
    cb = static_cast<uint64_t>(pb >> 64);
    c = addc_u64(c, static_cast<uint64_t>(pa), static_cast<uint64_t>(pb), r[i]);
  }
  addc_u64(c, ca, cb, r[N]);
  if (f < 0) {
    unsigned char br = 0;
    for (size_t i = 0; i < N; ++i) {
      br = subb_u64(br, r[i + 1], a[i], r[i + 1]);
    }
  }
  if (g < 0) {
    unsigned char br = 0;
    for (size_t i = 0; i < N; ++i) {
      br = subb_u64(br, r[i + 1], b[i], r[i + 1]);
    }
  }
}

// out[0..N-1] = r >> 62 (r an (N+1)-limb two's-complement value whose result fits N limbs
// signed); returns true when the result is negative, in which case out holds it modulo 2^(64N).
template <size_t N>
inline bool shr62(uint64_t out[N], const uint64_t r[N + 1]) {
  for (size_t i = 0; i < N; ++i)
    out[i] = (r[i] >> kSteps) | (r[i + 1] << (64 - kSteps));
  return static_cast<int64_t>(r[N]) < 0;
}

template <size_t N>
inline void negate(uint64_t x[N]) {
  unsigned char br = 0;
  for (size_t i = 0; i < N; ++i) {
    br = subb_u64(br, 0, x[i], x[i]);
  }
}

// (u f + v g) / 2^62 mod m, in [0, m). minv = -m^-1 mod 2^64 (its low 62 bits are -m^-1 mod
// 2^62). |u f + v g| <= m 2^62 and the added multiple of m is below m 2^62, so the quotient lies
// in (-m, 2m): one correction.
template <size_t N>
inline void update_coeff(uint64_t out[N], const uint64_t u[N], int64_t f, const uint64_t v[N],
                         int64_t g, const uint64_t m[N], uint64_t minv) {
  uint64_t t[N + 1];
  lin_comb<N>(t, u, f, v, g);
  const uint64_t q = (t[0] * minv) & kLow62;
  uint64_t carry = 0;
  unsigned char c = 0;
  for (size_t i = 0; i < N; ++i) {
    const u128 p = static_cast<u128>(m[i]) * q + carry;
    carry = static_cast<uint64_t>(p >> 64);
    c = addc_u64(c, t[i], static_cast<uint64_t>(p), t[i]);
  }
  addc_u64(c, t[N], carry, t[N]);
  const bool neg = shr62<N>(out, t);
  if (neg) {
    unsigned char cc = 0;
    for (size_t i = 0; i < N; ++i) {
      cc = addc_u64(cc, out[i], m[i], out[i]);
    }
    return;
  }
  uint64_t d[N];
  unsigned char br = 0;
  for (size_t i = 0; i < N; ++i) {
    br = subb_u64(br, out[i], m[i], d[i]);
  }
  if (br == 0) {
    for (size_t i = 0; i < N; ++i)
      out[i] = d[i];
  }
}

// A 126-bit approximation of a multi-limb value, as two words.
struct Approx {
  uint64_t lo, hi;
};

// x's exact low 62 bits, and bits [n - 64, n) above them (n >= 127).
template <size_t N>
inline Approx approx(const uint64_t x[N], size_t n) {
  const size_t s = n - 64;
  const size_t w = s / 64, sh = s % 64;
  uint64_t top = x[w] >> sh;
  if (sh != 0 && w + 1 < N) top |= x[w + 1] << (64 - sh);
  return {(x[0] & kLow62) | (top << kSteps), top >> (64 - kSteps)};
}

// The update matrix of 62 binary-GCD steps: afterwards a' 2^62 = a f0 + b g0 and
// b' 2^62 = a f1 + b g1 (exactly, when a and b agree with their approximations in the low 62
// bits). One step: if a is odd, (a, b) <- (|a - b|, min(a, b)) with the rows to match, then
// a <- a / 2; the steps that only halve are taken together with one count-trailing-zeros.
struct Matrix {
  int64_t f0, g0, f1, g1;
};
inline Matrix steps62(Approx a, Approx b) {
  int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
  unsigned j = kSteps;
  // Shifts a right by z <= 62 and counts z steps (f1, g1 double once a step).
  const auto shift = [&](unsigned z) {
    a.lo = (a.lo >> z) | ((a.hi << (63 - z)) << 1);
    a.hi >>= z;
    f1 = static_cast<int64_t>(static_cast<uint64_t>(f1) << z);
    g1 = static_cast<int64_t>(static_cast<uint64_t>(g1) << z);
    j -= z;
  };
  const auto trailing = [&](uint64_t lo) {  // trailing zeros, at most j (a = 0 ends the round)
    const unsigned z = lo != 0 ? static_cast<unsigned>(__builtin_ctzll(lo)) : 64;
    return z < j ? z : j;
  };
  shift(trailing(a.lo));
  while (j > 0) {
    // d = a - b; a < b exactly when it borrows. a and b are odd here, so d is even, and -d has
    // the same trailing zeros as d. Branch-free (a branch on a < b mispredicts half the time).
    uint64_t dlo, dhi;
    const unsigned char br = subb_u64(subb_u64(0, a.lo, b.lo, dlo), a.hi, b.hi, dhi);
    const uint64_t mask = 0 - static_cast<uint64_t>(br);
    const unsigned z = trailing(dlo);
    b.lo ^= (a.lo ^ b.lo) & mask;  // b <- min(a, b)
    b.hi ^= (a.hi ^ b.hi) & mask;
    // a <- |d| = (d ^ mask) - mask; the borrow into the high word only when dlo = 0.
    a.lo = (dlo ^ mask) - mask;
    a.hi = (dhi ^ mask) + (mask & static_cast<uint64_t>(dlo == 0));
    const int64_t sm = static_cast<int64_t>(mask);
    const int64_t df = f0 - f1, dg = g0 - g1;
    f1 ^= (f0 ^ f1) & sm;
    g1 ^= (g0 ^ g1) & sm;
    f0 = (df ^ sm) - sm;
    g0 = (dg ^ sm) - sm;
    shift(z);
  }
  return {f0, g0, f1, g1};
}

template <size_t N>
inline size_t bit_length(const uint64_t x[N]) {
  for (size_t i = N; i-- > 0;) {
    if (x[i] != 0) return i * 64 + 64 - static_cast<size_t>(__builtin_clzll(x[i]));
  }
  return 0;
}

}  // namespace cuzk::binv_detail

namespace cuzk {

// x^-1 mod m for an odd m < 2^(64N - 1) and 0 < x < m with gcd(x, m) = 1; returns false (and
// leaves out unspecified) if the GCD is not 1 or the round bound is hit (neither happens for a
// prime m). minv = -m^-1 mod 2^64. Variable time.
template <size_t N>
bool binary_inverse(BigInt<N>& out, const BigInt<N>& x, const BigInt<N>& m, uint64_t minv) {
  using namespace binv_detail;
  uint64_t a[N], b[N], u[N] = {1}, v[N] = {};
  for (size_t i = 0; i < N; ++i) {
    a[i] = x.w[i];
    b[i] = m.w[i];
  }
  // A round normally takes ~62 bits off len(a) + len(b) (at most 2 * 64N bits to remove); the
  // bound is twice that and only guards against misuse (the caller falls back to Fermat).
  constexpr int kMaxRounds = static_cast<int>((4 * 64 * N) / kSteps) + 4;
  for (int round = 0; round < kMaxRounds; ++round) {
    uint64_t ab[N];
    uint64_t any = 0;
    for (size_t i = 0; i < N; ++i) {
      ab[i] = a[i] | b[i];
      any |= a[i];
    }
    if (any == 0) break;
    const size_t n = bit_length<N>(ab);
    Approx ap, bp;
    if (n <= 2 * kSteps + 2) {  // a, b < 2^126: the "approximations" are exact
      ap = {a[0], N > 1 ? a[1 % N] : 0};
      bp = {b[0], N > 1 ? b[1 % N] : 0};
    } else {
      ap = approx<N>(a, n);
      bp = approx<N>(b, n);
    }
    auto [f0, g0, f1, g1] = steps62(ap, bp);
    uint64_t t[N + 1];
    uint64_t na[N], nb[N];
    lin_comb<N>(t, a, f0, b, g0);
    if (shr62<N>(na, t)) {
      negate<N>(na);
      f0 = -f0;
      g0 = -g0;
    }
    lin_comb<N>(t, a, f1, b, g1);
    if (shr62<N>(nb, t)) {
      negate<N>(nb);
      f1 = -f1;
      g1 = -g1;
    }
    uint64_t nu[N], nv[N];
    update_coeff<N>(nu, u, f0, v, g0, m.w, minv);
    update_coeff<N>(nv, u, f1, v, g1, m.w, minv);
    for (size_t i = 0; i < N; ++i) {
      a[i] = na[i];
      b[i] = nb[i];
      u[i] = nu[i];
      v[i] = nv[i];
    }
  }
  for (size_t i = 0; i < N; ++i) {
    if (a[i] != 0 || b[i] != (i == 0 ? 1u : 0u)) return false;
  }
  for (size_t i = 0; i < N; ++i)
    out.w[i] = v[i];
  return true;
}

}  // namespace cuzk
