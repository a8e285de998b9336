// The optimal ate pairing on BLS12-381: Miller loop over |x| and final exponentiation.
//
// Convention: final_exponentiation raises to 3 (p^12 - 1) / r, as blst, zkcrypto bls12_381,
// noble and snarkjs do, so Gt values (e.g. vk_alphabeta_12) agree with the ecosystem. That value
// is the cube of the textbook pairing; "product == 1" checks are the same in both conventions.
#pragma once

#include <span>
#include <utility>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ff/fp12.hpp"

namespace cuzk {

using Gt = Fp12;

// prod_i f_{|x|, Q_i}(P_i), conjugated for the negative x; pairs with an identity point
// contribute 1. The value is only meaningful after final_exponentiation.
Fp12 miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs);

// f^(3 (p^12 - 1) / r): easy part (p^6 - 1)(p^2 + 1), then the hard part through
// 3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3 with cyclotomic squarings.
Gt final_exponentiation(const Fp12& f);

Gt pairing(const G1Affine& p, const G2Affine& q);

// prod_i e(P_i, Q_i) with one shared Miller loop and one final exponentiation.
Gt multi_pairing(std::span<const std::pair<G1Affine, G2Affine>> pairs);

// Reference twin for tests: the same pairing computed with affine points mapped into E(Fp12)
// and full Fp12 line arithmetic, no twist tricks and no sparse products. Slow.
Fp12 miller_loop_reference(const G1Affine& p, const G2Affine& q);

}  // namespace cuzk
