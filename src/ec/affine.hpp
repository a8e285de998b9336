// Affine<Curve>: a point (x, y) on y^2 = x^3 + b, or the point at infinity.
//
// The point at infinity is marked by x's spare bit (the top bit of its top limb, never set in a
// field element), not by a flag of its own: a point is its two coordinates, 96 bytes in G1 and
// 192 in G2, the bytes the GPU's kernels read and what crosses the bus when bases stream. A bool
// flag made them 104 and 200 (its padding): 7.7% of every G1 base on the host, on the device and
// over PCIe.
#pragma once

namespace cuzk {

template <class Curve>
struct Affine {
  using Field = typename Curve::Field;

  Field x = Field::with_spare_bit();  // default: the identity
  Field y{};

  static constexpr Affine identity() { return {}; }
  static constexpr Affine generator() { return {Curve::kGenX, Curve::kGenY}; }
  static constexpr Affine from_xy(const Field& x, const Field& y) { return {x, y}; }

  constexpr bool is_identity() const { return x.spare_bit(); }
  constexpr bool is_on_curve() const { return is_identity() || y.sqr() == x.sqr() * x + Curve::kB; }
  constexpr Affine operator-() const { return is_identity() ? *this : Affine{x, -y}; }
  constexpr bool operator==(const Affine& o) const {
    if (is_identity() || o.is_identity()) return is_identity() == o.is_identity();
    return x == o.x && y == o.y;
  }
};

}  // namespace cuzk
