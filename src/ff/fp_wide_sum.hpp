// Exact sums of double-width (12-limb) Fp products before one Montgomery reduction, as the lazy
// tower products use them (fp6_mul_lazy.cpp, tower.cpp's Fp4 square): the constant m p 2^s that
// shifts a signed sum into [0, p R), and the signed sum itself modulo 2^768.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "ff/fp.hpp"

namespace cuzk::fp_wide {

inline constexpr size_t kN = 6;       // limbs of an Fp value
inline constexpr size_t kW = 2 * kN;  // limbs of a double-width value

// m p 2^s as a 12-limb constant, for m p < 2^384 and s >= 320.
constexpr std::array<uint64_t, kW> shifted_multiple_of_p(uint64_t m, unsigned s) {
  uint64_t mp[kN + 1] = {};
  u128 carry = 0;
  for (size_t i = 0; i < kN; ++i) {
    const u128 c = static_cast<u128>(Fp::kModulus.w[i]) * m + carry;
    mp[i] = static_cast<uint64_t>(c);
    carry = c >> 64;
  }
  mp[kN] = static_cast<uint64_t>(carry);
  std::array<uint64_t, kW> k = {};
  const size_t limb = s / 64;
  const unsigned bit = s % 64;
  for (size_t i = 0; i + limb < kW && i <= kN; ++i) {
    k[i + limb] |= mp[i] << bit;
    if (bit != 0 && i + limb + 1 < kW) k[i + limb + 1] |= mp[i] >> (64 - bit);
  }
  return k;
}

// r = k + the terms with their signs (+1 / -1), modulo 2^768 (one carry chain per term).
template <int... Sign, class... T>
inline void combine(uint64_t r[kW], const std::array<uint64_t, kW>& k, const T*... t) {
  static_assert(sizeof...(Sign) == sizeof...(T));
  for (size_t i = 0; i < kW; ++i)
    r[i] = k[i];
  const auto one = [&](int sign, const uint64_t* x) {
    unsigned char c = 0;
    if (sign > 0) {
      for (size_t i = 0; i < kW; ++i)
        c = addc_u64(c, r[i], x[i], r[i]);
    } else {
      for (size_t i = 0; i < kW; ++i)
        c = subb_u64(c, r[i], x[i], r[i]);
    }
  };
  (one(Sign, t), ...);
}

}  // namespace cuzk::fp_wide
