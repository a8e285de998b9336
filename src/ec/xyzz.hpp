// Xyzz<Curve>: extended Jacobian (X, Y, ZZ, ZZZ) representing (X / ZZ, Y / ZZZ) with
// ZZ^3 = ZZZ^2; ZZ = 0 is the identity. The cheapest form for accumulating MSM buckets
// (mixed addition 8M + 2S with no doubling-only quantities). EFD "xyzz" formulas, a = 0.
#pragma once

#include "ec/jacobian.hpp"

namespace cuzk {

// Declared as Jacobian is (Field, AffinePoint, identity, from_affine, +, add_mixed, dbl): the
// same interface over another representation.
template <class Curve>
struct Xyzz {
  using Field = typename Curve::Field;
  using AffinePoint = Affine<Curve>;

  Field X, Y, ZZ, ZZZ;  // default: the identity

  static constexpr Xyzz identity() { return {}; }
  static constexpr Xyzz from_affine(const AffinePoint& p) {
    if (p.is_identity()) return identity();
    return {p.x, p.y, Field::one(), Field::one()};
  }
  constexpr bool is_identity() const { return ZZ.is_zero(); }

  // (X ZZ^2, Y ZZ^3, ZZZ) is a Jacobian representative, since ZZZ^2 = ZZ^3.
  constexpr Jacobian<Curve> to_jacobian() const {
    if (is_identity()) return Jacobian<Curve>::identity();
    const Field zz2 = ZZ.sqr();
    return {X * zz2, Y * zz2 * ZZ, ZZZ};
  }
  AffinePoint to_affine() const {
    if (is_identity()) return AffinePoint::identity();
    const Field zzz_inv = ZZZ.inv();
    const Field zz_inv = (zzz_inv * ZZ).sqr();  // (ZZ / ZZZ)^2 = 1 / ZZ
    return AffinePoint::from_xy(X * zz_inv, Y * zzz_inv);
  }

  constexpr Xyzz operator-() const { return {X, -Y, ZZ, ZZZ}; }

  // dbl-2008-s-1: 6M + 3S (U = 2Y, V = U^2, W = UV, S = XV, M = 3X^2).
  constexpr Xyzz dbl() const {
    if (is_identity()) return *this;
    const Field u = Y.dbl();
    const Field v = u.sqr();
    const Field w = u * v;
    const Field s = X * v;
    const Field x2 = X.sqr();
    const Field m = x2.dbl() + x2;
    Xyzz r;
    r.X = m.sqr() - s.dbl();
    r.Y = m * (s - r.X) - w * Y;
    r.ZZ = v * ZZ;
    r.ZZZ = w * ZZZ;
    return r;
  }

  // add-2008-s: 12M + 2S.
  constexpr Xyzz operator+(const Xyzz& o) const {
    if (is_identity()) return o;
    if (o.is_identity()) return *this;
    const Field u1 = X * o.ZZ;
    const Field u2 = o.X * ZZ;
    const Field s1 = Y * o.ZZZ;
    const Field s2 = o.Y * ZZZ;
    const Field p = u2 - u1;
    const Field rr = s2 - s1;
    if (p.is_zero()) return rr.is_zero() ? dbl() : identity();
    const Field pp = p.sqr();
    const Field ppp = p * pp;
    const Field q = u1 * pp;
    Xyzz r;
    r.X = rr.sqr() - ppp - q.dbl();
    r.Y = rr * (q - r.X) - s1 * ppp;
    r.ZZ = ZZ * o.ZZ * pp;
    r.ZZZ = ZZZ * o.ZZZ * ppp;
    return r;
  }

  // Its tail is add-2008-s's with ZZ2 = ZZZ2 = 1, written out for the same reason as
  // Jacobian::add_mixed (the bucket accumulation step).
  // madd-2008-s (second operand affine): 8M + 2S; mdbl-2008-s-1 when it equals this point.
  constexpr Xyzz add_mixed(const AffinePoint& o) const {
    if (o.is_identity()) return *this;
    if (is_identity()) return from_affine(o);
    const Field u2 = o.x * ZZ;
    const Field s2 = o.y * ZZZ;
    const Field p = u2 - X;
    const Field rr = s2 - Y;
    if (p.is_zero()) {
      if (!rr.is_zero()) return identity();
      const Field u = o.y.dbl();
      const Field v = u.sqr();
      const Field w = u * v;
      const Field s = o.x * v;
      const Field x2 = o.x.sqr();
      const Field m = x2.dbl() + x2;
      Xyzz r;
      r.X = m.sqr() - s.dbl();
      r.Y = m * (s - r.X) - w * o.y;
      r.ZZ = v;
      r.ZZZ = w;
      return r;
    }
    const Field pp = p.sqr();
    const Field ppp = p * pp;
    const Field q = X * pp;
    Xyzz r;
    r.X = rr.sqr() - ppp - q.dbl();
    r.Y = rr * (q - r.X) - Y * ppp;
    r.ZZ = ZZ * pp;
    r.ZZZ = ZZZ * ppp;
    return r;
  }

  constexpr bool operator==(const Xyzz& o) const { return to_jacobian() == o.to_jacobian(); }
  constexpr bool operator==(const Jacobian<Curve>& o) const { return to_jacobian() == o; }
};

}  // namespace cuzk
