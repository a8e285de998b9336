// The hold-prove fault ([faults] inject = "hold-prove:N"), which tests use to hold a job at a
// known point instead of counting on a proof being slow: the held partition's job runs and never
// completes until it is cancelled, by a client or by a shutdown that cancels (then it ends
// CANCELLED, its prove never made); the occurrences the plan does not name are not held.
#include <gtest/gtest.h>

#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "fake_handler.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;
using cuzk::testing::TempDir;

ProofRequest fake_request(const std::string& request_id) {
  ProofRequest r;
  r.request_id = request_id;
  r.kind = ProofKind::kWinningPost;
  r.sector_size = 1;
  r.vanilla_proof = {'1', ',', '0'};
  return r;
}

struct HeldEngine {
  TempDir dir{"engine-hold"};
  SynthesisLog log;
  std::unique_ptr<Engine> engine;

  explicit HeldEngine(const std::string& plan) {
    EngineConfig c;
    c.backend = "cpu";
    c.threads = 1;
    c.pce_dir = dir.path() / "pce";
    c.faults = plan;
    engine = std::make_unique<Engine>(c, std::vector<std::shared_ptr<const CircuitHandler>>{
                                             std::make_shared<FakeHandler>(dir.path(), &log)});
  }
  // Until the prover holds a partition (the metric counts the hold when it starts).
  void wait_until_held(int n) const {
    const std::string series =
        "cuzk_faults_injected_total{site=\"hold-prove\"} " + std::to_string(n) + "\n";
    for (int i = 0; i < 12'000 && engine->metrics_text().find(series) == std::string::npos; ++i)
      std::this_thread::sleep_for(5ms);  // a hang guard (60 s), not a speed bound
    ASSERT_NE(engine->metrics_text().find(series), std::string::npos);
  }
};

TEST(HoldProve, AHeldJobRunsUntilCancelled) {
  HeldEngine h("hold-prove:1+");
  const std::string id = h.engine->submit(fake_request("held")).job_id;
  h.wait_until_held(1);
  EXPECT_FALSE(h.engine->await(id, 100ms).has_value());
  const EngineStatus st = h.engine->status();
  ASSERT_EQ(st.queues.size(), 1u);
  EXPECT_EQ(st.queues[0].in_progress, 1u);
  const CancelResult c = h.engine->cancel(id);
  EXPECT_TRUE(c.found && c.was_running);
  const auto r = h.engine->await(id, 60s);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->state, JobState::kCancelled);
  EXPECT_TRUE(r->proof.empty());
  EXPECT_EQ(h.engine->metrics_text().find("cuzk_partitions_total{kind=\"winning\"}"),
            std::string::npos);  // no partition was proved
}

TEST(HoldProve, ACancellingShutdownEndsTheHoldAndOnlyTheNamedOccurrenceIsHeld) {
  HeldEngine h("hold-prove:2");
  const std::string first = h.engine->submit(fake_request("first")).job_id;
  const auto done = h.engine->await(first, 60s);
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->state, JobState::kCompleted) << done->error_message;  // occurrence 1: not held
  const std::string second = h.engine->submit(fake_request("second")).job_id;
  h.wait_until_held(1);
  EXPECT_FALSE(h.engine->await(second, 100ms).has_value());
  h.engine->shutdown(true);
  const auto r = h.engine->await(second, 60s);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->state, JobState::kCancelled);
}

}  // namespace
}  // namespace cuzk::engine::test
