// G2: the order-r subgroup of the sextic (M-type) twist E'(Fp2): y^2 = x^3 + 4(u + 1).
#pragma once

#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/xyzz.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"

namespace cuzk {

struct G2Curve {
  using Field = Fp2;
  static constexpr Fp2 kB = {Fp::from_u64(4), Fp::from_u64(4)};
  static constexpr Fp2 kGenX = {Fp::from_hex("0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b45"
                                             "10b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
                                Fp::from_hex("0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5d"
                                             "a61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")};
  static constexpr Fp2 kGenY = {Fp::from_hex("0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d4"
                                             "29a695160d12c923ac9cc3baca289e193548608b82801"),
                                Fp::from_hex("0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267"
                                             "492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")};
};

// The G2 twin of g1.hpp: the same names over Fp2 on the twist, psi where G1 has phi.
using G2Affine = Affine<G2Curve>;
using G2Jacobian = Jacobian<G2Curve>;
using G2Xyzz = Xyzz<G2Curve>;

// psi = untwist o Frobenius o twist: psi(x, y) = (conj(x) xi^-((p-1)/3), conj(y) xi^-((p-1)/2)).
// On G2 it acts as multiplication by x (the BLS parameter), since p = x mod r.
G2Jacobian g2_psi(const G2Jacobian& p);

// k * p by 4-dimensional GLS: k = d0 + d1 |x| + d2 |x|^2 + d3 |x|^3 and [|x|] = -psi on G2.
// p must be in G2; k any 256-bit value (reduced mod r first). Otherwise use scalar_mul_wnaf.
G2Jacobian g2_mul(const G2Jacobian& p, const BigInt<4>& k);
inline G2Jacobian g2_mul(const G2Jacobian& p, const Fr& k) {
  return g2_mul(p, k.to_canonical());
}

// Membership in the order-r subgroup for a point on the twist: psi(P) == [x] P (Scott,
// eprint 2021/1130).
bool g2_is_in_subgroup(const G2Jacobian& p);
inline bool g2_is_in_subgroup(const G2Affine& p) {
  return g2_is_in_subgroup(G2Jacobian::from_affine(p));
}

// Maps any point of E'(Fp2) into G2 with the effective cofactor of RFC 9380 (Budroni-Pintore):
// [x^2 - x - 1] P + [x - 1] psi(P) + psi^2(2P).
G2Jacobian g2_clear_cofactor(const G2Jacobian& p);

}  // namespace cuzk
