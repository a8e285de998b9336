// A partition's place in the pipeline without threads: the counts a ticket holds, its memory
// given back when it leaves, and a final job's resources released by its last partition only.
#include "engine/partition_ticket.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <utility>

namespace cuzk::engine {
namespace {

std::shared_ptr<Job> prepared_job(MemoryBudget& budget, uint64_t resident) {
  auto j = std::make_shared<Job>();
  j->id = "j";
  advance(*j, JobStage::kReleased);
  advance(*j, JobStage::kPreparing);
  advance(*j, JobStage::kPrepared);
  EXPECT_TRUE(budget.try_reserve(resident));
  j->resident = Reservation(&budget, resident);
  j->partitions = 2;
  return j;
}

TEST(PartitionTicket, CountsThePartitionInUntilItLeaves) {
  MemoryBudget budget(1000);
  const auto job = prepared_job(budget, 100);
  size_t total = 0;
  PartitionTicket t(job, 1, &total);
  EXPECT_TRUE(t.held());
  EXPECT_EQ(t.index(), 1u);
  EXPECT_EQ(job->in_flight, 1u);
  EXPECT_EQ(job->synthesizing, 1u);
  EXPECT_EQ(total, 1u);
  ASSERT_TRUE(budget.try_reserve(200));
  t.memory() = Reservation(&budget, 200);
  EXPECT_EQ(budget.in_use(), 300u);

  t.synthesized();  // in the prover queue: out of the lookahead, still in flight
  t.synthesized();  // once only
  EXPECT_EQ(job->synthesizing, 0u);
  EXPECT_EQ(total, 0u);
  EXPECT_EQ(job->in_flight, 1u);

  t.leave();
  EXPECT_FALSE(t.held());
  EXPECT_EQ(job->in_flight, 0u);
  EXPECT_EQ(budget.in_use(), 100u);  // its memory back; the job is not final: it keeps its own
  t.leave();                         // nothing more
  EXPECT_EQ(job->in_flight, 0u);
}

TEST(PartitionTicket, LeavingInSynthesisLeavesBothCounts) {
  MemoryBudget budget(0);
  const auto job = prepared_job(budget, 0);
  size_t total = 0;
  PartitionTicket t(job, 0, &total);
  t.leave();
  EXPECT_EQ(job->synthesizing, 0u);
  EXPECT_EQ(job->in_flight, 0u);
  EXPECT_EQ(total, 0u);
}

TEST(PartitionTicket, TheLastPartitionOfAFinalJobReleasesItsResources) {
  MemoryBudget budget(1000);
  const auto job = prepared_job(budget, 100);
  PartitionTicket a(job, 0, nullptr), b(job, 1, nullptr);
  advance(*job, JobStage::kCancelled);
  a.leave();
  EXPECT_EQ(budget.in_use(), 100u);  // b is still in the pipeline
  b.leave();
  EXPECT_EQ(budget.in_use(), 0u);
  EXPECT_EQ(job->resident.bytes(), 0u);
}

TEST(PartitionTicket, MovesCarryThePlaceAndTheMemory) {
  MemoryBudget budget(1000);
  const auto job = prepared_job(budget, 0);
  size_t total = 0;
  PartitionTicket t(job, 0, &total);
  ASSERT_TRUE(budget.try_reserve(50));
  t.memory() = Reservation(&budget, 50);
  PartitionTicket moved(std::move(t));
  EXPECT_FALSE(t.held());  // NOLINT(bugprone-use-after-move): the moved-from ticket is empty
  t.leave();               // a moved-from ticket leaves nothing
  EXPECT_EQ(job->in_flight, 1u);
  EXPECT_EQ(total, 1u);
  PartitionTicket assigned;
  assigned = std::move(moved);
  EXPECT_EQ(budget.in_use(), 50u);
  assigned.leave();
  EXPECT_EQ(job->in_flight, 0u);
  EXPECT_EQ(total, 0u);
  EXPECT_EQ(budget.in_use(), 0u);
}

}  // namespace
}  // namespace cuzk::engine
