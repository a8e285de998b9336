// Shared helpers of the ec property tests: GMP-derived group constants, random points (in the
// subgroup, and anywhere on the curve by trial x), representative scaling and gtest printers.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/fp12.hpp"

namespace cuzk {

// ---- gtest printers (found by ADL for the cuzk types) ----

inline std::string to_str(const Fp& a) {
  return a.to_hex();
}
inline std::string to_str(const Fp2& a) {
  std::string s = "{";  // appended piecewise: "{" + std::string trips GCC 12's -Wrestrict at -O3
  s += a.c0.to_hex();
  s += ", ";
  s += a.c1.to_hex();
  s += "}";
  return s;
}
template <class Curve>
void PrintTo(const Affine<Curve>& p, std::ostream* os) {
  if (p.is_identity()) {
    *os << "(infinity)";
  } else {
    *os << "(" << to_str(p.x) << ", " << to_str(p.y) << ")";
  }
}
template <class Curve>
void PrintTo(const Jacobian<Curve>& p, std::ostream* os) {
  *os << "jacobian ";
  PrintTo(p.to_affine(), os);
}
template <class Curve>
void PrintTo(const Xyzz<Curve>& p, std::ostream* os) {
  *os << "xyzz ";
  PrintTo(p.to_affine(), os);
}
inline void PrintTo(const Fp12& f, std::ostream* os) {
  const Fp2 c[6] = {f.c0.c0, f.c0.c1, f.c0.c2, f.c1.c0, f.c1.c1, f.c1.c2};
  *os << "[";
  for (const Fp2& x : c)
    *os << to_str(x) << " ";
  *os << "]";
}

namespace ec_test {

// ---- GMP bridge ----

template <size_t N>
mpz_class to_mpz(const BigInt<N>& v) {
  mpz_class r;
  mpz_import(r.get_mpz_t(), N, -1, sizeof(uint64_t), 0, 0, v.w);
  return r;
}

template <size_t N>
BigInt<N> from_mpz(const mpz_class& v) {
  if (sgn(v) < 0 || mpz_sizeinbase(v.get_mpz_t(), 2) > 64 * N) {
    throw std::out_of_range("from_mpz: value does not fit");
  }
  BigInt<N> r;
  size_t count = 0;
  mpz_export(r.w, &count, -1, sizeof(uint64_t), 0, 0, v.get_mpz_t());
  return r;
}

// ---- group constants, derived from the BLS parameter x = -0xd201000000010000 ----

inline mpz_class bls_x() {
  return -mpz_class("d201000000010000", 16);
}
inline mpz_class group_order() {  // r = x^4 - x^2 + 1
  const mpz_class x = bls_x();
  return x * x * x * x - x * x + 1;
}
inline mpz_class g1_cofactor() {  // h1 = (x - 1)^2 / 3
  const mpz_class x = bls_x();
  return (x - 1) * (x - 1) / 3;
}
inline mpz_class g2_cofactor() {  // h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9
  const mpz_class x = bls_x();
  mpz_class x2 = x * x, x3 = x2 * x, x4 = x2 * x2;
  return (x4 * x4 - 4 * x4 * x3 + 5 * x4 * x2 - 4 * x4 + 6 * x3 - 4 * x2 - 4 * x + 13) / 9;
}

// ---- per-curve dispatch ----

template <class Curve>
struct CurveOps;

template <>
struct CurveOps<G1Curve> {
  static G1Jacobian endo_mul(const G1Jacobian& p, const BigInt<4>& k) { return g1_mul(p, k); }
  static bool in_subgroup(const G1Jacobian& p) { return g1_is_in_subgroup(p); }
  static bool in_subgroup(const G1Affine& p) { return g1_is_in_subgroup(p); }
  static G1Jacobian clear_cofactor(const G1Jacobian& p) { return g1_clear_cofactor(p); }
  static mpz_class cofactor() { return g1_cofactor(); }
  // RFC 9380, 8.8.1: h_eff = 1 - x.
  static mpz_class effective_cofactor() { return 1 - bls_x(); }
};

template <>
struct CurveOps<G2Curve> {
  static G2Jacobian endo_mul(const G2Jacobian& p, const BigInt<4>& k) { return g2_mul(p, k); }
  static bool in_subgroup(const G2Jacobian& p) { return g2_is_in_subgroup(p); }
  static bool in_subgroup(const G2Affine& p) { return g2_is_in_subgroup(p); }
  static G2Jacobian clear_cofactor(const G2Jacobian& p) { return g2_clear_cofactor(p); }
  static mpz_class cofactor() { return g2_cofactor(); }
  // RFC 9380, 8.8.2 (Budroni-Pintore): h_eff = 3 (x^2 - 1) h2.
  static mpz_class effective_cofactor() {
    const mpz_class x = bls_x();
    return 3 * (x * x - 1) * g2_cofactor();
  }
};

// ---- points ----

template <class Curve>
Jacobian<Curve> mul(const Jacobian<Curve>& p, const mpz_class& k) {
  return scalar_mul_wnaf(p, from_mpz<16>(k));
}

// generator * (random scalar): a uniformly random point of the order-r subgroup.
template <class Curve, class Rng>
Jacobian<Curve> random_subgroup_point(Rng& rng) {
  return scalar_mul_wnaf(Jacobian<Curve>::generator(), Fr::random(rng).to_canonical());
}

// A random point of E(F) by trial: random x until x^3 + b is a square. Outside the subgroup with
// overwhelming probability (1 / cofactor).
template <class Curve, class Rng>
Affine<Curve> random_curve_point(Rng& rng) {
  using Field = typename Curve::Field;
  for (;;) {
    const Field x = Field::random(rng);
    const auto y = (x.sqr() * x + Curve::kB).sqrt();
    if (!y) continue;
    return Affine<Curve>::from_xy(x, (rng() & 1) ? *y : -*y);
  }
}

template <class Field, class Rng>
Field random_nonzero(Rng& rng) {
  for (;;) {
    const Field f = Field::random(rng);
    if (!f.is_zero()) return f;
  }
}

// The same point with Z scaled by l: (X l^2, Y l^3, Z l).
template <class Curve>
Jacobian<Curve> rescale(const Jacobian<Curve>& p, const typename Curve::Field& l) {
  const auto l2 = l.sqr();
  return {p.X * l2, p.Y * l2 * l, p.Z * l};
}

// An xyzz representative (x l^2, y l^3, l^2, l^3) of an affine point.
template <class Curve>
Xyzz<Curve> to_xyzz(const Affine<Curve>& p, const typename Curve::Field& l) {
  if (p.is_identity()) return Xyzz<Curve>::identity();
  const auto l2 = l.sqr();
  const auto l3 = l2 * l;
  return {p.x * l2, p.y * l3, l2, l3};
}

}  // namespace ec_test
}  // namespace cuzk
