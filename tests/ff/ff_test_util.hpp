// What the ff tests share: the GMP bridge (limbs <-> mpz, least significant limb first), the
// non-negative residue, and the guard of the assembly kernels' tests.
#pragma once

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "ff/bigint.hpp"
#include "ff/cpu_features.hpp"

namespace cuzk::ff_test {

inline mpz_class to_mpz(const uint64_t* w, size_t n) {
  mpz_class r;
  mpz_import(r.get_mpz_t(), n, -1, sizeof(uint64_t), 0, 0, w);
  return r;
}

template <size_t N>
mpz_class to_mpz(const BigInt<N>& v) {
  return to_mpz(v.w, N);
}

// n limbs of v; std::out_of_range when v is negative or does not fit.
inline void from_mpz(uint64_t* w, size_t n, const mpz_class& v) {
  if (sgn(v) < 0 || mpz_sizeinbase(v.get_mpz_t(), 2) > 64 * n) {
    throw std::out_of_range("from_mpz: value does not fit");
  }
  for (size_t i = 0; i < n; ++i)
    w[i] = 0;
  size_t count = 0;
  mpz_export(w, &count, -1, sizeof(uint64_t), 0, 0, v.get_mpz_t());
}

template <size_t N>
BigInt<N> from_mpz(const mpz_class& v) {
  BigInt<N> r;
  from_mpz(r.w, N, v);
  return r;
}

// Non-negative residue (mpz's % keeps the sign of the dividend).
inline mpz_class mod(const mpz_class& a, const mpz_class& m) {
  mpz_class r;
  mpz_mod(r.get_mpz_t(), a.get_mpz_t(), m.get_mpz_t());
  return r;
}

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

}  // namespace cuzk::ff_test

// The assembly kernels need BMI2/ADX. On a CPU without them their tests skip, except in CI
// (CI=true), where skipping would leave the kernels every build uses untested: a failure.
#define CUZK_SKIP_WITHOUT_ADX()                                                     \
  do {                                                                              \
    if (!::cuzk::ff::cpu_has_bmi2_adx()) {                                          \
      if (::cuzk::ff_test::in_ci()) FAIL() << "CI=true and the CPU lacks BMI2/ADX"; \
      GTEST_SKIP() << "CPU lacks BMI2/ADX";                                         \
    }                                                                               \
  } while (0)
