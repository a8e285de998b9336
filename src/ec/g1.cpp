#include "ec/g1.hpp"

namespace cuzk {
namespace {

// beta^3 = 1, beta != 1, with (beta x, y) = [-x^2 mod r](x, y) on G1.
constexpr Fp kBeta = Fp::from_hex(
    "0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe");
constexpr Fp kBeta2 = kBeta.sqr();  // acts as lambda^2 = x^2 - 1
// x^2 - 1 (128 bits): the GLV modulus; [x^2 - 1] P = (beta^2 x, y).
constexpr u128 kLambda2 = (static_cast<u128>(0xac45a4010001a402ULL) << 64) | 0x00000000ffffffffULL;

BigInt<4> reduce_mod_r(BigInt<4> k) {
  while (cmp(k, Fr::kModulus) >= 0)
    sub_with_borrow(k, k, Fr::kModulus);  // at most twice
  return k;
}

}  // namespace

G1Jacobian g1_endomorphism(const G1Jacobian& p) {
  return {p.X * kBeta, p.Y, p.Z};
}

G1Jacobian g1_mul(const G1Jacobian& p, const BigInt<4>& k_in) {
  const BigInt<4> k = reduce_mod_r(k_in);
  // k = k2 * lambda2 + k1 by binary long division (k < 2^255, lambda2 ~ 2^127.4).
  u128 rem = 0, quo = 0;
  for (size_t i = k.num_bits(); i-- > 0;) {
    const bool top = rem >> 127;
    rem = (rem << 1) | static_cast<u128>(k.bit(i));
    quo <<= 1;
    if (top || rem >= kLambda2) {
      rem -= kLambda2;
      quo |= 1;
    }
  }
  const auto to_big = [](u128 v) {
    BigInt<2> b;
    b.w[0] = static_cast<uint64_t>(v);
    b.w[1] = static_cast<uint64_t>(v >> 64);
    return b;
  };
  constexpr unsigned kWindow = 5;
  std::array<std::array<G1Jacobian, 1 << (kWindow - 2)>, 2> tables;
  odd_multiples(p, tables[0]);
  for (size_t i = 0; i < tables[0].size(); ++i)
    tables[1][i] = {tables[0][i].X * kBeta2, tables[0][i].Y, tables[0][i].Z};
  std::array<std::array<int8_t, 129>, 2> digits{};
  const size_t lens[2] = {wnaf_digits(to_big(rem), kWindow, std::span<int8_t, 129>(digits[0])),
                          wnaf_digits(to_big(quo), kWindow, std::span<int8_t, 129>(digits[1]))};
  return interleaved_wnaf<G1Curve>(std::span<const std::array<G1Jacobian, 8>>(tables),
                                   std::span<const std::array<int8_t, 129>>(digits),
                                   std::span<const size_t>(lens));
}

bool g1_is_in_subgroup(const G1Jacobian& p) {
  if (!p.is_on_curve()) return false;
  return g1_endomorphism(p) == -mul_by_x_abs(mul_by_x_abs(p));
}

G1Jacobian g1_clear_cofactor(const G1Jacobian& p) {
  return mul_by_x_abs(p) + p;
}

}  // namespace cuzk
