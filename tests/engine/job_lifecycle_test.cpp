// A job's life without threads: the moves the state machine allows, the public state each stage
// shows, and a refused move leaving the job as it was.
#include "engine/job_lifecycle.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "engine/job.hpp"

namespace cuzk::engine {
namespace {

using S = JobStage;
const std::vector<S> kAll = {S::kQueued,    S::kReleased, S::kPreparing, S::kPrepared,
                             S::kCompleted, S::kFailed,   S::kCancelled};

TEST(JobLifecycle, TheHappyPathIsOneWayToCompleted) {
  Job j;
  j.id = "j";
  EXPECT_EQ(j.stage, S::kQueued);
  EXPECT_EQ(j.state, JobState::kPending);
  const std::pair<S, JobState> path[] = {{S::kReleased, JobState::kPending},
                                         {S::kPreparing, JobState::kRunning},
                                         {S::kPrepared, JobState::kRunning},
                                         {S::kCompleted, JobState::kCompleted}};
  for (const auto& [stage, state] : path) {
    advance(j, stage);
    EXPECT_EQ(j.stage, stage);
    EXPECT_EQ(j.state, state) << job_stage_name(stage);
  }
}

TEST(JobLifecycle, EveryStageNotFinalMayFailOrBeCancelled) {
  for (const S from : {S::kQueued, S::kReleased, S::kPreparing, S::kPrepared}) {
    EXPECT_TRUE(may_advance(from, S::kFailed)) << job_stage_name(from);
    EXPECT_TRUE(may_advance(from, S::kCancelled)) << job_stage_name(from);
  }
  // Completed only from prepared (every partition proved).
  for (const S from : {S::kQueued, S::kReleased, S::kPreparing})
    EXPECT_FALSE(may_advance(from, S::kCompleted)) << job_stage_name(from);
}

TEST(JobLifecycle, NothingLeavesAFinalStageAndNoStageIsSkipped) {
  for (const S from : {S::kCompleted, S::kFailed, S::kCancelled})
    for (const S to : kAll)
      EXPECT_FALSE(may_advance(from, to)) << job_stage_name(from) << " -> " << job_stage_name(to);
  EXPECT_FALSE(may_advance(S::kQueued, S::kPreparing));
  EXPECT_FALSE(may_advance(S::kQueued, S::kPrepared));
  EXPECT_FALSE(may_advance(S::kReleased, S::kPrepared));
  for (const S s : kAll)
    EXPECT_FALSE(may_advance(s, s)) << job_stage_name(s);
  for (const S s : kAll)
    EXPECT_FALSE(may_advance(s, S::kQueued)) << job_stage_name(s);
}

TEST(JobLifecycle, ARefusedMoveThrowsAndChangesNothing) {
  Job j;
  j.id = "job-x-1";
  advance(j, S::kCancelled);
  try {
    advance(j, S::kCompleted);
    FAIL() << "a cancelled job completed";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("job-x-1 cannot move from cancelled to completed"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(j.stage, S::kCancelled);
  EXPECT_EQ(j.state, JobState::kCancelled);
}

TEST(JobLifecycle, FinalStagesOfPublicStates) {
  EXPECT_EQ(final_stage(JobState::kCompleted), S::kCompleted);
  EXPECT_EQ(final_stage(JobState::kFailed), S::kFailed);
  EXPECT_EQ(final_stage(JobState::kCancelled), S::kCancelled);
  EXPECT_THROW(final_stage(JobState::kRunning), std::logic_error);
  EXPECT_THROW(final_stage(JobState::kPending), std::logic_error);
}

}  // namespace
}  // namespace cuzk::engine
