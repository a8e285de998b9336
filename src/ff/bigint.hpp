// BigInt<N>: a fixed-width unsigned integer of N little-endian 64-bit limbs.
// Plain (non-modular) arithmetic used for canonical values, exponents and compile-time derivation
// of Montgomery constants. Everything is constexpr so field constants are computed, not pasted.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "util/hd.hpp"

#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
#include <x86intrin.h>
#define CUZK_HAVE_ADDCARRY_INTRINSICS 1
#else
#define CUZK_HAVE_ADDCARRY_INTRINSICS 0
#endif

namespace cuzk {

using u128 = unsigned __int128;

template <size_t N>
struct BigInt {
  static constexpr size_t kLimbs = N;
  uint64_t w[N] = {};  // w[0] is the least significant limb

  constexpr bool operator==(const BigInt&) const = default;

  CUZK_HD constexpr bool is_zero() const {
    uint64_t acc = 0;
    for (size_t i = 0; i < N; ++i)
      acc |= w[i];
    return acc == 0;
  }
  CUZK_HD constexpr bool bit(size_t i) const { return (w[i / 64] >> (i % 64)) & 1; }
  CUZK_HD constexpr bool is_odd() const { return w[0] & 1; }

  // Number of significant bits (0 for zero).
  CUZK_HD constexpr size_t num_bits() const {
    for (size_t i = N; i-- > 0;) {
      if (w[i] != 0) return i * 64 + 64 - static_cast<size_t>(__builtin_clzll(w[i]));
    }
    return 0;
  }

  CUZK_HD static constexpr BigInt from_u64(uint64_t v) {
    BigInt r;
    r.w[0] = v;
    return r;
  }

  // Parses "0x..." or plain hex, big-endian digits; throws (a compile error in constant
  // evaluation) on a bad digit or a value wider than N limbs.
  static constexpr BigInt from_hex(std::string_view s) {
    if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    if (s.empty()) throw std::invalid_argument("BigInt::from_hex: empty string");
    BigInt r;
    size_t bit = 0;
    for (size_t i = s.size(); i-- > 0;) {
      const char c = s[i];
      uint64_t d;
      if (c >= '0' && c <= '9') {
        d = static_cast<uint64_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        d = static_cast<uint64_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        d = static_cast<uint64_t>(c - 'A' + 10);
      } else {
        throw std::invalid_argument("BigInt::from_hex: not a hex digit");
      }
      if (bit >= 64 * N) {
        if (d != 0) throw std::invalid_argument("BigInt::from_hex: value too wide");
      } else {
        r.w[bit / 64] |= d << (bit % 64);
      }
      bit += 4;
    }
    return r;
  }
};

// Decimal digits of a value (no sign, no leading zeros; "0" for zero).
template <size_t N>
std::string to_decimal(BigInt<N> v) {
  constexpr uint64_t kChunk =
      10000000000000000000ULL;  // 10^19, the largest power of ten in 64 bits
  // 64N bits < 10^(20N): at most ceil(20N / 19) chunks of 19 digits, each written whole before
  // the leading zeros are trimmed (20N + 1 overflowed for values of 77+ digits: found by
  // fuzz_snarkjs_json under ASan).
  constexpr size_t kChunks = (20 * N + 18) / 19;
  char digits[19 * kChunks + 1];
  size_t n = 0;
  while (!v.is_zero()) {
    u128 rem = 0;
    for (size_t i = N; i-- > 0;) {
      const u128 cur = (rem << 64) | v.w[i];
      v.w[i] = static_cast<uint64_t>(cur / kChunk);
      rem = cur % kChunk;
    }
    auto chunk = static_cast<uint64_t>(rem);
    for (int d = 0; d < 19; ++d) {
      digits[n++] = static_cast<char>('0' + chunk % 10);
      chunk /= 10;
    }
  }
  while (n > 1 && digits[n - 1] == '0')
    --n;
  if (n == 0) digits[n++] = '0';
  std::string out(n, '0');
  for (size_t i = 0; i < n; ++i)
    out[i] = digits[n - 1 - i];
  return out;
}

// Parses a non-empty string of decimal digits; nullopt on any other character or overflow.
template <size_t N>
std::optional<BigInt<N>> from_decimal(std::string_view s) {
  if (s.empty()) return std::nullopt;
  BigInt<N> v;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    u128 carry = static_cast<uint64_t>(c - '0');
    for (size_t i = 0; i < N; ++i) {
      const u128 cur = static_cast<u128>(v.w[i]) * 10 + carry;
      v.w[i] = static_cast<uint64_t>(cur);
      carry = cur >> 64;
    }
    if (carry != 0) return std::nullopt;
  }
  return v;
}

// One limb of an add/adc or sub/sbb chain (the intrinsics where there are any).
inline unsigned char addc_u64(unsigned char c, uint64_t a, uint64_t b, uint64_t& out) {
#if CUZK_HAVE_ADDCARRY_INTRINSICS
  unsigned long long o;
  c = _addcarry_u64(c, a, b, &o);
  out = o;
  return c;
#else
  const u128 s = static_cast<u128>(a) + b + c;
  out = static_cast<uint64_t>(s);
  return static_cast<unsigned char>(s >> 64);
#endif
}
inline unsigned char subb_u64(unsigned char c, uint64_t a, uint64_t b, uint64_t& out) {
#if CUZK_HAVE_ADDCARRY_INTRINSICS
  unsigned long long o;
  c = _subborrow_u64(c, a, b, &o);
  out = o;
  return c;
#else
  const u128 d = static_cast<u128>(a) - b - c;
  out = static_cast<uint64_t>(d);
  return static_cast<unsigned char>((d >> 64) & 1);
#endif
}

// Comparison: -1, 0, 1.
template <size_t N>
CUZK_HD constexpr int cmp(const BigInt<N>& a, const BigInt<N>& b) {
  for (size_t i = N; i-- > 0;) {
    if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
  }
  return 0;
}

// r = a + b, returns the carry out.
// (The intrinsics give clean add/adc and sub/sbb chains; the 128-bit forms serve constant
// evaluation and other targets.)
template <size_t N>
CUZK_HD constexpr uint64_t add_with_carry(BigInt<N>& r, const BigInt<N>& a, const BigInt<N>& b) {
#if CUZK_HAVE_ADDCARRY_INTRINSICS
  if (!std::is_constant_evaluated()) {
    unsigned char carry = 0;
    for (size_t i = 0; i < N; ++i) {
      unsigned long long out;
      carry = _addcarry_u64(carry, a.w[i], b.w[i], &out);
      r.w[i] = out;
    }
    return carry;
  }
#endif
  u128 c = 0;
  for (size_t i = 0; i < N; ++i) {
    c += static_cast<u128>(a.w[i]) + b.w[i];
    r.w[i] = static_cast<uint64_t>(c);
    c >>= 64;
  }
  return static_cast<uint64_t>(c);
}

// r = a - b, returns the borrow out (1 if a < b). add_with_carry's twin, path for path (the
// _subborrow_u64 chain at run time, 128-bit arithmetic in constant evaluation): one template over
// both would hide which intrinsic runs.
template <size_t N>
CUZK_HD constexpr uint64_t sub_with_borrow(BigInt<N>& r, const BigInt<N>& a, const BigInt<N>& b) {
#if CUZK_HAVE_ADDCARRY_INTRINSICS
  if (!std::is_constant_evaluated()) {
    unsigned char borrow = 0;
    for (size_t i = 0; i < N; ++i) {
      unsigned long long out;
      borrow = _subborrow_u64(borrow, a.w[i], b.w[i], &out);
      r.w[i] = out;
    }
    return borrow;
  }
#endif
  uint64_t borrow = 0;
  for (size_t i = 0; i < N; ++i) {
    const u128 d = static_cast<u128>(a.w[i]) - b.w[i] - borrow;
    r.w[i] = static_cast<uint64_t>(d);
    borrow = static_cast<uint64_t>(d >> 64) & 1;
  }
  return borrow;
}

template <size_t N>
CUZK_HD constexpr BigInt<N> shr1(const BigInt<N>& a) {
  BigInt<N> r;
  for (size_t i = 0; i < N; ++i) {
    r.w[i] = a.w[i] >> 1;
    if (i + 1 < N) r.w[i] |= a.w[i + 1] << 63;
  }
  return r;
}

// Small-constant helpers for deriving exponents such as (p - 1) / 2 or (p + 1) / 4.
template <size_t N>
constexpr BigInt<N> add_u64(const BigInt<N>& a, uint64_t v) {
  BigInt<N> r;
  if (add_with_carry(r, a, BigInt<N>::from_u64(v)) != 0) throw std::overflow_error("add_u64");
  return r;
}
template <size_t N>
constexpr BigInt<N> sub_u64(const BigInt<N>& a, uint64_t v) {
  BigInt<N> r;
  if (sub_with_borrow(r, a, BigInt<N>::from_u64(v)) != 0) throw std::underflow_error("sub_u64");
  return r;
}
// Exact division by a small constant; throws when it is not exact.
template <size_t N>
constexpr BigInt<N> div_exact_u64(const BigInt<N>& a, uint64_t d) {
  BigInt<N> q;
  u128 rem = 0;
  for (size_t i = N; i-- > 0;) {
    const u128 cur = (rem << 64) | a.w[i];
    q.w[i] = static_cast<uint64_t>(cur / d);
    rem = cur % d;
  }
  if (rem != 0) throw std::domain_error("div_exact_u64: not exact");
  return q;
}

}  // namespace cuzk
