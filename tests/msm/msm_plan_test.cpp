#include "msm/msm_plan.hpp"

#include <gtest/gtest.h>

namespace cuzk {
namespace {

TEST(MsmPlan, WindowWidensAsTheInputGrows) {
  unsigned prev = 0;
  for (size_t n :
       {size_t{1} << 4, size_t{1} << 8, size_t{1} << 12, size_t{1} << 16, size_t{1} << 20}) {
    const MsmPlan p = plan_msm(n, 255, 1, {});
    EXPECT_GE(p.window_bits, prev) << n;
    EXPECT_EQ(p.chunks, 1u) << "one thread never needs chunks";
    prev = p.window_bits;
  }
  EXPECT_GE(prev, 14u);
}

TEST(MsmPlan, ManyThreadsSplitWindowsIntoChunks) {
  const MsmPlan p = plan_msm(size_t{1} << 20, 255, 64, {});
  const unsigned windows = (255 + p.window_bits) / p.window_bits;
  // The model may leave a few threads idle when the next chunking costs more than it saves.
  EXPECT_GT(p.chunks, 1u);
  EXPECT_GE(windows * p.chunks, 48u);
}

TEST(MsmPlan, HonoursFixedChoices) {
  MsmConfig cfg;
  cfg.window_bits = 5;
  cfg.chunks = 3;
  cfg.buckets = BucketMode::kBatchAffine;
  const MsmPlan p = plan_msm(100, 255, 2, cfg);
  EXPECT_EQ(p.window_bits, 5u);
  EXPECT_EQ(p.chunks, 3u);
  EXPECT_EQ(p.buckets, BucketMode::kBatchAffine);
}

TEST(MsmPlan, ForcedChoicesHoldEvenWithMoreChunksThanPoints) {
  MsmConfig cfg;
  cfg.window_bits = 7;
  cfg.chunks = 50;
  cfg.buckets = BucketMode::kBatchAffine;
  const MsmPlan p = plan_msm(3, 255, 4, cfg);
  EXPECT_EQ(p.window_bits, 7u);
  EXPECT_EQ(p.chunks, 50u);
  EXPECT_EQ(p.buckets, BucketMode::kBatchAffine);
}

TEST(MsmPlan, RejectsWindowsWiderThanTheLimit) {
  MsmConfig cfg;
  cfg.window_bits = MsmConfig::kMaxWindowBits + 1;
  EXPECT_THROW(plan_msm(100, 255, 1, cfg), std::invalid_argument);
}

TEST(MsmPlan, SmallInputsStayWithXyzzBuckets) {
  EXPECT_EQ(plan_msm(64, 255, 1, {}).buckets, BucketMode::kXyzz);
}

}  // namespace
}  // namespace cuzk
