// The job table without threads: the ids it hands out, lookups by id and request id, expiry of
// final jobs only, and the counts of the jobs that ended.
#include "engine/job_table.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

std::shared_ptr<Job> job(JobTable& t, const std::string& request_id = "",
                         const std::string& kind = "porep") {
  auto j = std::make_shared<Job>();
  j->id = t.next_id();
  j->request_id = request_id;
  j->kind_label = kind;
  t.add(j);
  return j;
}

void end(JobTable& t, Job& j, JobStage stage, Clock::time_point at) {
  if (stage == JobStage::kCompleted) {  // only a prepared job completes
    for (const JobStage s : {JobStage::kReleased, JobStage::kPreparing, JobStage::kPrepared})
      advance(j, s);
  }
  advance(j, stage);
  j.finished = at;
  t.count_final(j);
}

TEST(JobTable, IdsCountUpFromOneUnderThePrefix) {
  JobTable t("job-test-");
  EXPECT_EQ(t.next_id(), "job-test-1");
  EXPECT_EQ(t.next_id(), "job-test-2");
  const std::string p = JobTable::random_id_prefix();
  EXPECT_EQ(p.size(), 13u);  // "job-" + 8 hex digits + "-"
  EXPECT_TRUE(p.starts_with("job-") && p.ends_with("-")) << p;
}

TEST(JobTable, FindsAJobByIdAndByRequestId) {
  JobTable t("j-");
  const auto a = job(t, "req-a");
  const auto b = job(t);
  EXPECT_EQ(t.find(a->id), a);
  EXPECT_EQ(t.find(b->id), b);
  EXPECT_EQ(t.find_request("req-a"), a);
  EXPECT_EQ(t.find("j-9"), nullptr);
  EXPECT_EQ(t.find_request(""), nullptr);  // a job without a request id is not found by one
  EXPECT_EQ(t.find_request("req-b"), nullptr);
}

TEST(JobTable, OnlyFinalJobsPastTheirTtlAreForgotten) {
  JobTable t("j-");
  const auto t0 = Clock::now();
  const auto running = job(t, "r");
  const auto old = job(t, "o");
  const auto recent = job(t, "n");
  advance(*running, JobStage::kReleased);
  end(t, *old, JobStage::kCompleted, t0);
  end(t, *recent, JobStage::kFailed, t0 + 50s);
  t.drop_expired(t0 + 61s, 60s);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.find(old->id), nullptr);
  EXPECT_EQ(t.find_request("o"), nullptr);  // its request id is free again
  EXPECT_EQ(t.find(running->id), running);
  EXPECT_EQ(t.find_request("n"), recent);
}

TEST(JobTable, CountsTheJobsThatEndedByOutcomeAndKind) {
  JobTable t("j-");
  const auto now = Clock::now();
  end(t, *job(t, "", "porep"), JobStage::kCompleted, now);
  end(t, *job(t, "", "porep"), JobStage::kCompleted, now);
  end(t, *job(t, "", "winning"), JobStage::kFailed, now);
  end(t, *job(t, "", "snap"), JobStage::kCancelled, now);
  const JobTable::Counts& c = t.counts();
  EXPECT_EQ(c.completed, 2u);
  EXPECT_EQ(c.failed, 1u);
  EXPECT_EQ(c.cancelled, 1u);
  EXPECT_EQ(c.completed_by_kind.at("porep"), 2u);
  EXPECT_EQ(c.failed_by_kind.at("winning"), 1u);
  EXPECT_EQ(c.failed_by_kind.count("snap"), 0u);
}

}  // namespace
}  // namespace cuzk::engine
