// The chunked MSM of a capped device (gpu/msm/msm_stream.hpp): streamed and resident chunks equal
// the whole split MSM and the CPU's Pippenger, with and without a density, in G1 and G2, and so do
// the accumulator's chunks (gpu/msm/msm.hpp MsmAccumulator) at the H MSM's width; and the
// device memory cap (gpu/device/device_memory_cap.hpp), whose refusals need no device.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_memory_cap.hpp"
#include "gpu/msm/msm.hpp"
#include "gpu/msm/msm_stream.hpp"
#include "gpu_test_util.hpp"
#include "msm/msm.hpp"
#include "msm_test_util.hpp"

namespace cuzk::gpu {
namespace {

using testing::GpuTest;
using testing::pool;
using testing::to_device;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(DeviceMemoryCap, ChargesRefundsAndRefusesPastTheLimit) {
  DeviceMemoryCap cap(1000);
  cap.charge(600);
  EXPECT_EQ(cap.in_use(), 600u);
  try {
    cap.charge(401);
    FAIL() << "charged past the limit";
  } catch (const CudaError& e) {
    EXPECT_TRUE(e.out_of_memory()) << e.what();
    EXPECT_TRUE(contains(e.what(), "cudaMalloc of 401 bytes refused")) << e.what();
    EXPECT_TRUE(contains(e.what(), "[gpus] memory_limit (600 bytes in use of a limit of 1000)"))
        << e.what();
  }
  EXPECT_EQ(cap.in_use(), 600u);  // a refusal charges nothing
  cap.charge(400);
  EXPECT_EQ(cap.in_use(), 1000u);
  EXPECT_EQ(cap.peak(), 1000u);
  cap.refund(1000);
  EXPECT_EQ(cap.in_use(), 0u);
  EXPECT_EQ(cap.peak(), 1000u);
  EXPECT_THROW(cap.charge(uint64_t{1} << 63), CudaError);  // no overflow past the limit
  DeviceMemoryCap unlimited;
  unlimited.charge(uint64_t{1} << 50);
  EXPECT_EQ(unlimited.in_use(), uint64_t{1} << 50);
}

// The cap refuses before cudaMalloc is called: no device needed, nothing charged or leaked.
TEST(DeviceMemoryCap, ABufferPastTheCapIsRefusedBeforeTheDriverIsAsked) {
  DeviceMemoryCap cap(1 << 20);
  EXPECT_EQ(DeviceMemoryCap::current(), nullptr);
  {
    DeviceMemoryCap::Scope scope(cap);
    EXPECT_EQ(DeviceMemoryCap::current(), &cap);
    try {
      DeviceBuffer<uint64_t> b(size_t{1} << 18);  // 2 MiB
      FAIL() << "allocated past the cap";
    } catch (const CudaError& e) {
      EXPECT_TRUE(e.out_of_memory()) << e.what();
      EXPECT_TRUE(contains(e.what(), "memory_limit")) << e.what();
    }
    EXPECT_EQ(cap.in_use(), 0u);
  }
  EXPECT_EQ(DeviceMemoryCap::current(), nullptr);
}

using CappedDeviceMemory = GpuTest;

TEST_F(CappedDeviceMemory, BuffersChargeTheirCapAndRefundItWhenFreed) {
  DeviceMemoryCap cap(4 << 20);
  DeviceBuffer<uint8_t> outside(1 << 20);  // no scope: not charged
  {
    DeviceMemoryCap::Scope scope(cap);
    DeviceBuffer<uint8_t> a(1 << 20);
    EXPECT_EQ(cap.in_use(), 1u << 20);
    DeviceBuffer<uint8_t> moved = std::move(a);
    EXPECT_EQ(cap.in_use(), 1u << 20);
    moved.reserve(3 << 20);  // reallocates: the old bytes refunded first
    EXPECT_EQ(cap.in_use(), 3u << 20);
    EXPECT_THROW(DeviceBuffer<uint8_t>(2 << 20), CudaError);
  }
  EXPECT_EQ(cap.in_use(), 0u);
  EXPECT_EQ(cap.peak(), 3u << 20);
  EXPECT_GT(cap.allocation_seconds(), 0.0);  // the charged buffers' cudaMalloc and cudaFree
}

// Scalars 0, 1 and full width in turn (the split's three classes).
std::vector<Fr> mixed_scalars(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> s = testing::random_frs(n, rng);
  for (size_t i = 0; i < n; ++i) {
    if (i % 5 == 0) s[i] = Fr::zero();
    if (i % 5 == 1) s[i] = Fr::one();
  }
  return s;
}

using StreamedMsm = GpuTest;

template <class Curve>
void check_chunks(size_t n, bool with_density, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<Fr> scalars = mixed_scalars(n, rng);
  DensityTracker density;
  density.resize(n);
  size_t used = n;
  if (with_density) {
    used = 0;
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 3 == 0) {
        density.set(i);
        ++used;
      }
    }
  }
  const auto bases = msm_test::random_bases<Curve>(used, rng);
  const Affine<Curve> want = (with_density ? msm_pippenger<Curve>(bases, density, scalars, pool())
                                           : msm_pippenger<Curve>(bases, scalars, pool()))
                                 .to_affine();
  DeviceBuffer<Affine<Curve>> d_b = to_device<Affine<Curve>>(bases);
  DeviceBuffer<Fr> d_s = to_device<Fr>(scalars);
  DeviceBuffer<uint64_t> d_density = to_device<uint64_t>(density.words());
  const uint64_t* dd = with_density ? d_density.get() : nullptr;
  MsmWorkspace ws;
  Stream stream;
  EXPECT_EQ(msm_split<Curve>(d_b.get(), d_s.get(), n, dd, ws, stream.get()).to_affine(), want);
  BaseStreamer streamer(0, &pool());
  streamer.reserve(1024 * sizeof(Affine<Curve>));
  EXPECT_EQ(streamer.pinned_bytes(), 0u);  // the host slots wait for a piece to stage
  for (size_t chunk : {64, 192, 1024}) {
    ChunkedMsmInput<Curve> in;
    in.host_bases = bases;
    in.d_scalars = d_s.get();
    in.n = n;
    if (with_density) {
      in.density = density.words();
      in.d_density = dd;
    }
    MsmStats stats;
    EXPECT_EQ(streamer.msm<Curve>(in, chunk, ws, stream.get(), &stats).to_affine(), want)
        << "streamed, chunk " << chunk;
    EXPECT_EQ(stats.scalars, n);
    EXPECT_EQ(streamer.pinned_bytes(), 2 * 1024 * sizeof(Affine<Curve>));  // staged
    in.d_bases = d_b.get();
    EXPECT_EQ(streamer.msm<Curve>(in, chunk, ws, stream.get(), nullptr).to_affine(), want)
        << "resident, chunk " << chunk;
  }
  ChunkedMsmInput<Curve> in;
  in.host_bases = bases;
  in.d_scalars = d_s.get();
  in.n = n;
  in.density =
      with_density ? std::span<const uint64_t>(density.words()) : std::span<const uint64_t>();
  in.d_density = dd;
  EXPECT_THROW(streamer.msm<Curve>(in, 100, ws, stream.get(), nullptr), std::invalid_argument);
  if (used > 1024) {  // a chunk larger than the slots
    EXPECT_THROW(streamer.msm<Curve>(in, 4096, ws, stream.get(), nullptr), std::invalid_argument);
  }
  streamer.release();
}

// Bases in page-locked memory go to the device slots directly: the same sum, and the streamer
// never makes its pinned host slots; pageable bases then make them.
TEST_F(StreamedMsm, PageLockedBasesStreamWithoutStagingSlots) {
  std::mt19937_64 rng(9);
  constexpr size_t kN = 3000;
  const std::vector<Fr> scalars = mixed_scalars(kN, rng);
  const auto bases = msm_test::random_bases<G1Curve>(kN, rng);
  const G1Affine want = msm_pippenger<G1Curve>(bases, scalars, pool()).to_affine();
  PinnedBuffer<G1Affine> locked(kN);
  std::copy(bases.begin(), bases.end(), locked.get());
  ASSERT_TRUE(is_page_locked(locked.get()));
  DeviceBuffer<Fr> d_s = to_device<Fr>(scalars);
  MsmWorkspace ws;
  Stream stream;
  BaseStreamer streamer(0, &pool());
  streamer.reserve(512 * sizeof(G1Affine));
  ChunkedMsmInput<G1Curve> in;
  in.host_bases = std::span<const G1Affine>(locked.get(), kN);
  in.d_scalars = d_s.get();
  in.n = kN;
  EXPECT_EQ(streamer.msm<G1Curve>(in, 512, ws, stream.get(), nullptr).to_affine(), want);
  EXPECT_EQ(streamer.pinned_bytes(), 0u);
  in.host_bases = bases;
  EXPECT_EQ(streamer.msm<G1Curve>(in, 512, ws, stream.get(), nullptr).to_affine(), want);
  EXPECT_EQ(streamer.pinned_bytes(), 2 * 512 * sizeof(G1Affine));
}

// The first chunk copied ahead (prefetch_first) is used, not copied again: the same sum, one
// chunk's bytes fewer through the slots; pageable bases, or another MSM's bases, are not
// prefetched or not taken for prefetched.
TEST_F(StreamedMsm, APrefetchedFirstChunkIsUsedOnceAndOnlyForItsBases) {
  std::mt19937_64 rng(11);
  constexpr size_t kN = 3000, kChunk = 512;
  const std::vector<Fr> scalars = mixed_scalars(kN, rng);
  const auto bases = msm_test::random_bases<G1Curve>(kN, rng);
  const G1Affine want = msm_pippenger<G1Curve>(bases, scalars, pool()).to_affine();
  const auto other_bases = msm_test::random_bases<G1Curve>(kN, rng);
  PinnedBuffer<G1Affine> locked(kN), other(kN);
  std::copy(bases.begin(), bases.end(), locked.get());
  std::copy(other_bases.begin(), other_bases.end(), other.get());
  DeviceBuffer<Fr> d_s = to_device<Fr>(scalars);
  MsmWorkspace ws;
  Stream stream;
  BaseStreamer streamer(0, &pool());
  ChunkedMsmInput<G1Curve> in;
  in.host_bases = std::span<const G1Affine>(locked.get(), kN);
  in.d_scalars = d_s.get();
  in.n = kN;
  EXPECT_FALSE(streamer.prefetch_first<G1Curve>(in, kChunk));  // no slot yet
  streamer.reserve_first(kChunk * sizeof(G1Affine));
  ASSERT_TRUE(streamer.prefetch_first<G1Curve>(in, kChunk));
  const uint64_t after_prefetch = streamer.uploaded_bytes();
  EXPECT_EQ(after_prefetch, kChunk * sizeof(G1Affine));
  streamer.reserve(kChunk * sizeof(G1Affine));  // slot 0 kept, with its copy
  EXPECT_EQ(streamer.msm<G1Curve>(in, kChunk, ws, stream.get(), nullptr).to_affine(), want);
  EXPECT_EQ(streamer.uploaded_bytes() - after_prefetch, (kN - kChunk) * sizeof(G1Affine));
  // Used once: the next MSM copies every chunk.
  uint64_t at = streamer.uploaded_bytes();
  EXPECT_EQ(streamer.msm<G1Curve>(in, kChunk, ws, stream.get(), nullptr).to_affine(), want);
  EXPECT_EQ(streamer.uploaded_bytes() - at, kN * sizeof(G1Affine));
  // A prefetch of other bases is not taken for these (and these are copied whole: the other
  // points in slot 0 would change the sum).
  ChunkedMsmInput<G1Curve> elsewhere = in;
  elsewhere.host_bases = std::span<const G1Affine>(other.get(), kN);
  ASSERT_TRUE(streamer.prefetch_first<G1Curve>(elsewhere, kChunk));
  at = streamer.uploaded_bytes();
  EXPECT_EQ(streamer.msm<G1Curve>(in, kChunk, ws, stream.get(), nullptr).to_affine(), want);
  EXPECT_EQ(streamer.uploaded_bytes() - at, kN * sizeof(G1Affine));
  // Pageable bases are not prefetched.
  in.host_bases = bases;
  EXPECT_FALSE(streamer.prefetch_first<G1Curve>(in, kChunk));
}

TEST_F(StreamedMsm, G1ChunksEqualTheWholeMsmAndTheCpu) {
  check_chunks<G1Curve>(5000, false, 1);
  check_chunks<G1Curve>(64, false, 2);  // one chunk
  check_chunks<G1Curve>(65, false, 3);  // a one-scalar last chunk
}

TEST_F(StreamedMsm, G1DensityChunksTakeTheirBasesByRank) {
  check_chunks<G1Curve>(5000, true, 4);
  check_chunks<G1Curve>(1000, true, 5);
}

TEST_F(StreamedMsm, G2ChunksWithAndWithoutDensity) {
  check_chunks<G2Curve>(700, false, 6);
  check_chunks<G2Curve>(1500, true, 7);
}

// The accumulator's buckets across chunks whose Pippenger part is empty (all 0/1: the first, so
// the buckets are written by a later chunk, and one in the middle), at the width the 2^27 H MSM
// uses (c = 20: 13 x 2^19 buckets, nearly all empty here) and at the planner's width, against
// the CPU; and again after sum() (the accumulator starts over).
TEST_F(StreamedMsm, AccumulatorKeepsItsBucketsAcrossChunksWithEmptyTails) {
  std::mt19937_64 rng(8);
  constexpr size_t kN = 3000;
  std::vector<Fr> scalars = mixed_scalars(kN, rng);
  for (size_t i = 0; i < 640; ++i)
    scalars[i] = i % 3 == 0 ? Fr::zero() : Fr::one();
  for (size_t i = 1280; i < 1920; ++i)
    scalars[i] = Fr::one();
  const auto bases = msm_test::random_bases<G1Curve>(kN, rng);
  const G1Affine want = msm_pippenger<G1Curve>(bases, scalars, pool()).to_affine();
  DeviceBuffer<G1Affine> d_b = to_device<G1Affine>(bases);
  DeviceBuffer<Fr> d_s = to_device<Fr>(scalars);
  MsmWorkspace ws;
  Stream stream;
  for (unsigned c : {20u, 0u}) {
    MsmAccumulator<G1Curve> acc(kN, ws, stream.get(), c);
    for (int round = 0; round < 2; ++round) {
      for (size_t s0 = 0; s0 < kN; s0 += 640) {
        const size_t len = std::min<size_t>(640, kN - s0);
        acc.add(d_b.get() + s0, d_s.get() + s0, len, nullptr);
      }
      EXPECT_EQ(acc.sum().to_affine(), want) << "c " << c << " round " << round;
    }
    EXPECT_EQ(acc.stats().scalars, 2 * kN);
    EXPECT_EQ(acc.stats().window_bits, c != 0 ? c : msm_window_bits(kN));
  }
  EXPECT_THROW(MsmAccumulator<G1Curve>(kN, ws, stream.get(), kMsmMaxWindowBits + 1),
               std::invalid_argument);
}

// Chunks of 2^20 scalars and more order their tasks by length and find each task's bucket from a
// table (task_bucket); a one-task bucket is written, or added to, by its task. A run of 20000
// equal scalars swells one bucket past the loop's 32 tasks into the tree (at c = 16 and 20). The
// last chunk (3 scalars) takes the unordered path.
TEST_F(StreamedMsm, AccumulatorOrderedChunksAddToTheirBuckets) {
  std::mt19937_64 rng(11);
  const size_t n = (size_t{1} << 21) + 3, chunk = size_t{1} << 20;
  std::vector<Fr> scalars = testing::random_frs(n, rng);
  for (size_t i = 7000; i < 27000; ++i)
    scalars[i] = scalars[6999];
  const auto bases = msm_test::random_bases<G1Curve>(n, rng);
  const G1Affine want = msm_pippenger<G1Curve>(bases, scalars, pool()).to_affine();
  DeviceBuffer<G1Affine> d_b = to_device<G1Affine>(bases);
  DeviceBuffer<Fr> d_s = to_device<Fr>(scalars);
  MsmWorkspace ws;
  Stream stream;
  for (unsigned c : {16u, 20u}) {
    MsmAccumulator<G1Curve> acc(n, ws, stream.get(), c);
    for (size_t s0 = 0; s0 < n; s0 += chunk)
      acc.add(d_b.get() + s0, d_s.get() + s0, std::min(chunk, n - s0), nullptr);
    EXPECT_GT(acc.stats().max_tasks, 32u) << "c " << c;
    EXPECT_EQ(acc.sum().to_affine(), want) << "c " << c;
  }
}

}  // namespace
}  // namespace cuzk::gpu
