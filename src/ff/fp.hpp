// Fp: the 381-bit base field of BLS12-381.
#pragma once

#include "ff/mont_field.hpp"

namespace cuzk {

struct FpParams {
  static constexpr size_t kLimbs = 6;
  // p = (x - 1)^2 (x^4 - x^2 + 1) / 3 + x with x = -0xd201000000010000
  static constexpr BigInt<6> kModulus = BigInt<6>::from_hex(
      "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffff"
      "ffaaab");
  static constexpr uint64_t kNonResidue = 2;  // unused: p = 3 mod 4 takes the a^((p+1)/4) root
};

using Fp = MontField<FpParams>;

}  // namespace cuzk
