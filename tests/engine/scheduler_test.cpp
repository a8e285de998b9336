// The scheduler without threads: the order jobs and partitions are served in, batching by
// circuit and priority, and pre-emption at partition boundaries.
#include "engine/scheduler.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

std::shared_ptr<Job> job(const std::string& id, Priority p, const std::string& circuit = "c",
                         Clock::time_point at = Clock::now()) {
  auto j = std::make_shared<Job>();
  j->id = id;
  j->priority = effective_priority(p);
  j->circuit_id = circuit;
  j->submitted = at;
  return j;
}

// Prepares whatever the scheduler hands out as a job of `partitions` partitions.
struct Pipeline {
  Scheduler s;
  std::vector<std::string> order;  // "id" for a preparation, "id/k" for a partition
  explicit Pipeline(Scheduler::Options o = {}) : s(o) {}
  bool step(Clock::time_point now = Clock::now(), unsigned partitions = 2) {
    const auto n = s.next(now, false, nullptr);
    if (!n) return false;
    if (n->prepare) {
      advance(*n->job, JobStage::kPrepared);
      n->job->partitions = partitions;
      order.push_back(n->job->id);
    } else {
      order.push_back(n->job->id + "/" + std::to_string(n->partition));
    }
    return true;
  }
};

TEST(Scheduler, HigherPriorityFirstThenSubmissionOrder) {
  Pipeline r;
  for (auto [id, p] : {std::pair{"low", Priority::kLow},
                       {"n1", Priority::kNormal},
                       {"unspec", Priority::kUnspecified},
                       {"crit", Priority::kCritical},
                       {"high", Priority::kHigh}})
    r.s.submit(job(id, p));
  while (r.step(Clock::now(), 1)) {
  }
  EXPECT_EQ(r.order, (std::vector<std::string>{"crit", "crit/0", "high", "high/0", "n1", "n1/0",
                                               "unspec", "unspec/0", "low", "low/0"}));
}

TEST(Scheduler, WhileAJobPreparesOnlyCriticalJobsStartButPartitionsGoOn) {
  Scheduler s({});
  const auto a = job("a", Priority::kNormal), b = job("b", Priority::kHigh),
             c = job("c", Priority::kNormal), w = job("w", Priority::kCritical);
  s.submit(a);
  auto n = s.next(Clock::now(), false, nullptr);  // a prepares and is done: 3 partitions
  ASSERT_TRUE(n && n->prepare && n->job == a);
  advance(*a, JobStage::kPrepared);
  a->partitions = 3;
  s.submit(b);
  s.submit(c);
  n = s.next(Clock::now(), false, nullptr);  // b (HIGH) starts preparing, and stays at it
  ASSERT_TRUE(n && n->prepare && n->job == b);
  n = s.next(Clock::now(), false, nullptr);  // not c: a's partitions meanwhile
  ASSERT_TRUE(n && !n->prepare && n->job == a);
  s.submit(w);
  n = s.next(Clock::now(), false, nullptr);  // a CRITICAL job starts even so
  ASSERT_TRUE(n && n->prepare && n->job == w) << (n ? n->job->id : "none");
  advance(*w, JobStage::kPrepared);
  w->partitions = 1;
  n = s.next(Clock::now(), false, nullptr);
  ASSERT_TRUE(n && !n->prepare && n->job == w);
  for (int k = 0; k < 2; ++k) {  // then a's partitions, never c while b prepares
    n = s.next(Clock::now(), false, nullptr);
    ASSERT_TRUE(n && !n->prepare && n->job == a);
  }
  EXPECT_FALSE(s.next(Clock::now(), false, nullptr));
  advance(*b, JobStage::kPrepared);  // b prepared: c may start
  b->partitions = 1;
  n = s.next(Clock::now(), false, nullptr);
  ASSERT_TRUE(n && !n->prepare && n->job == b);
  n = s.next(Clock::now(), false, nullptr);
  ASSERT_TRUE(n && n->prepare && n->job == c);
}

TEST(Scheduler, AHigherPriorityJobTakesTheNextPartitionSlot) {
  Pipeline r;
  r.s.submit(job("porep", Priority::kNormal));
  ASSERT_TRUE(r.step(Clock::now(), 10));  // prepared: 10 partitions
  ASSERT_TRUE(r.step());                  // porep/0
  r.s.submit(job("winning", Priority::kCritical));
  ASSERT_TRUE(r.step(Clock::now(), 1));  // winning prepared before porep/1
  ASSERT_TRUE(r.step());
  ASSERT_TRUE(r.step());
  EXPECT_EQ(r.order,
            (std::vector<std::string>{"porep", "porep/0", "winning", "winning/0", "porep/1"}));
}

// With the prover queue full (no partition room), a worker is handed a preparation or a CRITICAL
// partition, never another PoRep partition it would have to sit on: on the H200 a WinningPoSt
// waited 5.9 s for a worker while both sat on synthesized PoRep partitions.
TEST(Scheduler, WithoutPartitionRoomOnlyPreparationsAndCriticalPartitionsAreHandedOut) {
  Scheduler s({});
  const auto porep = job("porep", Priority::kNormal), w = job("w", Priority::kCritical),
             other = job("other", Priority::kNormal);
  s.submit(porep);
  auto n = s.next(Clock::now(), false, nullptr, false);  // a preparation needs no room
  ASSERT_TRUE(n && n->prepare && n->job == porep);
  advance(*porep, JobStage::kPrepared);
  porep->partitions = 10;
  EXPECT_FALSE(s.next(Clock::now(), false, nullptr, false));  // no room: no PoRep partition
  n = s.next(Clock::now(), false, nullptr, true);
  ASSERT_TRUE(n && !n->prepare && n->job == porep && n->partition == 0);
  s.submit(w);
  n = s.next(Clock::now(), false, nullptr, false);  // the CRITICAL job is prepared at once
  ASSERT_TRUE(n && n->prepare && n->job == w);
  advance(*w, JobStage::kPrepared);
  w->partitions = 1;
  n = s.next(Clock::now(), false, nullptr, false);  // and its partition needs no room
  ASSERT_TRUE(n && !n->prepare && n->job == w);
  s.submit(other);
  n = s.next(Clock::now(), false, nullptr, false);  // another job may still be prepared
  ASSERT_TRUE(n && n->prepare && n->job == other);
  advance(*other, JobStage::kPrepared);
  other->partitions = 1;
  EXPECT_FALSE(s.next(Clock::now(), false, nullptr, false));
  n = s.next(Clock::now(), false, nullptr, true);  // room again: PoRep's next partition
  ASSERT_TRUE(n && !n->prepare && n->job == porep && n->partition == 1);
}

// The preparer pulls its own work (Preparations::kOnly) but at the pace a worker would have:
// the next job starts once the job ahead has handed out its partitions, or when the lookahead
// is full; never a partition, never a CRITICAL job. A worker leaves such a preparation to the
// idle preparer (kLeave) and goes on with partitions, but takes a CRITICAL one.
TEST(Scheduler, ThePreparerTakesAJobWhenAWorkerWouldPrepareItNext) {
  using P = Scheduler::Preparations;
  constexpr auto kAll = Scheduler::Take::kAllButCritical;
  const auto now = Clock::now();
  Scheduler s({});
  const auto a = job("a", Priority::kNormal), b = job("b", Priority::kNormal),
             w = job("w", Priority::kCritical);
  s.submit(a);
  s.submit(b);
  EXPECT_FALSE(s.next(now, false, nullptr, true, Scheduler::Take::kAny, P::kLeave));
  EXPECT_EQ(s.pending().size(), 2u);  // a worker that leaves preparations releases nothing
  auto n = s.next(now, false, nullptr, true, kAll, P::kOnly);
  ASSERT_TRUE(n && n->prepare && n->job == a);
  EXPECT_FALSE(s.next(now, false, nullptr, true, kAll, P::kOnly));  // b waits while a prepares
  advance(*a, JobStage::kPrepared);
  a->partitions = 2;
  EXPECT_FALSE(s.next(now, false, nullptr, true, kAll, P::kOnly));  // a's partitions come first
  n = s.next(now, false, nullptr, true, Scheduler::Take::kAny, P::kLeave);
  ASSERT_TRUE(n && !n->prepare && n->job == a && n->partition == 0);
  // The lookahead full: a worker would prepare b now, so the preparer does.
  n = s.next(now, false, nullptr, false, kAll, P::kOnly);
  ASSERT_TRUE(n && n->prepare && n->job == b);
  s.submit(w);
  EXPECT_FALSE(s.next(now, false, nullptr, false, kAll, P::kOnly));  // not the CRITICAL job
  n = s.next(now, false, nullptr, true, Scheduler::Take::kAny, P::kLeave);
  ASSERT_TRUE(n && n->prepare && n->job == w);  // a worker prepares it, preparer idle or not
  advance(*w, JobStage::kPrepared);
  w->partitions = 1;
  n = s.next(now, false, nullptr, true, Scheduler::Take::kAny, P::kLeave);
  ASSERT_TRUE(n && !n->prepare && n->job == w);
  n = s.next(now, false, nullptr, true, Scheduler::Take::kAny, P::kLeave);
  ASSERT_TRUE(n && !n->prepare && n->job == a && n->partition == 1);
}

// The same pace with room: the next job starts only once the last partition ahead is out.
TEST(Scheduler, ThePreparerStartsTheNextJobAfterTheLastPartitionAheadIsHandedOut) {
  using P = Scheduler::Preparations;
  constexpr auto kAll = Scheduler::Take::kAllButCritical;
  const auto now = Clock::now();
  Scheduler s({});
  const auto a = job("a", Priority::kNormal), b = job("b", Priority::kNormal);
  s.submit(a);
  ASSERT_TRUE(s.next(now, false, nullptr, true, kAll, P::kOnly));
  advance(*a, JobStage::kPrepared);
  a->partitions = 2;
  s.submit(b);
  for (unsigned k = 0; k < 2; ++k) {
    EXPECT_FALSE(s.next(now, false, nullptr, true, kAll, P::kOnly)) << k;
    const auto n = s.next(now, false, nullptr, true, Scheduler::Take::kAny, P::kLeave);
    ASSERT_TRUE(n && n->job == a && n->partition == k);
  }
  const auto n = s.next(now, false, nullptr, true, kAll, P::kOnly);
  ASSERT_TRUE(n && n->prepare && n->job == b);
}

// A batch releases its jobs together: the second waits, released, for the preparer, and a
// worker that leaves preparations does not take it even once nothing ranks above it.
TEST(Scheduler, AWorkerLeavesAReleasedJobsPreparationToTheIdlePreparer) {
  using P = Scheduler::Preparations;
  constexpr auto kAll = Scheduler::Take::kAllButCritical;
  const auto now = Clock::now();
  Scheduler s({.max_batch_size = 2, .max_batch_wait_ms = 60'000});
  const auto c1 = job("c1", Priority::kNormal), c2 = job("c2", Priority::kNormal);
  s.submit(c1);
  s.submit(c2);
  auto n = s.next(now, false, nullptr, true, kAll, P::kOnly);  // the full batch is released
  ASSERT_TRUE(n && n->prepare && n->job == c1);
  EXPECT_EQ(s.released().size(), 2u);
  advance(*c1, JobStage::kPrepared);
  c1->partitions = 1;
  n = s.next(now, false, nullptr, true, Scheduler::Take::kAny, P::kLeave);
  ASSERT_TRUE(n && !n->prepare && n->job == c1);
  EXPECT_FALSE(s.next(now, false, nullptr, true, Scheduler::Take::kAny, P::kLeave));
  n = s.next(now, false, nullptr, true, kAll, P::kOnly);
  ASSERT_TRUE(n && n->prepare && n->job == c2);
}

TEST(Scheduler, QueuePositionCountsJobsAheadAtTheSameOrHigherPriority) {
  Scheduler s({});
  EXPECT_EQ(s.submit(job("a", Priority::kNormal)), 0u);
  EXPECT_EQ(s.submit(job("b", Priority::kHigh)), 0u);
  EXPECT_EQ(s.submit(job("c", Priority::kNormal)), 2u);
  EXPECT_EQ(s.submit(job("d", Priority::kLow)), 3u);
}

TEST(Scheduler, BatchesWaitUntilFullOrDue) {
  const auto t0 = Clock::now();
  Pipeline r({3, 1000, false});
  r.s.submit(job("a", Priority::kNormal, "c", t0));
  r.s.submit(job("b", Priority::kNormal, "c", t0));
  std::optional<Clock::time_point> due;
  EXPECT_FALSE(r.s.next(t0, false, &due).has_value());
  ASSERT_TRUE(due.has_value());
  EXPECT_EQ(*due, t0 + 1000ms);
  EXPECT_TRUE(r.s.next(t0 + 1001ms, false, nullptr).has_value());  // due: released
  EXPECT_EQ(r.s.released().size(), 2u);
  EXPECT_EQ(r.s.released()[0]->result.batch_size, 2u);

  Pipeline full({2, 60000, false});
  full.s.submit(job("x", Priority::kNormal, "c", t0));
  EXPECT_FALSE(full.s.next(t0, false, nullptr).has_value());
  full.s.submit(job("y", Priority::kNormal, "c", t0));
  EXPECT_TRUE(full.s.next(t0, false, nullptr).has_value());  // full: released at once
}

TEST(Scheduler, HighPriorityNeverWaitsAndFlushesTheCollectingBatch) {
  const auto t0 = Clock::now();
  Pipeline r({4, 60000, false});
  r.s.submit(job("n", Priority::kNormal, "c", t0));
  EXPECT_FALSE(r.s.next(t0, false, nullptr).has_value());
  r.s.submit(job("h", Priority::kHigh, "c", t0));
  while (r.step(t0, 1)) {
  }
  // The HIGH job first, then the flushed NORMAL batch, long before its wait.
  EXPECT_EQ(r.order, (std::vector<std::string>{"h", "h/0", "n", "n/0"}));
}

TEST(Scheduler, SortByTypePrefersTheCircuitReleasedLast) {
  Pipeline r({1, 0, true});
  r.s.submit(job("a1", Priority::kNormal, "A"));
  r.s.submit(job("b1", Priority::kNormal, "B"));
  r.s.submit(job("a2", Priority::kNormal, "A"));
  while (r.step(Clock::now(), 1)) {
  }
  EXPECT_EQ(r.order, (std::vector<std::string>{"a1", "a1/0", "a2", "a2/0", "b1", "b1/0"}));
}

TEST(Scheduler, FinalJobsAreNotServed) {
  Pipeline r;
  auto a = job("a", Priority::kNormal);
  r.s.submit(a);
  r.s.submit(job("b", Priority::kNormal));
  advance(*a, JobStage::kCancelled);
  r.s.remove(a);
  while (r.step(Clock::now(), 1)) {
  }
  EXPECT_EQ(r.order, (std::vector<std::string>{"b", "b/0"}));
  EXPECT_FALSE(r.s.empty());  // b is released until it becomes final
}

}  // namespace
}  // namespace cuzk::engine
