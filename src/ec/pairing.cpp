#include "ec/pairing.hpp"

#include <bit>
#include <vector>

namespace cuzk {
namespace {

constexpr Fp kHalf = Fp::from_u64(2).inv();
constexpr Fp2 kB3 = {Fp::from_u64(12), Fp::from_u64(12)};  // 3 b' with b' = 4 (u + 1)

// G2 point on the twist in homogeneous projective coordinates: (X / Z, Y / Z).
struct G2Proj {
  Fp2 X, Y, Z;
};

// A line as the sparse Fp12 element l0 + l1 v + l4 v w, already evaluated at P. It is the
// true line function times w^3 and an Fp2 factor, both of which the final exponentiation kills.
struct Line {
  Fp2 l0, l1, l4;
};

// Doubling step (Costello, Lange, Naehrig, PKC 2010; homogeneous coordinates, a = 0):
// T <- 2T and the tangent line at T: (Y^2 - 3b'Z^2) - 3 X^2 xP v + 2 Y Z yP v w.
Line double_step(G2Proj& t, const Fp& xp, const Fp& yp) {
  const Fp2 a = (t.X * t.Y).mul_by_fp(kHalf);
  const Fp2 b = t.Y.sqr();
  const Fp2 c = t.Z.sqr();
  const Fp2 e = kB3 * c;
  const Fp2 f = e.dbl() + e;
  const Fp2 g = (b + f).mul_by_fp(kHalf);
  const Fp2 h = (t.Y + t.Z).sqr() - (b + c);
  const Fp2 x2 = t.X.sqr();
  const Fp2 e2 = e.sqr();
  Line l{b - e, -(x2.dbl() + x2).mul_by_fp(xp), h.mul_by_fp(yp)};
  t.X = a * (b - f);
  t.Y = g.sqr() - (e2.dbl() + e2);
  t.Z = b * h;
  return l;
}

// Mixed addition step: T <- T + Q and the line through T and Q:
// (theta xQ - lambda yQ) - theta xP v + lambda yP v w with theta = Y - yQ Z, lambda = X - xQ Z.
Line add_step(G2Proj& t, const G2Affine& q, const Fp& xp, const Fp& yp) {
  const Fp2 theta = t.Y - q.y * t.Z;
  const Fp2 lambda = t.X - q.x * t.Z;
  const Fp2 c = theta.sqr();
  const Fp2 d = lambda.sqr();
  const Fp2 e = lambda * d;
  const Fp2 f = t.Z * c;
  const Fp2 g = t.X * d;
  const Fp2 h = e + f - g.dbl();
  Line l{theta * q.x - lambda * q.y, -theta.mul_by_fp(xp), lambda.mul_by_fp(yp)};
  t.X = lambda * h;
  t.Y = theta * (g - h) - e * t.Y;
  t.Z = t.Z * e;
  return l;
}

// a^|x| for a in the cyclotomic subgroup, then conjugated: a^x with x = -|x|.
// |x| = 2^63 + 2^62 + 2^60 + 2^57 + 2^48 + 2^16: the 63 squarings run compressed (Karabina), the
// six powers a^(2^k) for the set bits are decompressed together and multiplied. Falls back to
// Granger-Scott squarings when a decompression does not apply (some g2 = 0, e.g. a = 1).
Fp12 cyclotomic_exp_by_x(const Fp12& a) {
  constexpr int kBits = 6;
  Fp12::Compressed saved[kBits];
  Fp12::Compressed c = a.compress();
  for (int k = 1, s = 0; k <= 63; ++k) {
    c = Fp12::compressed_sqr(c);
    if ((kBlsXAbs >> k) & 1) saved[s++] = c;
  }
  Fp12 pw[kBits];
  if (Fp12::decompress(saved, pw)) {
    Fp12 r = pw[0];
    for (int i = 1; i < kBits; ++i)
      r *= pw[i];
    return r.conjugate();
  }
  Fp12 r = a;
  for (int i = 62; i >= 0; --i) {
    r = r.cyclotomic_sqr();
    if ((kBlsXAbs >> i) & 1) r *= a;
  }
  return r.conjugate();
}
static_assert(std::popcount(kBlsXAbs) == 6 && (kBlsXAbs & 1) == 0);

}  // namespace

Fp12 miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
  struct Term {
    Fp xp, yp;
    G2Affine q;
    G2Proj t;
  };
  std::vector<Term> terms;
  terms.reserve(pairs.size());
  for (const auto& [p, q] : pairs) {
    if (p.is_identity() || q.is_identity()) continue;
    terms.push_back({p.x, p.y, q, {q.x, q.y, Fp2::one()}});
  }
  Fp12 f = Fp12::one();
  for (int i = 62; i >= 0; --i) {
    if (i != 62) f = f.sqr();
    for (Term& term : terms) {
      const Line l = double_step(term.t, term.xp, term.yp);
      f = f.mul_by_014(l.l0, l.l1, l.l4);
    }
    if ((kBlsXAbs >> i) & 1) {
      for (Term& term : terms) {
        const Line l = add_step(term.t, term.q, term.xp, term.yp);
        f = f.mul_by_014(l.l0, l.l1, l.l4);
      }
    }
  }
  return f.conjugate();  // x < 0: f_{x,Q} = 1 / f_{|x|,Q} up to factors the exponentiation kills
}

Gt final_exponentiation(const Fp12& f) {
  // Easy part: f^((p^6 - 1)(p^2 + 1)) lands in the cyclotomic subgroup.
  Fp12 a = f.conjugate() * f.inv();
  a = a.frobenius(2) * a;
  // Hard part.
  Fp12 t0 = cyclotomic_exp_by_x(a) * a.conjugate();           // a^(x - 1)
  t0 = cyclotomic_exp_by_x(t0) * t0.conjugate();              // a^((x - 1)^2)
  const Fp12 t1 = cyclotomic_exp_by_x(t0) * t0.frobenius(1);  // ^(x + p)
  const Fp12 t2 = cyclotomic_exp_by_x(cyclotomic_exp_by_x(t1)) * t1.frobenius(2) * t1.conjugate();
  return t2 * a.cyclotomic_sqr() * a;  // + 3
}

Gt pairing(const G1Affine& p, const G2Affine& q) {
  const std::pair<G1Affine, G2Affine> one[1] = {{p, q}};
  return final_exponentiation(miller_loop(one));
}

Gt multi_pairing(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
  return final_exponentiation(miller_loop(pairs));
}

Fp12 miller_loop_reference(const G1Affine& p, const G2Affine& q) {
  if (p.is_identity() || q.is_identity()) return Fp12::one();
  // Untwist: (x', y') -> (x' / w^2, y' / w^3) on E(Fp12): y^2 = x^3 + 4, since w^6 = xi.
  const auto embed2 = [](const Fp2& a) { return Fp12{{a, Fp2::zero(), Fp2::zero()}, Fp6::zero()}; };
  const auto embed1 = [&](const Fp& a) { return embed2({a, Fp::zero()}); };
  const Fp12 w = {Fp6::zero(), Fp6::one()};
  const Fp12 w2 = w.sqr();
  const Fp12 w3 = w2 * w;
  const Fp12 qx = embed2(q.x) * w2.inv();
  const Fp12 qy = embed2(q.y) * w3.inv();
  const Fp12 px = embed1(p.x);
  const Fp12 py = embed1(p.y);
  // Affine double-and-add; lines y - yT - slope (x - xT) evaluated at P, verticals dropped.
  Fp12 tx = qx, ty = qy, f = Fp12::one();
  const Fp12 three = embed1(Fp::from_u64(3));
  const Fp12 two = embed1(Fp::from_u64(2));
  for (int i = 62; i >= 0; --i) {
    Fp12 slope = three * tx.sqr() * (two * ty).inv();
    f = f.sqr() * (py - ty - slope * (px - tx));
    Fp12 nx = slope.sqr() - two * tx;
    ty = slope * (tx - nx) - ty;
    tx = nx;
    if ((kBlsXAbs >> i) & 1) {
      slope = (qy - ty) * (qx - tx).inv();
      f = f * (py - ty - slope * (px - tx));
      nx = slope.sqr() - tx - qx;
      ty = slope * (tx - nx) - ty;
      tx = nx;
    }
  }
  return f.conjugate();
}

}  // namespace cuzk
