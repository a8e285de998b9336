// The device H chain against poly/quotient.hpp: equal coefficient vectors (bit for bit) for
// random and for satisfied evaluations, padded and full, small and three-pass sizes.
#include <gtest/gtest.h>

#include <random>

#include "gpu/quotient.hpp"
#include "gpu_test_util.hpp"
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
  for (size_t log_n : {0u, 1u, 2u, 5u, 11u, 12u, 16u, 19u}) {
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

TEST_F(DeviceQuotient, RejectsMismatchedSizes) {
  NttEngine ntt(nullptr);
  const EvaluationDomain d(3);
  const std::vector<Fr> a(8), b(7), c(8), big(9);
  EXPECT_THROW(gpu::groth16_quotient(a, b, c, d, ntt), std::invalid_argument);
  EXPECT_THROW(gpu::groth16_quotient(big, big, big, d, ntt), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::gpu
