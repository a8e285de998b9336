// Device MSMs against the CPU: Pippenger at every small size and several window widths, edge
// scalars (0, 1, 2, r - 1, all zero, all one, all r - 1) and edge bases (repeated points,
// identities), density-filtered forms, batch addition against the naive sum, and the radix-sorted
// sizes (from 2^22). Results are
// compared as group elements (after to_affine).
#include <gtest/gtest.h>

#include <random>

#include "gpu/msm/msm.hpp"
#include "gpu/prover/gpu_backend.hpp"
#include "gpu_test_util.hpp"
#include "msm/msm.hpp"
#include "msm_test_util.hpp"

namespace cuzk::gpu {
namespace {

using testing::GpuTest;
using testing::pool;
using testing::random_frs;
using testing::to_device;

template <class Curve>
Affine<Curve> cpu_msm(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars) {
  return msm_pippenger<Curve>(bases, scalars, pool()).to_affine();
}

template <class Curve>
Affine<Curve> gpu_pippenger(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars,
                            unsigned window_bits, MsmWorkspace& ws) {
  DeviceBuffer<Affine<Curve>> d_b = to_device<Affine<Curve>>(bases);
  DeviceBuffer<Fr> d_s = to_device<Fr>(scalars);
  return gpu::msm_pippenger<Curve>(d_b.get(), d_s.get(), nullptr, scalars.size(), ws, nullptr,
                                   window_bits)
      .to_affine();
}

// Scalars that stress the digits: 0, 1, 2, r - 1, r - 2, (r - 1) / 2, 2^k and 2^k - 1 near
// window edges.
std::vector<Fr> edge_scalars() {
  std::vector<Fr> v = {Fr::zero(), Fr::one(),        Fr::from_u64(2),
                       -Fr::one(), -Fr::from_u64(2), Fr::from_mont(Fr::kR)};
  v.push_back(*Fr::from_canonical(Fr::kHalfModulus));
  for (unsigned bit : {15u, 16u, 20u, 21u, 63u, 64u, 200u, 253u, 254u}) {
    BigInt<4> x;
    x.w[bit / 64] = uint64_t{1} << (bit % 64);
    v.push_back(*Fr::from_canonical(x));
    v.push_back(*Fr::from_canonical(sub_u64(x, 1)));
  }
  return v;
}

using DeviceMsm = GpuTest;

TEST_F(DeviceMsm, G1PippengerMatchesCpuAtEverySmallSize) {
  std::mt19937_64 rng(31);
  MsmWorkspace ws;
  const auto bases = msm_test::random_bases<G1Curve>(64, rng);
  for (size_t n = 1; n <= 64; ++n) {
    const std::vector<Fr> s = random_frs(n, rng);
    const std::span<const G1Affine> b(bases.data(), n);
    ASSERT_EQ(gpu_pippenger<G1Curve>(b, s, 0, ws), cpu_msm<G1Curve>(b, s)) << "n " << n;
  }
}

TEST_F(DeviceMsm, G1EveryWindowWidthMatchesCpu) {
  std::mt19937_64 rng(32);
  MsmWorkspace ws;
  const auto bases = msm_test::random_bases<G1Curve>(300, rng);
  std::vector<Fr> s = random_frs(300, rng);
  const std::vector<Fr> e = edge_scalars();
  std::copy(e.begin(), e.end(), s.begin());
  const G1Affine want = cpu_msm<G1Curve>(bases, s);
  for (unsigned c = 2; c <= kMsmMaxWindowBits; ++c)
    ASSERT_EQ(gpu_pippenger<G1Curve>(bases, s, c, ws), want) << "c " << c;
  EXPECT_THROW(gpu_pippenger<G1Curve>(bases, s, 1, ws), std::invalid_argument);
  EXPECT_THROW(gpu_pippenger<G1Curve>(bases, s, kMsmMaxWindowBits + 1, ws), std::invalid_argument);
}

TEST_F(DeviceMsm, G1LargerRandomMatchesCpu) {
  std::mt19937_64 rng(33);
  MsmWorkspace ws;
  for (size_t n : {1000u, 4097u, 1u << 16}) {
    const auto bases = msm_test::random_bases<G1Curve>(n, rng);
    const std::vector<Fr> s = random_frs(n, rng);
    ASSERT_EQ(gpu_pippenger<G1Curve>(bases, s, 0, ws), cpu_msm<G1Curve>(bases, s)) << "n " << n;
  }
}

// Through the backend (split MSM, bases cache): edge scalars and edge bases.
TEST_F(DeviceMsm, G1EdgeScalarsAndBasesThroughTheBackend) {
  std::mt19937_64 rng(34);
  GpuBackend gpu;
  const size_t n = 2000;
  auto bases = msm_test::random_bases<G1Curve>(n, rng);
  for (size_t i = 0; i < n; i += 7)
    bases[i] = bases[3];  // repeated points
  for (size_t i = 5; i < n; i += 11)
    bases[i] = G1Affine::identity();
  const std::vector<Fr> e = edge_scalars();
  std::vector<Fr> mixed(n);
  for (size_t i = 0; i < n; ++i)
    mixed[i] = i % 2 ? e[i % e.size()] : Fr::random(rng);
  std::vector<Fr> bits(n);
  for (size_t i = 0; i < n; ++i)
    bits[i] = rng() % 2 ? Fr::one() : Fr::zero();
  const std::vector<Fr> zeros(n), ones(n, Fr::one()), minus_ones(n, -Fr::one()),
      twos(n, Fr::from_u64(2));
  for (const std::vector<Fr>* s : std::initializer_list<const std::vector<Fr>*>{
           &mixed, &bits, &zeros, &ones, &minus_ones, &twos}) {
    ASSERT_EQ(gpu.msm_g1(bases, *s).to_affine(), cpu_msm<G1Curve>(bases, *s));
  }
  EXPECT_TRUE(gpu.msm_g1(bases, zeros).is_identity());
}

TEST_F(DeviceMsm, G1DensityFormMatchesCpu) {
  std::mt19937_64 rng(35);
  GpuBackend gpu;
  for (size_t n : {1u, 63u, 64u, 65u, 1000u, 5000u}) {
    DensityTracker density;
    std::vector<Fr> s(n);
    for (size_t i = 0; i < n; ++i) {
      density.add_element();
      if (rng() % 3 != 0) density.set(i);
      const unsigned kind = rng() % 4;
      s[i] = kind == 0 ? Fr::zero() : kind == 1 ? Fr::one() : Fr::random(rng);
    }
    const auto bases = msm_test::random_bases<G1Curve>(density.popcount(), rng);
    const G1Affine want = msm_pippenger<G1Curve>(bases, density, s, pool()).to_affine();
    ASSERT_EQ(gpu.msm_g1(bases, density, s).to_affine(), want) << "n " << n;
  }
}

TEST_F(DeviceMsm, BasesCacheNoticesNewPointsAtTheSameAddress) {
  std::mt19937_64 rng(36);
  GpuBackend gpu;
  auto bases = msm_test::random_bases<G1Curve>(500, rng);
  const std::vector<Fr> s = random_frs(500, rng);
  ASSERT_EQ(gpu.msm_g1(bases, s).to_affine(), cpu_msm<G1Curve>(bases, s));
  const auto other = msm_test::random_bases<G1Curve>(500, rng);
  std::copy(other.begin(), other.end(), bases.begin());  // same address and length
  ASSERT_EQ(gpu.msm_g1(bases, s).to_affine(), cpu_msm<G1Curve>(bases, s));
}

TEST_F(DeviceMsm, BatchAdditionEqualsNaiveSum) {
  std::mt19937_64 rng(37);
  MsmWorkspace ws;
  for (size_t n : {1u, 31u, 32u, 33u, 1000u, 70000u}) {
    const auto bases = msm_test::random_bases<G1Curve>(n, rng);
    std::vector<uint32_t> bits((n + 31) / 32);
    G1Jacobian want;
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 2) {
        bits[i / 32] |= 1u << (i % 32);
        want = want.add_mixed(bases[i]);
      }
    }
    DeviceBuffer<G1Affine> d_b = to_device<G1Affine>(bases);
    DeviceBuffer<uint32_t> d_bits = to_device<uint32_t>(bits);
    ASSERT_EQ(gpu::batch_add<G1Curve>(d_b.get(), d_bits.get(), n, ws, nullptr).to_affine(),
              want.to_affine())
        << "n " << n;
  }
}

TEST_F(DeviceMsm, G2PippengerMatchesCpu) {
  std::mt19937_64 rng(38);
  MsmWorkspace ws;
  const auto bases = msm_test::random_bases<G2Curve>(300, rng);
  for (size_t n : {1u, 2u, 7u, 33u, 300u}) {
    std::vector<Fr> s = random_frs(n, rng);
    const std::span<const G2Affine> b(bases.data(), n);
    ASSERT_EQ(gpu_pippenger<G2Curve>(b, s, 0, ws), cpu_msm<G2Curve>(b, s)) << "n " << n;
  }
  std::vector<Fr> s = random_frs(300, rng);
  const std::vector<Fr> e = edge_scalars();
  std::copy(e.begin(), e.end(), s.begin());
  for (unsigned c : {3u, 8u, 13u})
    ASSERT_EQ(gpu_pippenger<G2Curve>(bases, s, c, ws), cpu_msm<G2Curve>(bases, s)) << "c " << c;
}

TEST_F(DeviceMsm, G2EdgeAndDensityThroughTheBackend) {
  std::mt19937_64 rng(39);
  GpuBackend gpu;
  const size_t n = 700;
  auto bases = msm_test::random_bases<G2Curve>(n, rng);
  bases[10] = G2Affine::identity();
  bases[11] = bases[12];
  std::vector<Fr> s(n);
  for (size_t i = 0; i < n; ++i)
    s[i] = i % 3 == 0 ? Fr::one() : i % 3 == 1 ? -Fr::one() : Fr::random(rng);
  ASSERT_EQ(gpu.msm_g2(bases, s).to_affine(), cpu_msm<G2Curve>(bases, s));
  DensityTracker density;
  for (size_t i = 0; i < n; ++i) {
    density.add_element();
    if (i % 4 != 1) density.set(i);
  }
  const std::span<const G2Affine> used(bases.data(), density.popcount());
  ASSERT_EQ(gpu.msm_g2(used, density, s).to_affine(),
            msm_pippenger<G2Curve>(used, density, s, pool()).to_affine());
}

// From 2^22 scalars the digits are radix sorted (msm_radix_sort): G1 at the default width, the
// widest (21: keys of 22 bits, three sort passes) and a narrow one, with edge scalars, zeros (zero
// digits sort first and are left out of the entries) and a repeated scalar (a swollen bucket); the
// split through a base index (its tail of 2^22 + 4); G2 at the default width.
TEST_F(DeviceMsm, RadixSortedSizesMatchCpu) {
  std::mt19937_64 rng(40);
  const size_t n = (size_t{1} << 22) + 7;
  ASSERT_TRUE(msm_radix_sort(n));
  std::vector<Fr> s = random_frs(n, rng);
  const std::vector<Fr> e = edge_scalars();
  std::copy(e.begin(), e.end(), s.begin() + 1000);
  for (size_t i = 5000; i < 6000; ++i)
    s[i] = i % 2 ? Fr::zero() : s[4999];
  MsmWorkspace ws;
  {
    const auto bases = msm_test::random_bases<G1Curve>(n, rng);
    const G1Affine want = cpu_msm<G1Curve>(bases, s);
    DeviceBuffer<G1Affine> d_b = to_device<G1Affine>(bases);
    DeviceBuffer<Fr> d_s = to_device<Fr>(s);
    for (unsigned c : {0u, kMsmMaxWindowBits, 7u}) {
      MsmStats stats;
      ASSERT_EQ(
          gpu::msm_pippenger<G1Curve>(d_b.get(), d_s.get(), nullptr, n, ws, nullptr, c, &stats)
              .to_affine(),
          want)
          << "c " << c;
      EXPECT_TRUE(stats.radix_sorted) << "c " << c;
    }
    std::vector<Fr> split = random_frs(n, rng);
    split[3] = Fr::zero();
    split[4] = split[5] = Fr::one();
    DeviceBuffer<Fr> d_split = to_device<Fr>(split);
    MsmStats stats;
    ASSERT_EQ(gpu::msm_split<G1Curve>(d_b.get(), d_split.get(), n, nullptr, ws, nullptr, &stats)
                  .to_affine(),
              cpu_msm<G1Curve>(bases, split));
    EXPECT_EQ(stats.pippenger, n - 3);
    EXPECT_TRUE(stats.radix_sorted);
  }
  const auto bases = msm_test::random_bases<G2Curve>(n, rng);
  DeviceBuffer<G2Affine> d_b = to_device<G2Affine>(bases);
  DeviceBuffer<Fr> d_s = to_device<Fr>(s);
  MsmStats stats;
  ASSERT_EQ(gpu::msm_pippenger<G2Curve>(d_b.get(), d_s.get(), nullptr, n, ws, nullptr, 0, &stats)
                .to_affine(),
            cpu_msm<G2Curve>(bases, s));
  EXPECT_TRUE(stats.radix_sorted);
}

// Precomputed tables: full (one bucket set), partial with a padded last set, the scatter and the
// radix sort, an index into the copies, identity bases, and G2.
template <class Curve>
Affine<Curve> gpu_table_msm(const DeviceBuffer<Affine<Curve>>& d_b, size_t bases_n,
                            const DeviceBuffer<Fr>& d_s, const uint32_t* d_index, size_t n,
                            unsigned c, unsigned copies, MsmWorkspace& ws, MsmStats* stats) {
  DeviceBuffer<Affine<Curve>> d_table(size_t{copies} * bases_n);
  const MsmBaseTable<Curve> table =
      precompute_bases<Curve>(d_b.get(), bases_n, c, copies, d_table.get(), nullptr);
  return gpu::msm_pippenger<Curve>(table, d_s.get(), d_index, n, ws, nullptr, stats).to_affine();
}

TEST_F(DeviceMsm, PrecomputedBasesMatchCpu) {
  std::mt19937_64 rng(41);
  MsmWorkspace ws;
  const size_t n = 3001;
  auto bases = msm_test::random_bases<G1Curve>(n, rng);
  bases[7] = bases[1000] = G1Affine::identity();
  std::vector<Fr> s = random_frs(n, rng);
  const std::vector<Fr> e = edge_scalars();
  std::copy(e.begin(), e.end(), s.begin() + 10);
  const G1Affine want = cpu_msm<G1Curve>(bases, s);
  const DeviceBuffer<G1Affine> d_b = to_device<G1Affine>(bases);
  const DeviceBuffer<Fr> d_s = to_device<Fr>(s);
  const struct {
    unsigned c, copies;
  } shapes[] = {{8, 16}, {8, 5}, {13, 10}, {16, 3}, {16, 16}, {24, 11}, {2, 1}, {20, 2}};
  for (const auto& sh : shapes) {
    MsmStats stats;
    ASSERT_EQ(gpu_table_msm<G1Curve>(d_b, n, d_s, nullptr, n, sh.c, sh.copies, ws, &stats), want)
        << "c " << sh.c << " copies " << sh.copies;
    EXPECT_EQ(stats.table_copies, sh.copies);
    EXPECT_FALSE(stats.radix_sorted);
  }
  // Scalar i uses base index[i] (every base twice, some not at all).
  std::vector<uint32_t> index(n);
  std::vector<G1Affine> picked(n);
  for (size_t i = 0; i < n; ++i) {
    index[i] = static_cast<uint32_t>((i * 7) % (n / 2));
    picked[i] = bases[index[i]];
  }
  const DeviceBuffer<uint32_t> d_index = to_device<uint32_t>(index);
  EXPECT_EQ(gpu_table_msm<G1Curve>(d_b, n, d_s, d_index.get(), n, 16, 4, ws, nullptr),
            cpu_msm<G1Curve>(picked, s));
  // Bad tables are refused.
  DeviceBuffer<G1Affine> d_t(2 * n);
  EXPECT_THROW(precompute_bases<G1Curve>(d_b.get(), n, 25, 2, d_t.get(), nullptr),
               std::invalid_argument);
  EXPECT_THROW(precompute_bases<G1Curve>(d_b.get(), n, 16, 17, d_t.get(), nullptr),
               std::invalid_argument);
  EXPECT_THROW(gpu::msm_pippenger<G1Curve>(MsmBaseTable<G1Curve>{d_t.get(), n / 2, 2, 16},
                                           d_s.get(), nullptr, n, ws, nullptr),
               std::invalid_argument);

  // The radix sort (2^20 scalars x 4 copies = 2^22 digits per set) and G2.
  const size_t big = size_t{1} << 20;
  ASSERT_TRUE(msm_radix_sort(4 * big));
  const auto big_bases = msm_test::random_bases<G1Curve>(big, rng);
  const std::vector<Fr> big_s = random_frs(big, rng);
  const DeviceBuffer<G1Affine> d_bb = to_device<G1Affine>(big_bases);
  const DeviceBuffer<Fr> d_bs = to_device<Fr>(big_s);
  MsmStats stats;
  EXPECT_EQ(gpu_table_msm<G1Curve>(d_bb, big, d_bs, nullptr, big, 20, 4, ws, &stats),
            cpu_msm<G1Curve>(big_bases, big_s));
  EXPECT_TRUE(stats.radix_sorted);
  const auto g2 = msm_test::random_bases<G2Curve>(n, rng);
  const DeviceBuffer<G2Affine> d_g2 = to_device<G2Affine>(g2);
  EXPECT_EQ(gpu_table_msm<G2Curve>(d_g2, n, d_s, nullptr, n, 22, 12, ws, nullptr),
            cpu_msm<G2Curve>(g2, s));
}

TEST_F(DeviceMsm, RejectsMismatchedSizes) {
  GpuBackend gpu;
  std::mt19937_64 rng(40);
  const auto bases = msm_test::random_bases<G1Curve>(4, rng);
  const std::vector<Fr> s(5);
  EXPECT_THROW(gpu.msm_g1(bases, s), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::gpu
