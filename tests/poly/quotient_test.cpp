// The Groth16 quotient: for a satisfied system (c = a b pointwise on the domain) the computed h
// satisfies a(x) b(x) - c(x) = h(x) (x^n - 1) at random points, with a zero top coefficient; an
// unsatisfied system shows a non-zero one. The reference coefficient forms come from the naive
// inverse DFT, not from the transforms under test.
#include "poly/quotient.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "poly/naive_dft.hpp"
#include "poly_test_util.hpp"

namespace cuzk {
namespace {

struct System {
  std::vector<Fr> a, b, c;  // evaluations on the first `constraints` domain points
};

// Random a, b on `constraints` points and c = a b, so a b - c vanishes on the whole domain.
System random_satisfied(size_t constraints, std::mt19937_64& rng) {
  System s{random_vector(constraints, rng), random_vector(constraints, rng), {}};
  s.c.resize(constraints);
  for (size_t i = 0; i < constraints; ++i)
    s.c[i] = s.a[i] * s.b[i];
  return s;
}

// Coefficients of the polynomial of degree < n through the zero-padded evaluations (naive).
std::vector<Fr> naive_interpolate(std::vector<Fr> evals, const EvaluationDomain& d) {
  evals.resize(d.size());
  auto coeffs = naive_dft(evals, d.omega_inv());
  for (auto& x : coeffs)
    x *= d.n_inv();
  return coeffs;
}

// a(x) b(x) - c(x) == h(x) Z(x) at a few random x.
void expect_divides(const System& s, const std::vector<Fr>& h, const EvaluationDomain& d,
                    std::mt19937_64& rng) {
  const auto a = naive_interpolate(s.a, d), b = naive_interpolate(s.b, d),
             c = naive_interpolate(s.c, d);
  for (int trial = 0; trial < 4; ++trial) {
    const Fr x = Fr::random(rng);
    const Fr lhs =
        evaluate_polynomial(a, x) * evaluate_polynomial(b, x) - evaluate_polynomial(c, x);
    EXPECT_EQ(lhs, evaluate_polynomial(h, x) * d.evaluate_vanishing(x)) << "n = " << d.size();
  }
}

TEST(Quotient, SatisfiedSystemsGiveHWithABMinusCEqualToHZ) {
  ThreadPool pool(2);
  std::mt19937_64 rng(21);
  // Full and partly padded domains, including the degenerate sizes 1 and 2.
  for (size_t constraints : {1, 2, 3, 4, 7, 64, 100, 700, 1024}) {
    const auto s = random_satisfied(constraints, rng);
    const auto d = EvaluationDomain::for_size(constraints);
    const auto h = groth16_quotient(s.a, s.b, s.c, d, pool);
    ASSERT_EQ(h.size(), d.size() - 1);
    expect_divides(s, h, d, rng);
    const auto full = quotient_coefficients(s.a, s.b, s.c, d, pool);
    ASSERT_EQ(full.size(), d.size());
    EXPECT_TRUE(full.back().is_zero()) << "top coefficient of h, n = " << d.size();
    EXPECT_EQ(std::vector<Fr>(full.begin(), full.end() - 1), h);
  }
}

TEST(Quotient, WorksInALargerDomainThanTheConstraintsNeed) {
  ThreadPool pool(2);
  std::mt19937_64 rng(22);
  const auto s = random_satisfied(50, rng);
  const EvaluationDomain d(8);
  const auto h = groth16_quotient(s.a, s.b, s.c, d, pool);
  ASSERT_EQ(h.size(), 255u);
  expect_divides(s, h, d, rng);
}

TEST(Quotient, AnUnsatisfiedSystemGivesANonZeroTopCoefficient) {
  ThreadPool pool(2);
  std::mt19937_64 rng(23);
  for (size_t constraints : {2, 100, 512}) {
    auto s = random_satisfied(constraints, rng);
    s.c[constraints / 2] += Fr::one();  // one violated constraint
    const auto d = EvaluationDomain::for_size(constraints);
    const auto full = quotient_coefficients(s.a, s.b, s.c, d, pool);
    EXPECT_FALSE(full.back().is_zero()) << "n = " << d.size();
    const auto a = naive_interpolate(s.a, d), b = naive_interpolate(s.b, d),
               c = naive_interpolate(s.c, d);
    const Fr x = Fr::random(rng);
    EXPECT_NE(evaluate_polynomial(a, x) * evaluate_polynomial(b, x) - evaluate_polynomial(c, x),
              evaluate_polynomial(full, x) * d.evaluate_vanishing(x));
  }
}

TEST(Quotient, ResultsAreIdenticalWithOneTwoAndFourThreads) {
  std::mt19937_64 rng(24);
  const auto s = random_satisfied(3000, rng);
  const auto d = EvaluationDomain::for_size(s.a.size());
  std::vector<std::vector<Fr>> h;
  for (unsigned threads : {1u, 2u, 4u}) {
    ThreadPool pool(threads);
    h.push_back(groth16_quotient(s.a, s.b, s.c, d, pool));
  }
  EXPECT_EQ(h[1], h[0]);
  EXPECT_EQ(h[2], h[0]);
}

TEST(Quotient, ReportsTheTimeOfEachStep) {
  ThreadPool pool(2);
  std::mt19937_64 rng(25);
  const auto s = random_satisfied(1 << 12, rng);
  QuotientTiming t{-1, -1, -1, -1};
  groth16_quotient(s.a, s.b, s.c, EvaluationDomain(12), pool, &t);
  EXPECT_GT(t.ifft_s, 0);
  EXPECT_GT(t.coset_fft_s, 0);
  EXPECT_GE(t.pointwise_s, 0);
  EXPECT_GT(t.icoset_s, 0);
}

TEST(Quotient, DivideByZOnCosetDividesEveryEntryByGToTheNMinusOne) {
  ThreadPool pool(2);
  std::mt19937_64 rng(26);
  const EvaluationDomain d(6);
  const auto x = random_vector(d.size(), rng);
  auto y = x;
  divide_by_z_on_coset(y, d, pool);
  const Fr z = d.g().pow(d.size()) - Fr::one();
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(y[i] * z, x[i]);
  std::vector<Fr> wrong(3);
  EXPECT_THROW(divide_by_z_on_coset(wrong, d, pool), std::invalid_argument);
}

TEST(Quotient, RejectsMismatchedOrOversizedInputs) {
  ThreadPool pool(1);
  const EvaluationDomain d(2);
  const std::vector<Fr> four(4), three(3), five(5);
  EXPECT_THROW(groth16_quotient(four, three, four, d, pool), std::invalid_argument);
  EXPECT_THROW(groth16_quotient(five, five, five, d, pool), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk
