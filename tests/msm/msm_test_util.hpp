// Shared helpers of the msm tests: seeded random bases and scalars, the naive oracle over Fr,
// and gtest printers.
#pragma once

#include <cstdint>
#include <ostream>
#include <random>
#include <span>
#include <vector>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ec/msm_naive.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/fr.hpp"

namespace cuzk {

template <class Curve>
void PrintTo(const Jacobian<Curve>& p, std::ostream* os) {
  const Affine<Curve> a = p.to_affine();
  if (a.is_identity()) {
    *os << "(infinity)";
    return;
  }
  if constexpr (requires { a.x.to_hex(); }) {
    *os << "(" << a.x.to_hex() << ", " << a.y.to_hex() << ")";
  } else {
    *os << "(" << a.x.to_string() << ", " << a.y.to_string() << ")";
  }
}

namespace msm_test {

inline BigInt<4> random_u256(std::mt19937_64& rng) {
  BigInt<4> k;
  for (auto& w : k.w)
    w = rng();
  return k;
}

// n points of the prime-order subgroup: a random walk from a random multiple of the generator by
// 16 random steps (cheap: one addition per point, one inversion for all).
template <class Curve>
std::vector<Affine<Curve>> random_bases(size_t n, std::mt19937_64& rng) {
  const Jacobian<Curve> g = Jacobian<Curve>::generator();
  Jacobian<Curve> steps[16];
  for (auto& s : steps)
    s = scalar_mul_wnaf(g, random_u256(rng));
  std::vector<Jacobian<Curve>> jac(n);
  Jacobian<Curve> p = scalar_mul_wnaf(g, random_u256(rng));
  for (size_t i = 0; i < n; ++i) {
    jac[i] = p;
    p += steps[rng() % 16];
  }
  std::vector<Affine<Curve>> out(n);
  batch_to_affine<Curve>(jac, out);
  return out;
}

inline std::vector<Fr> random_scalars(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> s(n);
  for (auto& x : s)
    x = Fr::random(rng);
  return s;
}

inline std::vector<BigInt<4>> canonical(std::span<const Fr> s) {
  std::vector<BigInt<4>> out(s.size());
  for (size_t i = 0; i < s.size(); ++i)
    out[i] = s[i].to_canonical();
  return out;
}

template <class Curve>
Jacobian<Curve> naive(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars) {
  const std::vector<BigInt<4>> k = canonical(scalars);
  return msm_naive<Curve, 4>(bases, std::span<const BigInt<4>>(k));
}

}  // namespace msm_test
}  // namespace cuzk
