// The engine's scheduling, pipeline and admission rules, observed with real (small) Groth16
// proofs of a fake proof kind: completion with proofs that verify under the circuit's own key,
// priority order, FIFO within a level, batching by size / timeout / higher-priority flush,
// sort_by_type, cancellation (pending and running, memory returned), idempotent request ids,
// await timeouts, bad input failing only its job, the memory budget never exceeded, SRS
// preload/evict, shutdown (finish and cancel) and the Prometheus text.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "engine/metrics.hpp"
#include "fake_handler.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;

using cuzk::testing::TempDir;

struct Harness {
  TempDir dir;
  SynthesisLog log;
  std::unique_ptr<Engine> engine;

  explicit Harness(EngineConfig config = base_config()) {
    std::vector<std::shared_ptr<const CircuitHandler>> handlers{
        std::make_shared<FakeHandler>(dir.path(), &log)};
    if (config.pce_dir.empty()) config.pce_dir = dir.path() / "pce";
    engine = std::make_unique<Engine>(std::move(config), std::move(handlers));
  }
  static EngineConfig base_config() {
    EngineConfig c;
    c.backend = "cpu";
    c.threads = 1;
    c.cpu_workers = 1;
    c.synthesis_workers = 1;
    c.synthesis_lookahead = 1;
    return c;
  }
  SubmitResult submit(const std::string& tag, const std::string& payload,
                      Priority priority = Priority::kNormal, uint64_t circuit = 1) {
    ProofRequest r;
    r.request_id = tag;
    r.kind = ProofKind::kWinningPost;
    r.sector_size = circuit;
    r.priority = priority;
    r.vanilla_proof.assign(payload.begin(), payload.end());
    return engine->submit(std::move(r));
  }
  JobResult wait(const std::string& id) {
    auto r = engine->await(id, 60s);
    EXPECT_TRUE(r.has_value()) << id << " did not finish in 60 s";
    return r.value_or(JobResult{});
  }
  // Order in which jobs (by tag) started their first partition.
  std::vector<std::string> first_partitions() const {
    std::vector<std::string> out;
    for (const auto& e : log.entries())
      if (e.ends_with("/0")) out.push_back(e.substr(0, e.size() - 2));
    return out;
  }
  void wait_for_log(const std::string& entry) const {
    for (int i = 0; i < 1000; ++i) {
      const auto e = log.entries();
      if (std::find(e.begin(), e.end(), entry) != e.end()) return;
      std::this_thread::sleep_for(5ms);
    }
    FAIL() << entry << " never synthesized";
  }
};

groth16::Parameters fake_parameters() {
  ThreadPool pool(1);
  const testing::RandomCircuit circuit(kFakeConstraints, 2, kFakeCircuitSeed);
  return groth16::generate_parameters_insecure(
      circuit, groth16::ToxicWaste::insecure_from_seed("engine tests"), pool);
}

TEST(Engine, CompletedProofsVerifyUnderTheCircuitsKey) {
  Harness h;
  const SubmitResult s = h.submit("a", "3,0");
  EXPECT_FALSE(s.job_id.empty());
  const JobResult r = h.wait(s.job_id);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  ASSERT_EQ(r.proof.size(), 3 * groth16::kProofBytes);
  const auto proofs = groth16::decode_proofs(r.proof);
  ASSERT_TRUE(proofs);
  const auto pvk = groth16::prepare_verifying_key(fake_parameters().vk);
  const testing::RandomCircuit circuit(kFakeConstraints, 2, kFakeCircuitSeed);
  for (const auto& p : *proofs)
    EXPECT_TRUE(groth16::verify_proof(pvk, p, circuit.public_inputs()));
  // Fresh randomness per partition: no two partition proofs are equal.
  EXPECT_NE((*proofs)[0].a, (*proofs)[1].a);
  EXPECT_GE(r.timings.total_ms, r.timings.queue_wait_ms);
  EXPECT_EQ(r.batch_size, 1u);
  const EngineStatus st = h.engine->status();
  EXPECT_EQ(st.completed, 1u);
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_EQ(st.srs[0].circuit_id, "fake-1");
  EXPECT_EQ(st.srs[0].tier, SrsTier::kWarm);
  EXPECT_EQ(st.srs[0].ref_count, 0u);
  EXPECT_GT(st.srs[0].size_bytes, 0u);
}

// Events the engine says outside jobs, collected for the PCE tests.
struct Events {
  std::mutex mu;
  std::vector<std::pair<std::string, std::string>> said;
  std::function<void(const std::string&, const std::string&)> sink() {
    return [this](const std::string& e, const std::string& m) {
      std::lock_guard lock(mu);
      said.emplace_back(e, m);
    };
  }
  std::vector<std::string> names() {
    std::lock_guard lock(mu);
    std::vector<std::string> out;
    for (const auto& [e, m] : said)
      out.push_back(e);
    return out;
  }
  std::string message(const std::string& event) {
    std::lock_guard lock(mu);
    for (const auto& [e, m] : said)
      if (e == event) return m;
    return "";
  }
};

TEST(EnginePce, TheRecordingIsSavedReusedAndRecordedAgainWhenItsFileIsDamaged) {
  TempDir pce_dir("engine-pce");
  const auto run_one = [&](Events& events) {
    EngineConfig c = Harness::base_config();
    c.pce_dir = pce_dir.path();
    c.on_event = events.sink();
    Harness h(c);
    const JobResult r = h.wait(h.submit("a", "2,0").job_id);
    EXPECT_EQ(r.state, JobState::kCompleted) << r.error_message;
    const auto proofs = groth16::decode_proofs(r.proof);
    ASSERT_TRUE(proofs && proofs->size() == 2);
    const auto pvk = groth16::prepare_verifying_key(fake_parameters().vk);
    const testing::RandomCircuit circuit(kFakeConstraints, 2, kFakeCircuitSeed);
    for (const auto& p : *proofs)
      EXPECT_TRUE(groth16::verify_proof(pvk, p, circuit.public_inputs()));
    // The recording counts in the memory budget beside the parameters: the file's bytes.
    const EngineStatus st = h.engine->status();
    ASSERT_EQ(st.srs.size(), 1u);
    EXPECT_EQ(st.srs[0].size_bytes,
              parameters_bytes(fake_parameters()) +
                  std::filesystem::file_size(pce_dir.path() / "fake-1-any-c1.pce"));
  };
  Events first;
  run_one(first);
  EXPECT_EQ(first.names(), (std::vector<std::string>{"pce_recorded", "pce_saved"}));
  const auto file = pce_dir.path() / "fake-1-any-c1.pce";
  ASSERT_TRUE(std::filesystem::exists(file));

  Events second;
  run_one(second);
  EXPECT_EQ(second.names(), (std::vector<std::string>{"pce_loaded"}));

  {  // one byte of the body changed
    std::fstream f(file, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(static_cast<std::streamoff>(std::filesystem::file_size(file) - 100));
    f.put('\x5a');
  }
  Events third;
  run_one(third);
  EXPECT_EQ(third.names(), (std::vector<std::string>{"pce_refused", "pce_recorded", "pce_saved"}));
  EXPECT_NE(third.message("pce_refused").find(file.string()), std::string::npos);
  EXPECT_NE(third.message("pce_refused").find("checksum"), std::string::npos);
}

TEST(EnginePce, DisabledMeansTheClassicAssignmentAndNoFile) {
  TempDir pce_dir("engine-nopce");
  Events events;
  EngineConfig c = Harness::base_config();
  c.pce_enabled = false;
  c.pce_dir = pce_dir.path();
  c.on_event = events.sink();
  Harness h(c);
  const JobResult r = h.wait(h.submit("a", "1,0").job_id);
  EXPECT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_TRUE(events.names().empty());
  EXPECT_TRUE(std::filesystem::is_empty(pce_dir.path()));
}

// Neither [pce] cache_dir nor [srs] param_cache (an engine embedded without a parameter cache):
// the recording stays in memory and the job completes (before, making the default directory
// from the empty path threw and every job failed).
TEST(EnginePce, WithNoDirectoryAtAllTheRecordingStaysInMemory) {
  TempDir dir("engine-nodir");
  SynthesisLog log;
  Events events;
  EngineConfig c = Harness::base_config();
  c.on_event = events.sink();
  ASSERT_TRUE(c.pce_dir.empty() && c.param_cache.empty());
  Engine engine(c, {std::make_shared<FakeHandler>(dir.path(), &log)});
  ProofRequest r;
  r.request_id = "a";
  r.kind = ProofKind::kWinningPost;
  r.sector_size = 1;
  r.vanilla_proof = {'1', ',', '0'};
  const std::string id = engine.submit(std::move(r)).job_id;
  const auto result = engine.await(id, 60s);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->state, JobState::kCompleted) << result->error_message;
  const auto names = events.names();
  EXPECT_NE(std::find(names.begin(), names.end(), "pce_recorded"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "pce_not_saved"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "pce_saved"), names.end());
}

TEST(Engine, HigherPriorityFirstFifoWithinALevel) {
  Harness h;
  const auto a = h.submit("A", "1,400");
  h.wait_for_log("A/0");
  std::vector<std::string> ids;
  ids.push_back(h.submit("B", "1,0", Priority::kLow).job_id);
  ids.push_back(h.submit("C", "1,0", Priority::kNormal).job_id);
  ids.push_back(h.submit("C2", "1,0", Priority::kUnspecified).job_id);  // NORMAL
  ids.push_back(h.submit("D", "1,0", Priority::kCritical).job_id);
  ids.push_back(h.submit("E", "1,0", Priority::kHigh).job_id);
  EXPECT_EQ(h.wait(a.job_id).state, JobState::kCompleted);
  for (const auto& id : ids)
    EXPECT_EQ(h.wait(id).state, JobState::kCompleted);
  EXPECT_EQ(h.first_partitions(), (std::vector<std::string>{"A", "D", "E", "C", "C2", "B"}));
}

// WinningPoSt must answer within seconds of winning a block: a CRITICAL WinningPoSt submitted
// while a PoRep job's partitions are queued is synthesized at the next partition boundary and
// proved before the PoRep partitions that were not yet synthesized.
TEST(Engine, CriticalWinningPoStIsProvedNextWhilePoRepPartitionsAreQueued) {
  TempDir dir;
  SynthesisLog log;
  std::vector<std::shared_ptr<const CircuitHandler>> handlers{
      std::make_shared<FakeHandler>(dir.path(), &log, ProofKind::kPorepSealCommit),
      std::make_shared<FakeHandler>(dir.path(), &log)};
  EngineConfig config = Harness::base_config();
  config.pce_dir = dir.path() / "pce";
  Engine engine(config, std::move(handlers));
  const auto request = [](const std::string& tag, ProofKind kind, Priority priority,
                          const std::string& payload) {
    ProofRequest r;
    r.request_id = tag;
    r.kind = kind;
    r.sector_size = 1;
    r.priority = priority;
    r.vanilla_proof.assign(payload.begin(), payload.end());
    return r;
  };
  // Six PoRep partitions of ~200 ms synthesis each, at Curio's PoRep priority.
  const std::string porep =
      engine.submit(request("R", ProofKind::kPorepSealCommit, Priority::kNormal, "6,200")).job_id;
  for (int i = 0; i < 1000; ++i) {
    const auto e = log.entries();
    if (std::find(e.begin(), e.end(), "R/1") != e.end()) break;
    std::this_thread::sleep_for(5ms);
  }
  const std::string winning =
      engine.submit(request("W", ProofKind::kWinningPost, Priority::kCritical, "1,0")).job_id;
  const auto w = engine.await(winning, 60s);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->state, JobState::kCompleted) << w->error_message;
  // Proved before any PoRep partition synthesized after it arrived (R/2 takes 200 ms more).
  const std::string m = engine.metrics_text();
  const size_t at = m.find("cuzk_partitions_total{kind=\"porep\"} ");
  const unsigned porep_done =
      at == std::string::npos
          ? 0
          : std::stoul(m.substr(at + std::strlen("cuzk_partitions_total{kind=\"porep\"} ")));
  EXPECT_LE(porep_done, 2u) << m;
  const auto r = engine.await(porep, 60s);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->state, JobState::kCompleted);
  EXPECT_LT(w->timings.total_ms, r->timings.total_ms);
  EXPECT_EQ(log.entries(),
            (std::vector<std::string>{"R/0", "R/1", "W/0", "R/2", "R/3", "R/4", "R/5"}));
  // Status and metrics by kind: "winning" and "porep" each counted.
  EXPECT_NE(
      engine.metrics_text().find("cuzk_proofs_total{kind=\"winning\",outcome=\"completed\"} 1"),
      std::string::npos);
}

TEST(Engine, ACriticalJobIsPreparedWhileAnotherStillLoads) {
  // One synthesis worker; R spends 3 s in preparation (as a PoRep job loading 47 GB of
  // parameters does for a minute). The CRITICAL W must not wait for it: on the H200 it waited
  // 58.6 s when preparation held the synthesis workers.
  TempDir dir;
  SynthesisLog log;
  std::vector<std::shared_ptr<const CircuitHandler>> handlers{
      std::make_shared<FakeHandler>(dir.path(), &log, ProofKind::kPorepSealCommit),
      std::make_shared<FakeHandler>(dir.path(), &log)};
  EngineConfig config = Harness::base_config();
  config.pce_dir = dir.path() / "pce";
  Engine engine(config, std::move(handlers));
  ProofRequest r;
  r.request_id = "R";
  r.kind = ProofKind::kPorepSealCommit;
  r.sector_size = 1;
  const std::string slow_payload = "1,0,3000";
  r.vanilla_proof.assign(slow_payload.begin(), slow_payload.end());
  const std::string porep = engine.submit(std::move(r)).job_id;
  std::this_thread::sleep_for(300ms);  // R is being prepared
  ProofRequest w;
  w.request_id = "W";
  w.kind = ProofKind::kWinningPost;
  w.sector_size = 1;
  w.priority = Priority::kCritical;
  const std::string payload = "1,0";
  w.vanilla_proof.assign(payload.begin(), payload.end());
  const auto t0 = std::chrono::steady_clock::now();
  const std::string winning = engine.submit(std::move(w)).job_id;
  const auto done = engine.await(winning, 60s);
  const auto waited = std::chrono::steady_clock::now() - t0;
  ASSERT_TRUE(done);
  EXPECT_EQ(done->state, JobState::kCompleted) << done->error_message;
  EXPECT_LT(waited, 2000ms) << "W waited for R's preparation";
  // R had not reached its first partition when W was done.
  EXPECT_EQ(log.entries(), std::vector<std::string>{"W/0"});
  const auto rr = engine.await(porep, 60s);
  ASSERT_TRUE(rr);
  EXPECT_EQ(rr->state, JobState::kCompleted) << rr->error_message;
  EXPECT_EQ(log.entries(), (std::vector<std::string>{"W/0", "R/0"}));
}

TEST(Engine, QueuePositionCountsJobsAheadAtTheSameOrHigherPriority) {
  Harness h;
  h.submit("A", "1,300");
  h.wait_for_log("A/0");
  EXPECT_EQ(h.submit("B", "1,0", Priority::kLow).queue_position, 0u);
  EXPECT_EQ(h.submit("C", "1,0", Priority::kHigh).queue_position, 0u);
  EXPECT_EQ(h.submit("D", "1,0", Priority::kNormal).queue_position, 1u);  // C
  EXPECT_EQ(h.submit("E", "1,0", Priority::kLow).queue_position, 3u);     // B, C, D
}

TEST(Engine, BatchReleasedWhenFull) {
  EngineConfig c = Harness::base_config();
  c.max_batch_size = 3;
  c.max_batch_wait_ms = 60000;
  Harness h(c);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> ids;
  for (const char* tag : {"a", "b", "c"})
    ids.push_back(h.submit(tag, "1,0").job_id);
  for (const auto& id : ids) {
    const JobResult r = h.wait(id);
    EXPECT_EQ(r.state, JobState::kCompleted);
    EXPECT_EQ(r.batch_size, 3u);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 30s);  // not held for the 60 s wait
}

TEST(Engine, PartialBatchReleasedAfterTheWait) {
  EngineConfig c = Harness::base_config();
  c.max_batch_size = 4;
  c.max_batch_wait_ms = 300;
  Harness h(c);
  const auto a = h.submit("a", "1,0");
  const auto b = h.submit("b", "1,0");
  for (const auto& id : {a.job_id, b.job_id}) {
    const JobResult r = h.wait(id);
    EXPECT_EQ(r.state, JobState::kCompleted);
    EXPECT_EQ(r.batch_size, 2u);
    EXPECT_GE(r.timings.queue_wait_ms, 250u);
  }
}

TEST(Engine, HigherPriorityArrivalFlushesTheCollectingBatch) {
  EngineConfig c = Harness::base_config();
  c.max_batch_size = 4;
  c.max_batch_wait_ms = 60000;
  Harness h(c);
  const auto a = h.submit("a", "1,0");
  const auto b = h.submit("b", "1,0");
  const auto x = h.submit("x", "1,0", Priority::kHigh, 2);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(h.wait(x.job_id).batch_size, 1u);
  EXPECT_EQ(h.wait(a.job_id).batch_size, 2u);
  EXPECT_EQ(h.wait(b.job_id).state, JobState::kCompleted);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 30s);
}

TEST(Engine, SortByTypeKeepsTheLoadedCircuitTogether) {
  for (const bool sort : {false, true}) {
    EngineConfig c = Harness::base_config();
    c.sort_by_type = sort;
    Harness h(c);
    const auto a = h.submit("A", "1,400", Priority::kNormal, 1);
    h.wait_for_log("A/0");
    std::vector<std::string> ids;
    ids.push_back(h.submit("Y1", "1,0", Priority::kNormal, 2).job_id);
    ids.push_back(h.submit("X2", "1,0", Priority::kNormal, 1).job_id);
    ids.push_back(h.submit("Y2", "1,0", Priority::kNormal, 2).job_id);
    ids.push_back(h.submit("X3", "1,0", Priority::kNormal, 1).job_id);
    h.wait(a.job_id);
    for (const auto& id : ids)
      EXPECT_EQ(h.wait(id).state, JobState::kCompleted);
    const std::vector<std::string> want =
        sort ? std::vector<std::string>{"A", "X2", "X3", "Y1", "Y2"}
             : std::vector<std::string>{"A", "Y1", "X2", "Y2", "X3"};
    EXPECT_EQ(h.first_partitions(), want) << "sort_by_type " << sort;
  }
}

TEST(Engine, CancelPendingJob) {
  Harness h;
  const auto a = h.submit("A", "1,300");
  h.wait_for_log("A/0");
  const auto b = h.submit("B", "1,0");
  const CancelResult c = h.engine->cancel(b.job_id);
  EXPECT_TRUE(c.found);
  EXPECT_FALSE(c.was_running);
  EXPECT_EQ(h.wait(b.job_id).state, JobState::kCancelled);
  EXPECT_EQ(h.wait(a.job_id).state, JobState::kCompleted);
  EXPECT_EQ(h.first_partitions(), std::vector<std::string>{"A"});
  EXPECT_FALSE(h.engine->cancel("job-unknown").found);
  EXPECT_FALSE(h.engine->cancel(a.job_id).was_running);  // already final
}

TEST(Engine, CancelRunningJobStopsAtAPartitionBoundaryAndReturnsItsMemory) {
  EngineConfig c = Harness::base_config();
  c.memory_budget_bytes = 64ull << 20;
  Harness h(c);
  const auto a = h.submit("A", "8,150");
  h.wait_for_log("A/1");
  const CancelResult cr = h.engine->cancel(a.job_id);
  EXPECT_TRUE(cr.found);
  EXPECT_TRUE(cr.was_running);
  const JobResult r = h.wait(a.job_id);
  EXPECT_EQ(r.state, JobState::kCancelled);
  EXPECT_TRUE(r.proof.empty());
  std::this_thread::sleep_for(600ms);
  EXPECT_LE(h.log.entries().size(), 3u);  // at most the partition under way when cancelled
  // Only the (unreferenced) parameters and the queued-payload share stay reserved.
  const EngineStatus st = h.engine->status();
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_EQ(st.srs[0].ref_count, 0u);
  EXPECT_EQ(st.memory_in_use_bytes, st.srs[0].size_bytes + c.memory_budget_bytes / 16);
  // The engine goes on serving.
  EXPECT_EQ(h.wait(h.submit("B", "1,0").job_id).state, JobState::kCompleted);
}

TEST(Engine, CancelDuringPreparationDropsTheJobCleanly) {
  Harness h;
  h.engine->preload_srs("fake-1");
  const auto a = h.submit("A", "2,0,300");  // 300 ms parsing its payload
  for (int i = 0; i < 100 && h.engine->status().queues.empty(); ++i)
    std::this_thread::sleep_for(5ms);
  std::this_thread::sleep_for(50ms);
  const CancelResult c = h.engine->cancel(a.job_id);
  EXPECT_TRUE(c.was_running);
  EXPECT_EQ(h.wait(a.job_id).state, JobState::kCancelled);
  std::this_thread::sleep_for(400ms);
  EXPECT_TRUE(h.log.entries().empty());  // no partition of it was synthesized
  const EngineStatus st = h.engine->status();
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_EQ(st.srs[0].ref_count, 0u);
  EXPECT_EQ(st.memory_in_use_bytes, st.srs[0].size_bytes);
  EXPECT_EQ(h.wait(h.submit("B", "1,0").job_id).state, JobState::kCompleted);
}

TEST(Engine, ResubmittedRequestIdReturnsTheSameJob) {
  Harness h;
  const auto first = h.submit("same", "1,0");
  const auto again = h.submit("same", "1,0");
  EXPECT_EQ(first.job_id, again.job_id);
  EXPECT_FALSE(first.duplicate);
  EXPECT_TRUE(again.duplicate);
  EXPECT_EQ(h.wait(first.job_id).state, JobState::kCompleted);
  EXPECT_EQ(h.submit("same", "1,0").job_id, first.job_id);  // also after completion
  EXPECT_EQ(h.log.entries().size(), 1u);
  // Without a request id every submission is a new job.
  EXPECT_NE(h.submit("", "1,0").job_id, h.submit("", "1,0").job_id);
}

TEST(Engine, AwaitTimesOutThenReturnsTheResult) {
  Harness h;
  const auto a = h.submit("A", "1,500");
  EXPECT_FALSE(h.engine->await(a.job_id, 20ms).has_value());
  const auto r = h.engine->await(a.job_id, 0ms);  // zero: wait for ever
  ASSERT_TRUE(r);
  EXPECT_EQ(r->state, JobState::kCompleted);
  const auto unknown = h.engine->await("job-404", 10ms);
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->state, JobState::kFailed);
  EXPECT_NE(unknown->error_message.find("unknown job id"), std::string::npos);
}

TEST(Engine, BadInputFailsItsJobOnly) {
  Harness h;
  const auto bad = h.submit("bad", "bad");
  ProofRequest snap;
  snap.kind = ProofKind::kSnapDealsUpdate;
  const auto unsupported = h.engine->submit(snap);
  ProofRequest unspecified;
  const auto none = h.engine->submit(unspecified);
  const auto no_size = h.submit("nosize", "1,0", Priority::kNormal, 0);
  const auto good = h.submit("good", "2,0");

  JobResult r = h.wait(bad.job_id);
  EXPECT_EQ(r.state, JobState::kFailed);
  EXPECT_NE(r.error_message.find("malformed payload \"bad\""), std::string::npos)
      << r.error_message;
  r = h.wait(unsupported.job_id);
  EXPECT_EQ(r.state, JobState::kFailed);
  EXPECT_NE(r.error_message.find("(snap) is not supported"), std::string::npos) << r.error_message;
  r = h.wait(none.job_id);
  EXPECT_EQ(r.state, JobState::kFailed);
  EXPECT_NE(r.error_message.find("(unspecified) is not supported"), std::string::npos);
  r = h.wait(no_size.job_id);
  EXPECT_EQ(r.state, JobState::kFailed);
  EXPECT_NE(r.error_message.find("sector_size must be set"), std::string::npos);
  EXPECT_EQ(h.wait(good.job_id).state, JobState::kCompleted);
  const EngineStatus st = h.engine->status();
  EXPECT_EQ(st.failed, 4u);
  EXPECT_EQ(st.completed, 1u);
}

TEST(Engine, MemoryBudgetIsNeverExceeded) {
  const groth16::Parameters params = fake_parameters();
  const uint64_t srs = parameters_bytes(params), part = partition_working_set(params);
  EngineConfig c = Harness::base_config();
  c.pce_enabled = false;  // the budget below is sized from the classic working set
  c.synthesis_workers = 2;
  c.cpu_workers = 2;
  c.synthesis_lookahead = 4;
  // Room for the parameters, the prepared jobs and one and a half partitions, plus the 1/16
  // share for queued payloads.
  c.memory_budget_bytes = (srs + 20 * 1000 + part + part / 2) * 16 / 15 + 16;
  Harness h(c);
  std::vector<std::string> ids;
  for (int i = 0; i < 20; ++i)
    ids.push_back(h.submit("j" + std::to_string(i), "2,5").job_id);
  for (const auto& id : ids)
    EXPECT_EQ(h.wait(id).state, JobState::kCompleted);
  // Seen from the proof kind's side, not the engine's ledger: with room for one and a half
  // partitions, two synthesis workers never had two partitions alive at once...
  EXPECT_EQ(h.log.max_live_circuits(), 1);
  const EngineStatus st = h.engine->status();
  EXPECT_LE(st.memory_peak_bytes, c.memory_budget_bytes);
  EXPECT_EQ(st.memory_in_use_bytes, srs + c.memory_budget_bytes / 16);

  // ... while without a budget the same workload does overlap them (the observation above can
  // see a violation).
  c.memory_budget_bytes = 0;
  Harness free_run(c);
  ids.clear();
  for (int i = 0; i < 20; ++i)
    ids.push_back(free_run.submit("f" + std::to_string(i), "2,20").job_id);
  for (const auto& id : ids)
    EXPECT_EQ(free_run.wait(id).state, JobState::kCompleted);
  EXPECT_EQ(free_run.log.max_live_circuits(), 2);
}

TEST(Engine, QueuedPayloadsBeyondTheirShareWaitOnDiskAndComeBack) {
  EngineConfig c = Harness::base_config();
  TempDir spool;
  c.spool_dir = spool.path();
  c.memory_budget_bytes = 4 << 20;  // a 256 KiB share for queued payloads
  Harness h(c);
  const auto blocker = h.submit("blocker", "1,300");
  h.wait_for_log("blocker/0");
  // 40 KiB payloads (the fake parser reads the leading "P,M"): 6 fit the share, 14 spill.
  std::vector<std::string> ids;
  for (int i = 0; i < 20; ++i)
    ids.push_back(h.submit("j" + std::to_string(i), "1,0" + std::string(40 << 10, ' ')).job_id);
  const EngineStatus queued = h.engine->status();
  EXPECT_EQ(queued.queued_payload_bytes, 6u * ((40 << 10) + 3));
  EXPECT_EQ(queued.spooled_jobs, 14u);
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(spool.path()))
    files += e.path().extension() == ".payload";
  EXPECT_EQ(files, 14u);
  EXPECT_TRUE(h.engine->cancel(ids[19]).found);  // a spooled job cancelled before it runs
  for (int i = 0; i < 19; ++i)
    EXPECT_EQ(h.wait(ids[i]).state, JobState::kCompleted) << i;
  EXPECT_EQ(h.wait(ids[19]).state, JobState::kCancelled);
  EXPECT_EQ(h.wait(blocker.job_id).state, JobState::kCompleted);
  const EngineStatus done = h.engine->status();
  EXPECT_EQ(done.queued_payload_bytes, 0u);
  EXPECT_EQ(done.spooled_jobs, 0u);
  for (const auto& e : std::filesystem::directory_iterator(spool.path()))  // the lock alone
    EXPECT_EQ(e.path().filename(), "cuzk-spool.lock");
  EXPECT_LE(done.memory_peak_bytes, c.memory_budget_bytes);
}

TEST(Engine, JobLargerThanTheBudgetFailsWithTheNumbers) {
  const groth16::Parameters params = fake_parameters();
  EngineConfig c = Harness::base_config();
  c.pce_enabled = false;  // the budget below is sized from the classic working set
  // Parameters fit (beside the 1/16 payload share), a partition does not.
  c.memory_budget_bytes = (parameters_bytes(params) + 2000) * 16 / 15 + 16;
  Harness h(c);
  const JobResult r = h.wait(h.submit("big", "1,0").job_id);
  EXPECT_EQ(r.state, JobState::kFailed);
  EXPECT_NE(r.error_message.find("memory budget is"), std::string::npos) << r.error_message;
}

TEST(Engine, PreloadAndEvictParameters) {
  Harness h;
  PreloadResult p = h.engine->preload_srs("fake-9");
  EXPECT_FALSE(p.already_loaded);
  p = h.engine->preload_srs("fake-9");
  EXPECT_TRUE(p.already_loaded);
  EngineStatus st = h.engine->status();
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_EQ(st.srs[0].tier, SrsTier::kWarm);
  EXPECT_EQ(st.memory_in_use_bytes, st.srs[0].size_bytes);
  const EvictResult e = h.engine->evict_srs("fake-9");
  EXPECT_TRUE(e.was_loaded);
  EXPECT_EQ(e.freed_bytes, st.srs[0].size_bytes);
  st = h.engine->status();
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_EQ(st.srs[0].tier, SrsTier::kCold);
  EXPECT_EQ(st.memory_in_use_bytes, 0u);
  EXPECT_FALSE(h.engine->evict_srs("fake-9").was_loaded);
  EXPECT_THROW(h.engine->preload_srs("porep-32g"), std::invalid_argument);  // not served here
  EXPECT_THROW(h.engine->evict_srs("nonsense"), std::invalid_argument);
}

TEST(Engine, ShutdownFinishesInFlightJobs) {
  EngineConfig c = Harness::base_config();
  Harness h(c);
  std::vector<std::string> ids;
  for (const char* tag : {"a", "b", "c"})
    ids.push_back(h.submit(tag, "2,50").job_id);
  h.engine->shutdown(false);
  EXPECT_FALSE(h.engine->accepting());
  for (const auto& id : ids)
    EXPECT_EQ(h.wait(id).state, JobState::kCompleted);
  EXPECT_THROW(h.submit("late", "1,0"), std::runtime_error);
}

TEST(Engine, ShutdownWithCancelEndsEveryJob) {
  Harness h;
  const auto a = h.submit("a", "4,200");
  h.wait_for_log("a/0");
  const auto b = h.submit("b", "4,200");
  const auto t0 = std::chrono::steady_clock::now();
  h.engine->shutdown(true);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_EQ(h.wait(a.job_id).state, JobState::kCancelled);
  EXPECT_EQ(h.wait(b.job_id).state, JobState::kCancelled);
  EXPECT_EQ(h.first_partitions(), std::vector<std::string>{"a"});
}

TEST(Engine, MetricsTextHasCountersHistogramsAndGauges) {
  EngineConfig c = Harness::base_config();
  c.memory_budget_bytes = 1ull << 30;
  Harness h(c);
  h.wait(h.submit("a", "2,0").job_id);
  h.wait(h.submit("bad", "bad").job_id);
  const std::string m = h.engine->metrics_text();
  EXPECT_NE(m.find("# TYPE cuzk_proofs_total counter\n"), std::string::npos);
  EXPECT_NE(m.find("cuzk_proofs_total{kind=\"winning\",outcome=\"completed\"} 1\n"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("cuzk_proofs_total{kind=\"winning\",outcome=\"failed\"} 1\n"),
            std::string::npos);
  EXPECT_NE(m.find("cuzk_partitions_total{kind=\"winning\"} 2\n"), std::string::npos);
  EXPECT_NE(m.find("# TYPE cuzk_job_phase_seconds histogram\n"), std::string::npos);
  EXPECT_NE(m.find("cuzk_job_phase_seconds_bucket{kind=\"winning\",phase=\"total\",le=\"+Inf\"} 2"),
            std::string::npos);
  EXPECT_NE(m.find("cuzk_job_phase_seconds_count{kind=\"winning\",phase=\"synthesis\"} 1"),
            std::string::npos);
  EXPECT_NE(m.find("cuzk_memory_budget_bytes 1073741824\n"), std::string::npos);
  EXPECT_NE(m.find("cuzk_queue_jobs{kind=\"porep\",state=\"pending\"} 0\n"), std::string::npos);
  EXPECT_NE(m.find("cuzk_prover_busy_seconds_total{worker=\"cpu:0\"}"), std::string::npos);
  EXPECT_NE(m.find("cuzk_srs_loaded_bytes{circuit_id=\"fake-1\",tier=\"warm\"}"),
            std::string::npos);
}

TEST(Metrics, TextExpositionFormat) {
  Metrics m;
  m.declare("t_total", "A counter.", Metrics::Type::kCounter);
  m.declare("t_seconds", "A histogram.", Metrics::Type::kHistogram, {0.5, 1, 5});
  m.add("t_total", {{"k", "a\"b\\c\nd"}}, 2);
  m.add("t_total", {{"k", "a\"b\\c\nd"}}, 1.5);
  for (double v : {0.1, 0.7, 0.9, 3.0, 100.0})
    m.observe("t_seconds", {}, v);
  EXPECT_EQ(m.render(),
            "# HELP t_total A counter.\n"
            "# TYPE t_total counter\n"
            "t_total{k=\"a\\\"b\\\\c\\nd\"} 3.5\n"
            "# HELP t_seconds A histogram.\n"
            "# TYPE t_seconds histogram\n"
            "t_seconds_bucket{le=\"0.5\"} 1\n"
            "t_seconds_bucket{le=\"1\"} 3\n"
            "t_seconds_bucket{le=\"5\"} 4\n"
            "t_seconds_bucket{le=\"+Inf\"} 5\n"
            "t_seconds_sum 104.7\n"
            "t_seconds_count 5\n");
  EXPECT_THROW(m.add("undeclared", {}, 1), std::logic_error);
}

}  // namespace
}  // namespace cuzk::engine::test
