// G1: the order-r subgroup of E(Fp): y^2 = x^3 + 4.
#pragma once

#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/xyzz.hpp"
#include "ff/fp.hpp"
#include "ff/fr.hpp"

namespace cuzk {

struct G1Curve {
  using Field = Fp;
  static constexpr Fp kB = Fp::from_u64(4);
  static constexpr Fp kGenX = Fp::from_hex(
      "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb"
      "22c6bb");
  static constexpr Fp kGenY = Fp::from_hex(
      "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946"
      "c5e7e1");
};

using G1Affine = Affine<G1Curve>;
using G1Jacobian = Jacobian<G1Curve>;
using G1Xyzz = Xyzz<G1Curve>;

// phi(x, y) = (beta x, y) with beta a primitive cube root of unity in Fp; on G1 it acts as
// multiplication by lambda = -x^2 mod r (beta chosen so; checked by a test against [lambda]G).
G1Jacobian g1_endomorphism(const G1Jacobian& p);

// k * p by GLV (k = k1 + k2 (x^2 - 1), two 128-bit halves). p must be in G1; k any 256-bit value
// (reduced mod r first). For points outside G1 use scalar_mul_wnaf.
G1Jacobian g1_mul(const G1Jacobian& p, const BigInt<4>& k);
inline G1Jacobian g1_mul(const G1Jacobian& p, const Fr& k) {
  return g1_mul(p, k.to_canonical());
}

// Membership in the order-r subgroup for a point on the curve: phi(P) == [-x^2] P (Scott,
// "A note on group membership tests for G1, G2 and GT", eprint 2021/1130).
bool g1_is_in_subgroup(const G1Jacobian& p);
inline bool g1_is_in_subgroup(const G1Affine& p) {
  return g1_is_in_subgroup(G1Jacobian::from_affine(p));
}

// Maps any point of E(Fp) into G1 by [1 - x] (the effective cofactor of RFC 9380).
G1Jacobian g1_clear_cofactor(const G1Jacobian& p);

}  // namespace cuzk
