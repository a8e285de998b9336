// A CRITICAL job (a WinningPoSt: a block is lost if it is late) starts at once whatever the other
// jobs are doing, and every job's timings account for its whole life. Observed with the fake
// proof kind whose preparation and partitions the test holds at gates (fake_handler.hpp) and
// fake devices whose proves it holds (fake_device.hpp): what the test asserts happens while the
// others are held, so it does not depend on the machine's speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "engine_harness.hpp"
#include "fake_device.hpp"
#include "fake_handler.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;
using cuzk::testing::TempDir;

// PoRep-kind and WinningPoSt-kind fake jobs on one engine.
struct TwoKinds {
  TempDir dir{"engine-critical"};
  SynthesisLog log;
  Gates gates;
  DeviceLog devices;
  std::atomic<bool> never_broken{false};
  ProvePermits permits;
  WarmSteps warm;
  std::unique_ptr<Engine> engine;

  // `held_device`: one fake device ("gpu:0") whose proves wait for permits; else a CPU prover.
  explicit TwoKinds(unsigned synthesis_workers, bool held_device = false) {
    EngineConfig c = Harness::base_config();
    c.synthesis_workers = synthesis_workers;
    c.pce_dir = dir.path() / "pce";
    if (held_device) {
      c.fake_devices.names = {"gpu:0"};
      c.fake_devices.make = [this](const std::string& name, ThreadPool& pool) {
        return std::make_unique<FakeDevice>(name, pool, &devices, 0ms, &never_broken, &permits,
                                            &warm);
      };
    }
    engine = std::make_unique<Engine>(
        std::move(c),
        std::vector<std::shared_ptr<const CircuitHandler>>{
            std::make_shared<FakeHandler>(dir.path(), &log, ProofKind::kPorepSealCommit, &gates),
            std::make_shared<FakeHandler>(dir.path(), &log, ProofKind::kWinningPost, &gates)});
  }
  ~TwoKinds() {
    gates.open_all();
    permits.open();
    warm.remaining = 0;
    warm.permits.open();
    engine.reset();
  }
  std::string submit(const std::string& tag, ProofKind kind, Priority priority,
                     const std::string& payload) {
    ProofRequest r;
    r.request_id = tag;
    r.kind = kind;
    r.sector_size = 1;
    r.priority = priority;
    r.vanilla_proof.assign(payload.begin(), payload.end());
    return engine->submit(std::move(r)).job_id;
  }
  std::string porep(const std::string& tag, Priority priority, const std::string& payload) {
    return submit(tag, ProofKind::kPorepSealCommit, priority, payload);
  }
  std::string winning(const std::string& tag) {
    return submit(tag, ProofKind::kWinningPost, Priority::kCritical, "1,0");
  }
  // The job's result, or a failure after a minute: a hang guard, not a speed bound.
  JobResult wait(const std::string& id) {
    const auto r = engine->await(id, 60s);
    EXPECT_TRUE(r.has_value()) << id << " did not finish in 60 s";
    return r.value_or(JobResult{});
  }
  bool done(const std::string& id) { return engine->await(id, 1ms).has_value(); }
  uint32_t queued_for_a_prover() { return engine->activity(1).prover_queue_partitions; }
};

// On the H200 a WinningPoSt waited for the other jobs' workers: 58.6 s behind two PoRep jobs'
// parameter loads while preparation held the synthesis workers, then 5.9 s while both workers
// held PoRep partitions. Here every synthesis worker is held inside another job's partition and
// the preparer inside a third job's preparation; the WinningPoSt must still be proved, with all
// of them held.
TEST(EngineCritical, ACriticalJobIsProvedWhileEveryWorkerAndThePreparerAreHeld) {
  TwoKinds h(2);
  // R2: held in its preparation, on the preparer (idle until now: the first job goes there).
  const std::string r2 = h.porep("R2", Priority::kNormal, "1,0 prepare=R2");
  ASSERT_TRUE(h.gates.wait_arrived("R2"));
  // R1 (HIGH: it may start while R2 prepares): prepared by a worker itself (the preparer is
  // busy), then its two partitions held on the two workers.
  const std::string r1 = h.porep("R1", Priority::kHigh, "2,0 synthesis=R1");
  ASSERT_TRUE(h.gates.wait_arrived("R1/0"));
  ASSERT_TRUE(h.gates.wait_arrived("R1/1"));

  const std::string w = h.winning("W");
  const JobResult r = h.wait(w);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 1u);
  expect_phases_add_up(r);
  // Everything else is where the gates hold it.
  EXPECT_FALSE(h.done(r1));
  EXPECT_FALSE(h.done(r2));
  std::vector<std::string> seen = h.log.entries();
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"R1/0", "R1/1", "W/0"}));

  h.gates.open_all();
  for (const std::string& id : {r1, r2}) {
    const JobResult o = h.wait(id);
    EXPECT_EQ(o.state, JobState::kCompleted) << o.error_message;
    expect_phases_add_up(o);
  }
}

// A CRITICAL WinningPoSt submitted while a PoRep job's partitions are under way is synthesized
// at once and proved before the PoRep partitions not yet synthesized.
TEST(EngineCritical, AWinningPoStIsProvedBeforeThePoRepPartitionsStillToCome) {
  TwoKinds h(1);
  const std::string porep = h.porep("R", Priority::kNormal, "6,0 synthesis=R");
  h.gates.open("R/0");
  ASSERT_TRUE(h.gates.wait_arrived("R/1"));  // the only worker holds R/1
  const std::string winning = h.winning("W");
  const JobResult w = h.wait(winning);
  ASSERT_EQ(w.state, JobState::kCompleted) << w.error_message;
  expect_phases_add_up(w);
  EXPECT_EQ(h.log.entries(), (std::vector<std::string>{"R/0", "R/1", "W/0"}));
  EXPECT_FALSE(h.done(porep));
  h.gates.open_all();
  const JobResult r = h.wait(porep);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 6u);
  expect_phases_add_up(r);
  EXPECT_EQ(h.log.entries(),
            (std::vector<std::string>{"R/0", "R/1", "W/0", "R/2", "R/3", "R/4", "R/5"}));
  // Status and metrics by kind: "winning" and "porep" each counted.
  const std::string m = h.engine->metrics_text();
  EXPECT_NE(m.find("cuzk_proofs_total{kind=\"winning\",outcome=\"completed\"} 1"),
            std::string::npos);
  EXPECT_NE(m.find("cuzk_proofs_total{kind=\"porep\",outcome=\"completed\"} 1"), std::string::npos);
}

// A PoRep job spending a minute loading 47 GB of parameters in its preparation must not hold a
// WinningPoSt (on the H200 it waited 58.6 s when preparation held the synthesis workers).
TEST(EngineCritical, ACriticalJobIsProvedWhileAnotherStillPrepares) {
  TwoKinds h(1);
  const std::string porep = h.porep("R", Priority::kNormal, "1,0 prepare=R");
  ASSERT_TRUE(h.gates.wait_arrived("R"));
  const JobResult w = h.wait(h.winning("W"));
  ASSERT_EQ(w.state, JobState::kCompleted) << w.error_message;
  EXPECT_EQ(h.log.entries(), std::vector<std::string>{"W/0"});  // R has not reached a partition
  h.gates.open("R");
  EXPECT_EQ(h.wait(porep).state, JobState::kCompleted);
  EXPECT_EQ(h.log.entries(), (std::vector<std::string>{"W/0", "R/0"}));
}

// The time a job's partition waits for a busy prover is its queue time: before, it was nobody's
// ("queue 0 | synthesis 10 | gpu 229 | total 5726" for a WinningPoSt that waited 5.6 s for the
// H200 behind a PoRep partition).
TEST(EngineCritical, TheWaitForABusyProverIsQueueTime) {
  TwoKinds h(1, /*held_device=*/true);
  const std::string porep = h.porep("R", Priority::kNormal, "1,0");
  ASSERT_TRUE(h.permits.wait_waiting(1));  // R's partition is on gpu:0, held there
  const std::string winning = h.winning("W");
  ASSERT_TRUE(wait_until([&] { return h.queued_for_a_prover() == 1; }));  // W's, synthesized
  // However long the hold, W's queue time covers it; 50 ms only makes a wrong account visible.
  const auto held_from = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(50ms);
  const auto held_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now() - held_from)
                           .count();
  h.permits.open();
  const JobResult w = h.wait(winning);
  ASSERT_EQ(w.state, JobState::kCompleted) << w.error_message;
  expect_phases_add_up(w);
  EXPECT_GE(w.timings.queue_wait_ms, static_cast<uint64_t>(held_ms));
  // R's partition was on the device all along (held inside its prove): device time.
  const JobResult r = h.wait(porep);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  expect_phases_add_up(r);
  EXPECT_GE(r.timings.gpu_compute_ms, static_cast<uint64_t>(held_ms));
  EXPECT_EQ(h.devices.attempts("gpu:0"), 2);
}

// A device that readies itself by steps (warm_step: the bases uploaded a piece at a time) proves
// a WinningPoSt that arrives during them before its next step. On the H200 (2026-12-04) a
// WinningPoSt waited 6,052 ms in the queue behind the one prove of a PoRep partition that
// uploaded the 47 GB set.
TEST(EngineCritical, AWinningPoStIsProvedBetweenTwoWarmSteps) {
  TwoKinds h(1, /*held_device=*/true);
  h.permits.open();
  h.warm.remaining = 1000000;  // steps until the test ends them
  const std::string porep = h.porep("R", Priority::kNormal, "1,0");
  ASSERT_TRUE(h.warm.permits.wait_waiting(1));  // R's partition readies gpu:0, in a step
  const std::string winning = h.winning("W");
  ASSERT_TRUE(wait_until([&] { return h.queued_for_a_prover() == 1; }));  // W's, synthesized
  h.warm.permits.grant(1);  // that step ends: W goes before the next
  const JobResult w = h.wait(winning);
  ASSERT_EQ(w.state, JobState::kCompleted) << w.error_message;
  expect_phases_add_up(w);
  EXPECT_EQ(verifying_proofs(w), 1u);
  ASSERT_TRUE(h.warm.permits.wait_waiting(1));  // R readies the device again
  EXPECT_EQ(h.devices.attempts("gpu:0"), 1);    // W's prove alone
  EXPECT_FALSE(h.done(porep));
  h.warm.remaining = 0;
  h.warm.permits.open();
  const JobResult r = h.wait(porep);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  expect_phases_add_up(r);
  EXPECT_EQ(h.devices.attempts("gpu:0"), 2);
}

}  // namespace
}  // namespace cuzk::engine::test
