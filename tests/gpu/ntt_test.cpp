// Device NTTs against poly/fft.hpp: every size 2^0..2^16 (plus 2^19..2^22 for two and three passes)
// with random inputs, the edge inputs (zeros, one-hot at both ends, all p - 1), both domain
// conventions (bellperson's root 7 and snarkjs's root 5), and the DIF/DIT building blocks.
#include <gtest/gtest.h>

#include <random>

#include "gpu/ntt/ntt.hpp"
#include "gpu_test_util.hpp"
#include "poly/fft.hpp"
#include "poly/fft_kernels.hpp"

namespace cuzk::gpu {
namespace {

using testing::GpuTest;
using testing::pool;
using testing::random_frs;
using testing::to_device;
using testing::to_host;

enum class Kind { kFft, kIfft, kCoset, kIcoset };

std::vector<Fr> on_cpu(std::vector<Fr> v, const EvaluationDomain& d, Kind k) {
  switch (k) {
    case Kind::kFft:
      fft(v, d, pool());
      break;
    case Kind::kIfft:
      ifft(v, d, pool());
      break;
    case Kind::kCoset:
      coset_fft(v, d, pool());
      break;
    case Kind::kIcoset:
      icoset_fft(v, d, pool());
      break;
  }
  return v;
}

std::vector<Fr> on_gpu(const std::vector<Fr>& v, const EvaluationDomain& d, Kind k,
                       NttEngine& ntt) {
  DeviceBuffer<Fr> dv = to_device<Fr>(v);
  switch (k) {
    case Kind::kFft:
      ntt.fft(dv.get(), d);
      break;
    case Kind::kIfft:
      ntt.ifft(dv.get(), d);
      break;
    case Kind::kCoset:
      ntt.coset_fft(dv.get(), d);
      break;
    case Kind::kIcoset:
      ntt.icoset_fft(dv.get(), d);
      break;
  }
  return to_host(dv, v.size());
}

void expect_all_kinds_match(const std::vector<Fr>& v, const EvaluationDomain& d, NttEngine& ntt) {
  for (Kind k : {Kind::kFft, Kind::kIfft, Kind::kCoset, Kind::kIcoset}) {
    const std::vector<Fr> want = on_cpu(v, d, k);
    const std::vector<Fr> got = on_gpu(v, d, k, ntt);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(got[i], want[i]) << "log n " << d.log_size() << " kind " << static_cast<int>(k)
                                 << " index " << i;
  }
}

using DeviceNtt = GpuTest;

TEST_F(DeviceNtt, RandomInputsMatchCpuAtEverySizeUpTo2To16) {
  std::mt19937_64 rng(11);
  NttEngine ntt(nullptr);
  for (size_t log_n = 0; log_n <= 16; ++log_n) {
    const EvaluationDomain d(log_n);
    expect_all_kinds_match(random_frs(d.size(), rng), d, ntt);
  }
}

// 2^19 and 2^20: two passes (the second with 2 and 1 columns); 2^21 and 2^22: three.
TEST_F(DeviceNtt, MultiPassSizesMatchCpu) {
  std::mt19937_64 rng(12);
  NttEngine ntt(nullptr);
  for (size_t log_n : {19u, 20u, 21u, 22u}) {
    const EvaluationDomain d(log_n);
    expect_all_kinds_match(random_frs(d.size(), rng), d, ntt);
  }
}

TEST_F(DeviceNtt, EdgeInputsMatchCpu) {
  NttEngine ntt(nullptr);
  for (size_t log_n : {1u, 5u, 12u, 13u}) {
    const EvaluationDomain d(log_n);
    const size_t n = d.size();
    std::vector<Fr> zeros(n), first(n), last(n), minus_one(n, -Fr::one());
    first[0] = Fr::one();
    last[n - 1] = Fr::from_u64(3);
    for (const auto* v : {&zeros, &first, &last, &minus_one})
      expect_all_kinds_match(*v, d, ntt);
  }
}

TEST_F(DeviceNtt, SnarkjsDomainMatchesCpu) {
  std::mt19937_64 rng(13);
  NttEngine ntt(nullptr);
  const EvaluationDomain wide(11, snarkjs_two_adic_root());
  const EvaluationDomain d(10, snarkjs_two_adic_root(), wide.omega());
  expect_all_kinds_match(random_frs(d.size(), rng), d, ntt);
}

// The H chain's blocks: DIF is the forward transform in bit-reversed order; DIT of the bit-
// reversed coefficients, each scaled by c g^e on load, is c times the coset transform; DIF then the
// permutation scaled by c g^e is n c times the inverse coset transform (with g^-1). Sizes of one,
// two and three passes.
TEST_F(DeviceNtt, HChainBlocksMatchCpu) {
  std::mt19937_64 rng(14);
  NttEngine ntt(nullptr);
  for (size_t log_n : {0u, 3u, 11u, 15u, 23u}) {
    const EvaluationDomain d(log_n);
    const std::vector<Fr> v = random_frs(d.size(), rng);
    const Fr c = random_frs(1, rng)[0];
    auto reversed = [](std::vector<Fr> x) {
      fft_detail::bit_reverse(x, pool());
      return x;
    };
    auto times = [](std::vector<Fr> x, const Fr& f) {
      for (Fr& e : x)
        e *= f;
      return x;
    };

    DeviceBuffer<Fr> dv = to_device<Fr>(v);
    ntt.dif(dv.get(), log_n, d.omega());
    EXPECT_EQ(to_host(dv, v.size()), reversed(on_cpu(v, d, Kind::kFft))) << "dif, log n " << log_n;

    dv = to_device<Fr>(reversed(v));
    ntt.dit_scaled(dv.get(), log_n, d.omega(), d.g(), c);
    EXPECT_EQ(to_host(dv, v.size()), times(on_cpu(v, d, Kind::kCoset), c))
        << "dit_scaled, log n " << log_n;

    dv = to_device<Fr>(v);
    ntt.dif(dv.get(), log_n, d.omega_inv());
    ntt.bit_reverse_scaled(dv.get(), log_n, d.g_inv(), c);
    EXPECT_EQ(to_host(dv, v.size()), times(on_cpu(v, d, Kind::kIcoset), c * Fr::from_u64(d.size())))
        << "dif + bit_reverse_scaled, log n " << log_n;
  }
}

}  // namespace
}  // namespace cuzk::gpu
