// The device H chain against poly/quotient.hpp: equal coefficient vectors (bit for bit) for
// random and for satisfied evaluations, padded and full, one-, two- and three-pass sizes.
#include <gtest/gtest.h>

#include <random>

#include "gpu/ntt/quotient.hpp"
#include "gpu_test_util.hpp"
#include "groth16/backend.hpp"
#include "poly/quotient.hpp"

namespace cuzk::gpu {
namespace {

using testing::GpuTest;
using testing::pool;
using testing::random_frs;

using DeviceQuotient = GpuTest;

TEST_F(DeviceQuotient, MatchesCpuForRandomEvaluationsAndPaddings) {
  std::mt19937_64 rng(21);
  NttEngine ntt(nullptr);
  for (size_t log_n : {0u, 1u, 2u, 5u, 11u, 12u, 16u, 19u, 21u}) {
    const EvaluationDomain d(log_n);
    const size_t n = d.size();
    for (size_t m : {n, n / 2 + 1, n > 3 ? n - 3 : n}) {
      const std::vector<Fr> a = random_frs(m, rng), b = random_frs(m, rng), c = random_frs(m, rng);
      QuotientTiming t;
      const std::vector<Fr> got = gpu::groth16_quotient(a, b, c, d, ntt, &t);
      const std::vector<Fr> want = cuzk::groth16_quotient(a, b, c, d, pool());
      ASSERT_EQ(got.size(), n - 1) << "log n " << log_n << " m " << m;
      ASSERT_EQ(got, want) << "log n " << log_n << " m " << m;
    }
  }
}

TEST_F(DeviceQuotient, SatisfiedEvaluationsGiveTheSameH) {
  std::mt19937_64 rng(22);
  NttEngine ntt(nullptr);
  const EvaluationDomain d(13);
  const size_t m = d.size() - 5;
  std::vector<Fr> a = random_frs(m, rng), b = random_frs(m, rng), c(m);
  for (size_t i = 0; i < m; ++i)
    c[i] = a[i] * b[i];
  EXPECT_EQ(gpu::groth16_quotient(a, b, c, d, ntt), cuzk::groth16_quotient(a, b, c, d, pool()));
}

// snarkjs's H (prove_zkey): the coset product at the odd points of the 2n domain, root from 5.
TEST_F(DeviceQuotient, CosetProductMatchesCpuBackendOnSnarkjsDomains) {
  std::mt19937_64 rng(23);
  NttEngine ntt(nullptr);
  groth16::CpuBackend cpu(pool());
  for (size_t log_n : {1u, 5u, 12u, 16u}) {
    const EvaluationDomain wide(log_n + 1, snarkjs_two_adic_root());
    const EvaluationDomain d(log_n, snarkjs_two_adic_root(), wide.omega());
    const size_t n = d.size();
    const std::vector<Fr> a = random_frs(n, rng), b = random_frs(n, rng), c = random_frs(n, rng);
    EXPECT_EQ(gpu::coset_ab_minus_c(a, b, c, d, ntt), cpu.coset_ab_minus_c(a, b, c, d, nullptr))
        << "log n " << log_n;
  }
  const std::vector<Fr> short_a(3);
  EXPECT_THROW(gpu::coset_ab_minus_c(short_a, short_a, short_a, EvaluationDomain(2), ntt),
               std::invalid_argument);
}

TEST_F(DeviceQuotient, RejectsMismatchedSizes) {
  NttEngine ntt(nullptr);
  const EvaluationDomain d(3);
  const std::vector<Fr> a(8), b(7), c(8), big(9);
  EXPECT_THROW(gpu::groth16_quotient(a, b, c, d, ntt), std::invalid_argument);
  EXPECT_THROW(gpu::groth16_quotient(big, big, big, d, ntt), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::gpu
