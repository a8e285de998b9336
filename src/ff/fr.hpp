// Fr: the 255-bit scalar field of BLS12-381 (the field of Groth16 witnesses and Filecoin values).
#pragma once

#include "ff/mont_field.hpp"

namespace cuzk {

struct FrParams {
  static constexpr size_t kLimbs = 4;
  // r = x^4 - x^2 + 1 with x = -0xd201000000010000
  static constexpr BigInt<4> kModulus =
      BigInt<4>::from_hex("0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
  // Smallest quadratic non-residue; only Tonelli-Shanks uses it.
  static constexpr uint64_t kNonResidue = 5;
  // Multiplicative generator used by bellman/bellperson/blstrs for evaluation domains.
  static constexpr uint64_t kGenerator = 7;
};

using Fr = MontField<FrParams>;

// omega of order 2^32 (= 7^t with r - 1 = 2^32 t); omega_{2^k} = omega^(2^(32 - k)).
inline constexpr Fr kFrTwoAdicRoot = Fr::from_u64(FrParams::kGenerator).pow(Fr::kOddPart);
static_assert(Fr::kTwoAdicity == 32);

}  // namespace cuzk
