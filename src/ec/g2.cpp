#include "ec/g2.hpp"

namespace cuzk {
namespace {

constexpr Fp2 kXi = {Fp::one(), Fp::one()};
constexpr auto kPMinus1 = sub_u64(Fp::kModulus, 1);
constexpr Fp2 kPsiX = kXi.pow(div_exact_u64(kPMinus1, 3)).inv();  // xi^-((p-1)/3)
constexpr Fp2 kPsiY = kXi.pow(div_exact_u64(kPMinus1, 2)).inv();  // xi^-((p-1)/2)

}  // namespace

// In Jacobian coordinates the Frobenius acts coordinate-wise (x = X/Z^2 -> X^p / (Z^p)^2).
G2Jacobian g2_psi(const G2Jacobian& p) {
  return {p.X.conjugate() * kPsiX, p.Y.conjugate() * kPsiY, p.Z.conjugate()};
}

G2Jacobian g2_mul(const G2Jacobian& p, const BigInt<4>& k_in) {
  BigInt<4> k = k_in;
  while (cmp(k, Fr::kModulus) >= 0)
    sub_with_borrow(k, k, Fr::kModulus);
  // Base-|x| digits: k < r < |x|^4.
  std::array<BigInt<1>, 4> d;
  for (size_t i = 0; i < 4; ++i) {
    u128 rem = 0;
    for (size_t l = 4; l-- > 0;) {
      const u128 cur = (rem << 64) | k.w[l];
      k.w[l] = static_cast<uint64_t>(cur / kBlsXAbs);
      rem = cur % kBlsXAbs;
    }
    d[i].w[0] = static_cast<uint64_t>(rem);
  }
  // [|x|^i] P = (-psi)^i (P).
  constexpr unsigned kWindow = 5;
  std::array<std::array<G2Jacobian, 1 << (kWindow - 2)>, 4> tables;
  odd_multiples(p, tables[0]);
  for (size_t t = 1; t < 4; ++t) {
    for (size_t i = 0; i < tables[t].size(); ++i)
      tables[t][i] = -g2_psi(tables[t - 1][i]);
  }
  std::array<std::array<int8_t, 65>, 4> digits{};
  size_t lens[4];
  for (size_t t = 0; t < 4; ++t)
    lens[t] = wnaf_digits(d[t], kWindow, std::span<int8_t, 65>(digits[t]));
  return interleaved_wnaf<G2Curve>(std::span<const std::array<G2Jacobian, 8>>(tables),
                                   std::span<const std::array<int8_t, 65>>(digits),
                                   std::span<const size_t>(lens));
}

bool g2_is_in_subgroup(const G2Jacobian& p) {
  if (!p.is_on_curve()) return false;
  return g2_psi(p) == -mul_by_x_abs(p);  // [x] P = -[|x|] P
}

G2Jacobian g2_clear_cofactor(const G2Jacobian& p) {
  // With x = -|x|: [x^2 - x - 1] P = [|x|^2 + |x| - 1] P and [x - 1] psi(P) = -psi([|x| + 1] P).
  const G2Jacobian t1 = mul_by_x_abs(p);   // [|x|] P
  const G2Jacobian t2 = mul_by_x_abs(t1);  // [|x|^2] P
  return t2 + t1 - p - g2_psi(t1 + p) + g2_psi(g2_psi(p.dbl()));
}

}  // namespace cuzk
