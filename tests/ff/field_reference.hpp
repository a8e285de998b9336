// GMP's answers for one prime field (MontField), computed from the modulus alone: the constants
// R and R^-1, inverses, powers, the edge values every property test crosses, random values over
// every limb; and Matches, the assertion that an element is fully reduced, has the expected value
// and carries it as value * R mod p.
#pragma once

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ff_test_util.hpp"

namespace cuzk::ff_test {

inline std::string hex(const mpz_class& v) {
  return "0x" + v.get_str(16);
}

// Big-endian bytes of v, zero-padded to B bytes, by mpz_export.
template <size_t B>
std::array<uint8_t, B> gmp_export_be(const mpz_class& v) {
  std::array<uint8_t, B> out{};
  const size_t len = v == 0 ? 0 : (mpz_sizeinbase(v.get_mpz_t(), 2) + 7) / 8;
  if (len > B) throw std::out_of_range("gmp_export_be: value does not fit");
  size_t count = 0;
  mpz_export(out.data() + (B - len), &count, 1, 1, 1, 0, v.get_mpz_t());
  return out;
}

template <size_t B>
std::array<uint8_t, B> reversed(std::array<uint8_t, B> a) {
  std::reverse(a.begin(), a.end());
  return a;
}

// Reference values of one field, computed by GMP from the modulus alone.
template <class F>
struct Ref {
  static const mpz_class& p() {
    static const mpz_class v = to_mpz(F::kModulus);
    return v;
  }
  static const mpz_class& r_mont() {  // R = 2^(64N) mod p
    static const mpz_class v = mod(mpz_class(1) << (64 * F::kLimbs), p());
    return v;
  }
  static const mpz_class& r_inv() {  // R^-1 mod p
    static const mpz_class v = [] {
      mpz_class r;
      mpz_invert(r.get_mpz_t(), r_mont().get_mpz_t(), p().get_mpz_t());
      return r;
    }();
    return v;
  }
  static mpz_class inv(const mpz_class& a) {
    mpz_class r;
    if (mpz_invert(r.get_mpz_t(), a.get_mpz_t(), p().get_mpz_t()) == 0) return 0;
    return r;
  }
  static mpz_class powm(const mpz_class& a, const mpz_class& e) {
    mpz_class r;
    mpz_powm(r.get_mpz_t(), a.get_mpz_t(), e.get_mpz_t(), p().get_mpz_t());
    return r;
  }
  static F make(const mpz_class& v) {
    const auto f = F::from_canonical(from_mpz<F::kLimbs>(v));
    if (!f) throw std::out_of_range("Ref::make: value >= p");
    return *f;
  }
  static mpz_class value(const F& f) { return to_mpz(f.to_canonical()); }

  // {0, 1, 2, p-1, p-2, (p-1)/2, (p+1)/2, R, R^2, p-R, 2^64-1, 2^(64k), 2^(64k)-1} mod p.
  static const std::vector<mpz_class>& edges() {
    static const std::vector<mpz_class> v = [] {
      const mpz_class& m = p();
      std::vector<mpz_class> e = {0,
                                  1,
                                  2,
                                  m - 1,
                                  m - 2,
                                  (m - 1) / 2,
                                  (m + 1) / 2,
                                  r_mont(),
                                  mod(r_mont() * r_mont(), m),
                                  m - r_mont(),
                                  mpz_class(UINT64_MAX)};
      for (size_t k = 1; k < F::kLimbs; ++k) {
        e.push_back(mpz_class(1) << (64 * k));
        if (k > 1) e.push_back((mpz_class(1) << (64 * k)) - 1);
      }
      return e;
    }();
    return v;
  }

  // Any 64N-bit pattern reduced mod p (covers every limb, including the top one).
  template <class Rng>
  static mpz_class random(Rng& rng) {
    typename F::Int v;
    for (size_t i = 0; i < F::kLimbs; ++i)
      v.w[i] = rng();
    return mod(to_mpz(v), p());
  }
};

// got is fully reduced (Montgomery limbs < p), its canonical value is want and its Montgomery
// limbs are want * R mod p.
template <class F>
::testing::AssertionResult Matches(const F& got, const mpz_class& want) {
  using R = Ref<F>;
  const mpz_class mont = to_mpz(got.mont());
  if (mont >= R::p()) return ::testing::AssertionFailure() << "limbs not reduced: " << hex(mont);
  const mpz_class canon = R::value(got);
  if (canon != want) {
    return ::testing::AssertionFailure() << "got " << hex(canon) << ", want " << hex(want);
  }
  if (mont != mod(want * R::r_mont(), R::p())) {
    return ::testing::AssertionFailure()
           << "Montgomery limbs " << hex(mont) << " are not " << hex(want) << " * R mod p";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace cuzk::ff_test
