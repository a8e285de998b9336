// PhaseClock on explicit times: each instant goes to the furthest-along activity under way
// (prove over synthesis over parameter load over waiting), overlapping partitions count once,
// times read out of order count from the last change, and the milliseconds add up to the total
// exactly however they round.
#include "engine/phase_clock.hpp"

#include <gtest/gtest.h>

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using Activity = PhaseClock::Activity;

const SteadyClock::time_point t0{};  // the steady clock's epoch: any origin will do

TEST(PhaseClock, EachInstantBelongsToTheFurthestActivityUnderWay) {
  PhaseClock c;
  c.start(t0);
  // 0-10 waiting, 10-30 loading, 30-40 waiting (memory), 40-70 preparing.
  c.begin(Activity::kSrsLoad, t0 + 10ms);
  c.end(Activity::kSrsLoad, t0 + 30ms);
  c.begin(Activity::kSynthesis, t0 + 40ms);
  c.end(Activity::kSynthesis, t0 + 70ms);
  // Partition 0 synthesized 70-100, proved 100-200; partition 1 synthesized 90-150 (under the
  // prove from 100: it counts as prove there), queued 150-200, proved 200-260.
  c.begin(Activity::kSynthesis, t0 + 70ms);
  c.begin(Activity::kSynthesis, t0 + 90ms);
  c.end(Activity::kSynthesis, t0 + 100ms);
  c.begin(Activity::kProve, t0 + 100ms);
  c.end(Activity::kSynthesis, t0 + 150ms);
  c.end(Activity::kProve, t0 + 200ms);
  c.begin(Activity::kProve, t0 + 200ms);
  c.end(Activity::kProve, t0 + 260ms);
  const JobTimings t = c.timings(t0 + 275ms);  // 260-275: waiting to be finished
  EXPECT_EQ(t.queue_wait_ms, 10u + 10u + 15u);
  EXPECT_EQ(t.srs_load_ms, 20u);
  EXPECT_EQ(t.synthesis_ms, 30u + 30u);
  EXPECT_EQ(t.gpu_compute_ms, 160u);
  EXPECT_EQ(t.total_ms, 275u);
}

TEST(PhaseClock, ATimeReadBeforeTheLastChangeCountsFromIt) {
  PhaseClock c;
  c.start(t0);
  c.begin(Activity::kProve, t0 + 50ms);
  c.begin(Activity::kSynthesis, t0 + 40ms);  // read the clock first, came second
  c.end(Activity::kSynthesis, t0 + 60ms);
  c.end(Activity::kProve, t0 + 80ms);
  const JobTimings t = c.timings(t0 + 80ms);
  EXPECT_EQ(t.queue_wait_ms, 50u);
  EXPECT_EQ(t.synthesis_ms, 0u);
  EXPECT_EQ(t.gpu_compute_ms, 30u);
  EXPECT_EQ(t.total_ms, 80u);
}

TEST(PhaseClock, RoundedMillisecondsAddUpToTheTotal) {
  // Four phases of 0.6 ms each: rounded down they would be 0 of a 2 ms total.
  PhaseClock c;
  c.start(t0);
  c.begin(Activity::kSrsLoad, t0 + 600us);
  c.end(Activity::kSrsLoad, t0 + 1200us);
  c.begin(Activity::kSynthesis, t0 + 1200us);
  c.end(Activity::kSynthesis, t0 + 1800us);
  c.begin(Activity::kProve, t0 + 1800us);
  c.end(Activity::kProve, t0 + 2400us);
  const JobTimings t = c.timings(t0 + 2400us);
  EXPECT_EQ(t.total_ms, 2u);
  EXPECT_EQ(t.queue_wait_ms + t.srs_load_ms + t.synthesis_ms + t.gpu_compute_ms, 2u);
  for (uint64_t ms : {t.queue_wait_ms, t.srs_load_ms, t.synthesis_ms, t.gpu_compute_ms})
    EXPECT_LE(ms, 1u);
  // An end without its begin (a job finished meanwhile) changes nothing.
  PhaseClock d;
  d.start(t0);
  d.end(Activity::kProve, t0 + 5ms);
  EXPECT_EQ(d.timings(t0 + 10ms).queue_wait_ms, 10u);
}

}  // namespace
}  // namespace cuzk::engine
