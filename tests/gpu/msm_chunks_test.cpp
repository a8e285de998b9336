// The chunked MSM's cut (gpu/msm/msm_chunks.hpp), on the CPU: the chunks cover the scalars in
// order, each takes the bases its scalars use by rank, and the sum of the CPU MSMs over the chunks
// is the CPU MSM over everything (with and without a density) — the decomposition the device
// streamer runs, checked without a device.
#include "gpu/msm/msm_chunks.hpp"

#include <gtest/gtest.h>

#include <random>

#include "cs/density.hpp"
#include "msm/msm.hpp"
#include "msm_test_util.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {
namespace {

ThreadPool& pool() {
  static ThreadPool p(2);
  return p;
}

DensityTracker random_density(size_t n, unsigned one_in, std::mt19937_64& rng) {
  DensityTracker d;
  d.resize(n);
  for (size_t i = 0; i < n; ++i)
    if (rng() % one_in == 0) d.set(i);
  return d;
}

TEST(MsmChunks, CoverTheScalarsAndTakeTheirBasesByRank) {
  std::mt19937_64 rng(3);
  for (size_t n : {1, 63, 64, 65, 1000, 4096, 5001}) {
    const DensityTracker d = random_density(n, 3, rng);
    for (size_t chunk : {64, 128, 640}) {
      const auto cs = msm_chunks(n, chunk, d.words(), d.popcount());
      size_t s = 0, b = 0;
      for (const MsmChunk& c : cs) {
        EXPECT_EQ(c.s0, s);
        EXPECT_EQ(c.b0, b);
        EXPECT_EQ(c.s0 % 64, 0u);
        EXPECT_LE(c.s1 - c.s0, chunk);
        size_t used = 0;
        for (size_t i = c.s0; i < c.s1; ++i)
          used += d.get(i);
        EXPECT_EQ(c.b1 - c.b0, used) << "n " << n << " chunk " << chunk << " at " << c.s0;
        s = c.s1;
        b = c.b1;
      }
      EXPECT_EQ(s, n);
      EXPECT_EQ(b, d.popcount());
      const auto plain = msm_chunks(n, chunk, {}, n);
      for (const MsmChunk& c : plain) {
        EXPECT_EQ(c.b0, c.s0);
        EXPECT_EQ(c.b1, c.s1);
      }
    }
  }
  EXPECT_TRUE(msm_chunks(0, 64, {}, 0).empty());
}

TEST(MsmChunks, BadChunksAndShortInputsAreRefused) {
  EXPECT_THROW(msm_chunks(100, 0, {}, 100), std::invalid_argument);
  EXPECT_THROW(msm_chunks(100, 100, {}, 100), std::invalid_argument);
  EXPECT_THROW(msm_chunks(100, 64, {}, 99), std::invalid_argument);  // uses 100 bases
  const std::vector<uint64_t> one_word = {~uint64_t{0}};
  EXPECT_THROW(msm_chunks(100, 64, one_word, 100), std::invalid_argument);  // 100 bits, 1 word
  // Bits past n are not counted.
  const auto cs = msm_chunks(10, 64, one_word, 10);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].b1, 10u);
}

// Sum over chunks of msm(bases[b0, b1), scalars[s0, s1), density chunk) == the whole MSM.
TEST(MsmChunks, ChunkSumsAreTheWholeMsm) {
  std::mt19937_64 rng(9);
  const size_t n = 3000;
  const std::vector<Fr> scalars = msm_test::random_scalars(n, rng);
  for (bool with_density : {false, true}) {
    const DensityTracker d = with_density ? random_density(n, 2, rng) : DensityTracker();
    const size_t used = with_density ? d.popcount() : n;
    const auto bases = msm_test::random_bases<G1Curve>(used, rng);
    const std::span<const Affine<G1Curve>> all(bases);
    const G1Jacobian whole = with_density ? msm_pippenger<G1Curve>(all, d, scalars, pool())
                                          : msm_pippenger<G1Curve>(all, scalars, pool());
    for (size_t chunk : {64, 256, 1024}) {
      const std::span<const uint64_t> words =
          with_density ? std::span<const uint64_t>(d.words()) : std::span<const uint64_t>();
      G1Jacobian sum = G1Jacobian::identity();
      for (const MsmChunk& c : msm_chunks(n, chunk, words, used)) {
        const auto sc = std::span<const Fr>(scalars).subspan(c.s0, c.s1 - c.s0);
        const auto bc = all.subspan(c.b0, c.b1 - c.b0);
        if (with_density) {
          std::vector<uint64_t> w(d.words().begin() + static_cast<ptrdiff_t>(c.s0 / 64),
                                  d.words().begin() + static_cast<ptrdiff_t>((c.s1 + 63) / 64));
          if (c.s1 % 64 != 0) w.back() &= (uint64_t{1} << (c.s1 % 64)) - 1;
          sum += msm_pippenger<G1Curve>(bc, DensityTracker::from_words(w, c.s1 - c.s0), sc, pool());
        } else {
          sum += msm_pippenger<G1Curve>(bc, sc, pool());
        }
      }
      EXPECT_EQ(sum.to_affine(), whole.to_affine()) << "chunk " << chunk;
    }
  }
}

}  // namespace
}  // namespace cuzk::gpu
