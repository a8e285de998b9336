// Scalar multiplication by signed-window (wNAF) double-and-add, for any point on the curve and
// any integer scalar, plus the interleaved form that the endomorphism-based multiplications use.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "ec/jacobian.hpp"
#include "ff/bigint.hpp"

namespace cuzk {

// Width-w NAF of k: digits[i] is odd or zero, |digits[i]| < 2^(w-1), and any w consecutive
// digits hold at most one non-zero. Returns the number of digits (<= 64N + 1).
template <size_t N>
size_t wnaf_digits(const BigInt<N>& k, unsigned w, std::span<int8_t, 64 * N + 1> digits) {
  BigInt<N + 1> v;  // one spare limb: adding back a negative digit can carry past the top
  for (size_t i = 0; i < N; ++i)
    v.w[i] = k.w[i];
  const int64_t full = int64_t{1} << w;
  size_t len = 0;
  while (!v.is_zero()) {
    int64_t d = 0;
    if (v.is_odd()) {
      d = static_cast<int64_t>(v.w[0] & static_cast<uint64_t>(full - 1));
      if (d >= full / 2) d -= full;
      if (d > 0) {
        sub_with_borrow(v, v, BigInt<N + 1>::from_u64(static_cast<uint64_t>(d)));
      } else {
        add_with_carry(v, v, BigInt<N + 1>::from_u64(static_cast<uint64_t>(-d)));
      }
    }
    digits[len++] = static_cast<int8_t>(d);
    v = shr1(v);
  }
  return len;
}

// table[i] = (2i + 1) * p for i < size.
template <class Curve, size_t S>
void odd_multiples(const Jacobian<Curve>& p, std::array<Jacobian<Curve>, S>& table) {
  table[0] = p;
  const Jacobian<Curve> p2 = p.dbl();
  for (size_t i = 1; i < S; ++i)
    table[i] = table[i - 1] + p2;
}

// sum_j k_j * P_j with shared doublings (Straus), given each P_j's odd-multiple table and the
// wNAF digits of k_j.
template <class Curve, size_t S, size_t D>
Jacobian<Curve> interleaved_wnaf(std::span<const std::array<Jacobian<Curve>, S>> tables,
                                 std::span<const std::array<int8_t, D>> digits,
                                 std::span<const size_t> lengths) {
  size_t len = 0;
  for (size_t l : lengths)
    len = l > len ? l : len;
  Jacobian<Curve> r;
  for (size_t i = len; i-- > 0;) {
    r = r.dbl();
    for (size_t j = 0; j < tables.size(); ++j) {
      if (i >= lengths[j]) continue;
      const int d = digits[j][i];
      if (d > 0) r += tables[j][static_cast<size_t>(d / 2)];
      if (d < 0) r += -tables[j][static_cast<size_t>(-d / 2)];
    }
  }
  return r;
}

// k * p for any point on the curve and any k (no reduction modulo the group order is assumed).
template <class Curve, size_t N>
Jacobian<Curve> scalar_mul_wnaf(const Jacobian<Curve>& p, const BigInt<N>& k) {
  constexpr unsigned kWindow = 5;
  std::array<Jacobian<Curve>, 1 << (kWindow - 2)> table;
  odd_multiples(p, table);
  std::array<std::array<int8_t, 64 * N + 1>, 1> digits{};
  const size_t len[1] = {wnaf_digits(k, kWindow, std::span<int8_t, 64 * N + 1>(digits[0]))};
  return interleaved_wnaf<Curve>(
      std::span<const std::array<Jacobian<Curve>, table.size()>>(&table, 1),
      std::span<const std::array<int8_t, 64 * N + 1>>(digits), std::span<const size_t>(len));
}

// Multiplication by the 64-bit BLS parameter |x| = 0xd201000000010000 (6 bits set), plain
// double-and-add: 63 doublings + 5 additions. Used by subgroup checks and cofactor clearing.
inline constexpr uint64_t kBlsXAbs = 0xd201000000010000ULL;  // x = -|x|

template <class Curve>
Jacobian<Curve> mul_by_x_abs(const Jacobian<Curve>& p) {
  Jacobian<Curve> r = p;
  for (int i = 62; i >= 0; --i) {
    r = r.dbl();
    if ((kBlsXAbs >> i) & 1) r += p;
  }
  return r;
}

}  // namespace cuzk
