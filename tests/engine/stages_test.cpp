// The engine's stages driven step by step on the test's thread, without the engine's threads
// (an Engine::Impl that is never started): the scheduler hands out a preparation and then the
// partitions, the preparer prepares, the synthesizer synthesizes into the prover queue with each
// partition's ticket, and the prover pool proves and completes them; a partition of a job that
// became final leaves the pipeline and its job's resources go with the last one.
#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "backend/backend_factory.hpp"
#include "common/temp_dir.hpp"
#include "engine/engine_impl.hpp"
#include "engine_harness.hpp"
#include "fake_handler.hpp"

namespace cuzk::engine::test {
namespace {

struct Stages {
  cuzk::testing::TempDir dir;
  SynthesisLog log;
  Engine::Impl m;
  ProverWorker w;

  Stages() : m(config(dir.path()), {std::make_shared<FakeHandler>(dir.path(), &log)}) {
    w.name = "cpu:0";
    w.pool = std::make_unique<ThreadPool>(1);
    w.backend = groth16::make_backend("cpu", *w.pool);
  }
  static EngineConfig config(const std::filesystem::path& dir) {
    EngineConfig c = Harness::base_config();
    c.pce_dir = dir / "pce";
    return c;
  }
  // A job for `payload`, queued in the scheduler as Engine::submit queues it.
  std::shared_ptr<Job> submit(const std::string& payload) {
    ProofRequest r;
    r.kind = ProofKind::kWinningPost;
    r.sector_size = 1;
    r.vanilla_proof.assign(payload.begin(), payload.end());
    std::string error;
    const std::shared_ptr<Job> job = m.new_job(r, Clock::now(), &error);
    EXPECT_EQ(error, "");
    job->id = m.jobs.next_id();
    job->request = std::move(r);
    std::lock_guard<std::mutex> lock(m.mu);
    m.jobs.add(job);
    m.scheduler.submit(job);
    return job;
  }
  // The scheduler's next task (caller holds no lock).
  Engine::Impl::Task next() {
    Engine::Impl::Task t;
    std::lock_guard<std::mutex> lock(m.mu);
    EXPECT_TRUE(m.next_task(&t, nullptr, Scheduler::Take::kAny, Scheduler::Preparations::kTake));
    return t;
  }
  void prepare(const std::shared_ptr<Job>& job) {
    Engine::Impl::Task t = next();
    ASSERT_TRUE(t.prepare);
    ASSERT_EQ(t.job, job);
    EXPECT_EQ(job->stage, JobStage::kPreparing);
    m.run_prepare(t);
  }
  void synthesize(unsigned k) {
    Engine::Impl::Task t = next();
    ASSERT_FALSE(t.prepare);
    ASSERT_EQ(t.ticket.index(), k);
    EXPECT_EQ(m.partitions_synthesizing, 1u);
    m.run_partition(std::move(t.ticket), "synth:0");
  }
};

TEST(EngineStages, OneJobThroughEveryStageOnTheTestsThread) {
  Stages s;
  const std::shared_ptr<Job> job = s.submit("2,0");
  s.prepare(job);
  EXPECT_EQ(job->stage, JobStage::kPrepared);
  EXPECT_EQ(job->partitions, 2u);
  s.synthesize(0);
  s.synthesize(1);
  {
    std::unique_lock<std::mutex> lock(s.m.mu);
    EXPECT_EQ(s.m.prover_queue.size(), 2u);
    EXPECT_EQ(s.m.partitions_synthesizing, 0u);
    EXPECT_EQ(job->synthesizing, 0u);
    EXPECT_EQ(job->in_flight, 2u);
    while (!s.m.prover_queue.empty())
      s.m.prove_alone(s.w, s.m.take_item(s.m.next_item_for(s.w)), lock);
    EXPECT_EQ(job->state, JobState::kCompleted) << job->result.error_message;
    EXPECT_EQ(job->result.proof.size(), 2 * groth16::kProofBytes);
    EXPECT_EQ(job->in_flight, 0u);
    EXPECT_EQ(job->work, nullptr);  // released with its last partition
    EXPECT_EQ(s.m.jobs.counts().completed, 1u);
  }
  EXPECT_EQ(s.log.entries(), (std::vector<std::string>{"/0", "/1"}));
}

TEST(EngineStages, APartitionOfACancelledJobLeavesAndTheLastOneReleasesTheJob) {
  Stages s;
  const std::shared_ptr<Job> job = s.submit("2,0");
  s.prepare(job);
  s.synthesize(0);
  const uint64_t with_one = s.m.budget.in_use();
  Engine::Impl::Task second = s.next();  // handed out, not yet synthesized
  std::unique_lock<std::mutex> lock(s.m.mu);
  s.m.finish(job, JobState::kCancelled, "cancelled");
  EXPECT_NE(job->work, nullptr);  // two partitions are still in the pipeline
  ProverItem queued = s.m.take_item(s.m.next_item_for(s.w));
  queued.ticket.leave();  // as the prover pool drops a final job's partition
  EXPECT_LT(s.m.budget.in_use(), with_one);
  EXPECT_NE(job->work, nullptr);
  lock.unlock();
  s.m.run_partition(std::move(second.ticket), "synth:0");  // the job is final: it leaves
  lock.lock();
  EXPECT_EQ(job->in_flight, 0u);
  EXPECT_EQ(s.m.partitions_synthesizing, 0u);
  EXPECT_EQ(job->work, nullptr);
  EXPECT_EQ(job->srs, nullptr);
  EXPECT_EQ(s.m.jobs.counts().cancelled, 1u);
}

TEST(EngineStages, ABadPayloadFailsInThePreparer) {
  Stages s;
  const std::shared_ptr<Job> job = s.submit("bad");
  s.prepare(job);
  EXPECT_EQ(job->stage, JobStage::kFailed);
  EXPECT_NE(job->result.error_message.find("malformed payload"), std::string::npos)
      << job->result.error_message;
  std::lock_guard<std::mutex> lock(s.m.mu);
  EXPECT_TRUE(s.m.scheduler.empty());
}

}  // namespace
}  // namespace cuzk::engine::test
