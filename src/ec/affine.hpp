// Affine<Curve>: a point (x, y) on y^2 = x^3 + b, or the point at infinity.
#pragma once

namespace cuzk {

template <class Curve>
struct Affine {
  using Field = typename Curve::Field;

  Field x, y;
  bool infinity = true;  // a default-constructed point is the identity

  static constexpr Affine identity() { return {}; }
  static constexpr Affine generator() { return {Curve::kGenX, Curve::kGenY, false}; }
  static constexpr Affine from_xy(const Field& x, const Field& y) { return {x, y, false}; }

  constexpr bool is_identity() const { return infinity; }
  constexpr bool is_on_curve() const { return infinity || y.sqr() == x.sqr() * x + Curve::kB; }
  constexpr Affine operator-() const { return infinity ? *this : Affine{x, -y, false}; }
  constexpr bool operator==(const Affine& o) const {
    if (infinity || o.infinity) return infinity == o.infinity;
    return x == o.x && y == o.y;
  }
};

}  // namespace cuzk
