// Faults on purpose (util/fault_injector.hpp) and what the engine does with them: a corrupted
// partition proof is caught by self-verification and proved again; a prove that throws is
// retried on the same backend, then on another worker or the CPU fallback; a fault that
// persists fails its job with every attempt's error while the next job completes; each step is
// counted in the metrics. The oracle is the verifier run here under the circuit's own key (not
// the engine's check), and, for the corruption, that without self-verification the engine
// really returns a proof that does not verify.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "fake_handler.hpp"
#include "util/fault_injector.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;
using cuzk::testing::TempDir;

struct FaultHarness {
  TempDir dir{"engine-faults"};
  SynthesisLog log;
  std::unique_ptr<Engine> engine;

  explicit FaultHarness(const std::string& faults, unsigned cpu_workers = 1,
                        bool verify_proofs = true) {
    EngineConfig c;
    c.backend = "cpu";
    c.threads = 1;
    c.cpu_workers = cpu_workers;
    c.verify_proofs = verify_proofs;
    c.faults = faults;
    c.pce_dir = dir.path() / "pce";
    engine = std::make_unique<Engine>(std::move(c),
                                      std::vector<std::shared_ptr<const CircuitHandler>>{
                                          std::make_shared<FakeHandler>(dir.path(), &log)});
  }
  JobResult run(const std::string& tag, unsigned partitions) {
    ProofRequest r;
    r.request_id = tag;
    r.kind = ProofKind::kWinningPost;
    r.sector_size = 1;
    const std::string payload = std::to_string(partitions) + ",0";
    r.vanilla_proof.assign(payload.begin(), payload.end());
    const auto result = engine->await(engine->submit(std::move(r)).job_id, 60s);
    EXPECT_TRUE(result.has_value()) << tag << " did not finish in 60 s";
    return result.value_or(JobResult{});
  }
  // The value of one series in the metrics text, or -1 when it is absent.
  double metric(const std::string& series) const {
    return metric_value(engine->metrics_text(), series);
  }
};

TEST(FaultPlan, ParsesSitesCountsAndRanges) {
  const auto rules = parse_fault_plan(" prove:2-3, corrupt-proof:4+ ,gpu-alloc:1");
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[0].site, FaultSite::kProve);
  EXPECT_EQ(rules[0].first, 2u);
  EXPECT_EQ(rules[0].last, 3u);
  EXPECT_EQ(rules[1].site, FaultSite::kCorruptProof);
  EXPECT_EQ(rules[1].last, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(rules[2].site, FaultSite::kGpuAlloc);
  EXPECT_TRUE(parse_fault_plan("").empty());
  for (const char* bad : {"prove", "prove:0", "prove:", "flip:1", "prove:3-1", "prove:x",
                          "prove:1,", "gpu-copy:1-"}) {
    EXPECT_THROW(parse_fault_plan(bad), std::invalid_argument) << bad;
  }
  try {
    parse_fault_plan("gpu-kernel:1");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("gpu-launch"), std::string::npos) << e.what();
  }
}

TEST(FaultPlan, TheNthOccurrenceFiresCountedPerSite) {
  FaultInjector f("prove:2-3,gpu-copy:2+");
  std::vector<bool> prove, copy;
  for (int i = 0; i < 5; ++i) {
    prove.push_back(f.hit(FaultSite::kProve).has_value());
    copy.push_back(f.hit(FaultSite::kGpuCopy).has_value());
  }
  EXPECT_EQ(prove, (std::vector<bool>{false, true, true, false, false}));
  EXPECT_EQ(copy, (std::vector<bool>{false, true, true, true, true}));
  EXPECT_FALSE(f.hit(FaultSite::kGpuAlloc));
  EXPECT_EQ(f.fired(FaultSite::kProve), 2u);
  EXPECT_FALSE(f.armed(FaultSite::kCorruptProof));
  EXPECT_EQ(FaultInjector::current(), nullptr);
  {
    FaultInjector::Scope scope(&f);
    EXPECT_EQ(FaultInjector::current(), &f);
  }
  EXPECT_EQ(FaultInjector::current(), nullptr);
}

TEST(EngineFaults, ABadPlanIsRefusedAtConstruction) {
  EXPECT_THROW(FaultHarness("prove:zero"), std::invalid_argument);
}

TEST(EngineFaults, WithoutSelfVerificationACorruptedProofWouldGoOut) {
  // The fault is real: with the check off, the engine returns the bad partition proof.
  FaultHarness h("corrupt-proof:2", 1, /*verify_proofs=*/false);
  const JobResult r = h.run("a", 3);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 2u);
}

TEST(EngineFaults, ACorruptedPartitionProofIsCaughtBySelfVerificationAndProvedAgain) {
  FaultHarness h("corrupt-proof:2");
  const JobResult r = h.run("a", 3);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 3u);
  EXPECT_EQ(h.metric("cuzk_partition_verify_failures_total{kind=\"winning\"}"), 1);
  EXPECT_EQ(h.metric("cuzk_partition_retries_total{kind=\"winning\",reason=\"verify_failed\","
                     "target=\"same\"}"),
            1);
  EXPECT_EQ(h.metric("cuzk_partitions_total{kind=\"winning\"}"), 3);
  EXPECT_EQ(h.metric("cuzk_faults_injected_total{site=\"corrupt-proof\"}"), 1);
}

TEST(EngineFaults, AProveThatThrowsOnceIsRetriedOnTheSameBackend) {
  FaultHarness h("prove:1");
  const JobResult r = h.run("a", 2);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 2u);
  EXPECT_EQ(h.metric("cuzk_partition_retries_total{kind=\"winning\",reason=\"prove_error\","
                     "target=\"same\"}"),
            1);
  EXPECT_EQ(h.metric("cuzk_partition_verify_failures_total{kind=\"winning\"}"), -1);
}

TEST(EngineFaults, TwoFailuresOnTheOnlyWorkerFallBackToTheCpuBackend) {
  FaultHarness h("prove:1-2");
  const JobResult r = h.run("a", 1);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 1u);
  EXPECT_EQ(h.metric("cuzk_partition_retries_total{kind=\"winning\",reason=\"prove_error\","
                     "target=\"cpu\"}"),
            1);
}

TEST(EngineFaults, TwoFailuresOnOneWorkerMoveToAnother) {
  FaultHarness h("prove:1-2", /*cpu_workers=*/2);
  const JobResult r = h.run("a", 1);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 1u);
  EXPECT_EQ(h.metric("cuzk_partition_retries_total{kind=\"winning\",reason=\"prove_error\","
                     "target=\"other\"}"),
            1);
  EXPECT_EQ(h.metric("cuzk_partition_retries_total{kind=\"winning\",reason=\"prove_error\","
                     "target=\"cpu\"}"),
            -1);
}

TEST(EngineFaults, APersistentFaultFailsTheJobWithEveryErrorAndTheNextJobCompletes) {
  FaultHarness h("prove:1-3");
  const JobResult bad = h.run("a", 1);
  ASSERT_EQ(bad.state, JobState::kFailed);
  const std::string& why = bad.error_message;
  EXPECT_NE(why.find("partition 0 failed 3 times"), std::string::npos) << why;
  EXPECT_NE(why.find("on cpu:0: [injected fault prove #1]"), std::string::npos) << why;
  EXPECT_NE(why.find("on cpu:0: [injected fault prove #2]"), std::string::npos) << why;
  EXPECT_NE(why.find("on cpu (fallback): [injected fault prove #3]"), std::string::npos) << why;
  const JobResult good = h.run("b", 2);
  ASSERT_EQ(good.state, JobState::kCompleted) << good.error_message;
  EXPECT_EQ(verifying_proofs(good), 2u);
  const EngineStatus st = h.engine->status();
  EXPECT_EQ(st.failed, 1u);
  EXPECT_EQ(st.completed, 1u);
  EXPECT_EQ(h.metric("cuzk_partition_failures_total{kind=\"winning\",reason=\"prove_error\"}"), 1);
  EXPECT_EQ(h.metric("cuzk_proofs_total{kind=\"winning\",outcome=\"failed\"}"), 1);
  // Nothing of the failed job is still held: only the (warm) parameters are reserved.
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_EQ(st.memory_in_use_bytes, st.srs[0].size_bytes);
}

TEST(EngineFaults, APersistentCorruptionFailsWithTheVerificationError) {
  FaultHarness h("corrupt-proof:1-3");
  const JobResult bad = h.run("a", 1);
  ASSERT_EQ(bad.state, JobState::kFailed);
  EXPECT_NE(bad.error_message.find("does not verify"), std::string::npos) << bad.error_message;
  EXPECT_EQ(h.metric("cuzk_partition_verify_failures_total{kind=\"winning\"}"), 3);
  EXPECT_EQ(h.run("b", 1).state, JobState::kCompleted);
}

}  // namespace
}  // namespace cuzk::engine::test
