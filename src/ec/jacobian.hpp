// Jacobian<Curve>: (X, Y, Z) representing (X / Z^2, Y / Z^3); Z = 0 is the identity.
// Formulas for a = 0 short Weierstrass curves from the Explicit-Formulas Database (EFD).
#pragma once

#include <span>
#include <type_traits>
#include <vector>

#include "ec/affine.hpp"
#include "ec/jacobian_dbl_fp.hpp"

namespace cuzk {

template <class Curve>
struct Jacobian {
  using Field = typename Curve::Field;
  using AffinePoint = Affine<Curve>;

  Field X, Y, Z;  // default: Z = 0, the identity

  static constexpr Jacobian identity() { return {}; }
  static constexpr Jacobian generator() { return from_affine(AffinePoint::generator()); }
  static constexpr Jacobian from_affine(const AffinePoint& p) {
    if (p.is_identity()) return identity();
    return {p.x, p.y, Field::one()};
  }

  constexpr bool is_identity() const { return Z.is_zero(); }
  // Y^2 = X^3 + b Z^6
  constexpr bool is_on_curve() const {
    if (is_identity()) return true;
    const Field z2 = Z.sqr();
    const Field z6 = z2.sqr() * z2;
    return Y.sqr() == X.sqr() * X + Curve::kB * z6;
  }

  AffinePoint to_affine() const {
    if (is_identity()) return AffinePoint::identity();
    const Field zi = Z.inv();
    const Field zi2 = zi.sqr();
    return AffinePoint::from_xy(X * zi2, Y * zi2 * zi);
  }

  constexpr Jacobian operator-() const { return {X, -Y, Z}; }

  // dbl-2009-l: 2M + 5S. Over Fp with the mulx/adx kernels, the same formula with double-width
  // products (jacobian_dbl_fp.hpp; 1.33x -> 1.02x of blst's doubling, docs/perf-log.md
  // 2026-12-01 session 4).
  constexpr Jacobian dbl() const {
    if (is_identity()) return *this;
    if constexpr (std::is_same_v<Field, Fp>) {
      if (!std::is_constant_evaluated() && mont_detail::use_adx()) {
        Jacobian r;
        jacobian_dbl_fp(r.X, r.Y, r.Z, X, Y, Z);
        return r;
      }
    }
    const Field a = X.sqr();
    const Field b = Y.sqr();
    const Field c = b.sqr();
    const Field d = ((X + b).sqr() - a - c).dbl();
    const Field e = a.dbl() + a;
    const Field f = e.sqr();
    Jacobian r;
    r.X = f - d.dbl();
    r.Y = e * (d - r.X) - c.dbl().dbl().dbl();
    r.Z = (Y * Z).dbl();
    return r;
  }

  // add-2007-bl: 11M + 5S; falls back to doubling for P + P.
  constexpr Jacobian operator+(const Jacobian& o) const {
    if (is_identity()) return o;
    if (o.is_identity()) return *this;
    const Field z1z1 = Z.sqr();
    const Field z2z2 = o.Z.sqr();
    const Field u1 = X * z2z2;
    const Field u2 = o.X * z1z1;
    const Field s1 = Y * o.Z * z2z2;
    const Field s2 = o.Y * Z * z1z1;
    const Field h = u2 - u1;
    const Field rr = (s2 - s1).dbl();
    if (h.is_zero()) return rr.is_zero() ? dbl() : identity();
    const Field i = h.dbl().sqr();
    const Field j = h * i;
    const Field v = u1 * i;
    Jacobian r;
    r.X = rr.sqr() - j - v.dbl();
    r.Y = rr * (v - r.X) - (s1 * j).dbl();
    r.Z = ((Z + o.Z).sqr() - z1z1 - z2z2) * h;
    return r;
  }

  // Its tail is add-2007-bl's with Z2 = 1 (u1 = X, s1 = Y); written out, since the mixed
  // form, the MSMs' inner step, is the one that skips the Z2 products.
  // madd-2007-bl (second operand affine): 7M + 4S.
  constexpr Jacobian add_mixed(const AffinePoint& o) const {
    if (o.is_identity()) return *this;
    if (is_identity()) return from_affine(o);
    const Field z1z1 = Z.sqr();
    const Field u2 = o.x * z1z1;
    const Field s2 = o.y * Z * z1z1;
    const Field h = u2 - X;
    const Field rr = (s2 - Y).dbl();
    if (h.is_zero()) return rr.is_zero() ? dbl() : identity();
    const Field hh = h.sqr();
    const Field i = hh.dbl().dbl();
    const Field j = h * i;
    const Field v = X * i;
    Jacobian r;
    r.X = rr.sqr() - j - v.dbl();
    r.Y = rr * (v - r.X) - (Y * j).dbl();
    r.Z = (Z + h).sqr() - z1z1 - hh;
    return r;
  }

  constexpr Jacobian operator-(const Jacobian& o) const { return *this + (-o); }
  constexpr Jacobian& operator+=(const Jacobian& o) { return *this = *this + o; }

  // Same point, whatever the representatives: X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3.
  constexpr bool operator==(const Jacobian& o) const {
    if (is_identity() || o.is_identity()) return is_identity() == o.is_identity();
    const Field z1z1 = Z.sqr();
    const Field z2z2 = o.Z.sqr();
    return X * z2z2 == o.X * z1z1 && Y * z2z2 * o.Z == o.Y * z1z1 * Z;
  }
  constexpr bool operator==(const AffinePoint& o) const { return *this == from_affine(o); }
};

// Converts many points with one field inversion (Montgomery's trick over the Z coordinates).
template <class Curve>
void batch_to_affine(std::span<const Jacobian<Curve>> in, std::span<Affine<Curve>> out) {
  using Field = typename Curve::Field;
  std::vector<Field> zinv(in.size());
  for (size_t i = 0; i < in.size(); ++i)
    zinv[i] = in[i].Z;
  batch_invert(std::span<Field>(zinv));
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].is_identity()) {
      out[i] = Affine<Curve>::identity();
      continue;
    }
    const Field zi2 = zinv[i].sqr();
    out[i] = Affine<Curve>::from_xy(in[i].X * zi2, in[i].Y * zi2 * zinv[i]);
  }
}

}  // namespace cuzk
