// The engine's scheduling, pipeline and admission rules, observed with real (small) Groth16
// proofs of a fake proof kind: completion with proofs that verify under the circuit's own key,
// priority order, FIFO within a level, batching by size / timeout / higher-priority flush,
// sort_by_type, cancellation (pending and running, memory returned), idempotent request ids,
// await timeouts, bad input failing only its job, the memory budget never exceeded, SRS
// preload/evict, shutdown (finish and cancel) and the Prometheus text. What must happen while a
// job prepares or synthesizes is held there by a gate (fake_handler.hpp), not raced by a sleep.
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
#include "engine_harness.hpp"
#include "fake_handler.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;

using cuzk::testing::TempDir;

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
  expect_phases_add_up(r);
  EXPECT_GT(r.timings.gpu_compute_ms + r.timings.synthesis_ms, 0u);
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
  // The only worker holds A/0 while the rest arrive, and A keeps a partition to hand out, so
  // the preparer starts none of them either.
  const auto a = h.submit("A", "2,0 synthesis=A");
  ASSERT_TRUE(h.gates.wait_arrived("A/0"));
  std::vector<std::string> ids;
  ids.push_back(h.submit("B", "1,0", Priority::kLow).job_id);
  ids.push_back(h.submit("C", "1,0", Priority::kNormal).job_id);
  ids.push_back(h.submit("C2", "1,0", Priority::kUnspecified).job_id);  // NORMAL
  ids.push_back(h.submit("D", "1,0", Priority::kCritical).job_id);
  ids.push_back(h.submit("E", "1,0", Priority::kHigh).job_id);
  h.gates.open_all();
  EXPECT_EQ(h.wait(a.job_id).state, JobState::kCompleted);
  for (const auto& id : ids)
    EXPECT_EQ(h.wait(id).state, JobState::kCompleted);
  EXPECT_EQ(h.first_partitions(), (std::vector<std::string>{"A", "D", "E", "C", "C2", "B"}));
}

TEST(Engine, QueuePositionCountsJobsAheadAtTheSameOrHigherPriority) {
  Harness h;
  // The only worker holds A/0 and the preparer holds H (HIGH, so it starts before A's second
  // partition): nothing submitted below starts while they are held.
  h.submit("A", "2,0 synthesis=A");
  ASSERT_TRUE(h.gates.wait_arrived("A/0"));
  h.submit("H", "1,0 prepare=H", Priority::kHigh);
  ASSERT_TRUE(h.gates.wait_arrived("H"));
  EXPECT_EQ(h.submit("B", "1,0", Priority::kLow).queue_position, 0u);
  EXPECT_EQ(h.submit("C", "1,0", Priority::kHigh).queue_position, 0u);
  EXPECT_EQ(h.submit("D", "1,0", Priority::kNormal).queue_position, 1u);  // C
  EXPECT_EQ(h.submit("E", "1,0", Priority::kLow).queue_position, 3u);     // B, C, D
}

TEST(Engine, BatchReleasedWhenFull) {
  EngineConfig c = Harness::base_config();
  c.max_batch_size = 3;
  c.max_batch_wait_ms = 3'600'000;  // held for it, the jobs would not finish within h.wait's minute
  Harness h(c);
  std::vector<std::string> ids;
  for (const char* tag : {"a", "b", "c"})
    ids.push_back(h.submit(tag, "1,0").job_id);
  for (const auto& id : ids) {
    const JobResult r = h.wait(id);
    EXPECT_EQ(r.state, JobState::kCompleted);
    EXPECT_EQ(r.batch_size, 3u);
  }
}

TEST(Engine, PartialBatchReleasedAfterTheWait) {
  EngineConfig c = Harness::base_config();
  c.max_batch_size = 4;
  c.max_batch_wait_ms = 300;
  Harness h(c);
  // The only worker is held by a job of another circuit, with a partition left to hand out,
  // while a and b arrive: neither can be released before both are there, however slowly this
  // thread runs.
  const auto blocker = h.submit("blocker", "2,0 synthesis=blocker", Priority::kNormal, 2);
  ASSERT_TRUE(h.gates.wait_arrived("blocker/0"));
  const auto a = h.submit("a", "1,0");
  const auto b = h.submit("b", "1,0");
  h.gates.open_all();
  for (const auto& id : {a.job_id, b.job_id}) {
    const JobResult r = h.wait(id);
    EXPECT_EQ(r.state, JobState::kCompleted);
    EXPECT_EQ(r.batch_size, 2u);
    expect_phases_add_up(r);
  }
  // The first of the group waited the whole batch wait, by the engine's own clock.
  EXPECT_GE(h.wait(a.job_id).timings.queue_wait_ms, 300u);
  EXPECT_EQ(h.wait(blocker.job_id).state, JobState::kCompleted);
}

TEST(Engine, HigherPriorityArrivalFlushesTheCollectingBatch) {
  EngineConfig c = Harness::base_config();
  c.max_batch_size = 4;
  c.max_batch_wait_ms = 3'600'000;  // only the flush can release a and b within h.wait's minute
  Harness h(c);
  const auto a = h.submit("a", "1,0");
  const auto b = h.submit("b", "1,0");
  const auto x = h.submit("x", "1,0", Priority::kHigh, 2);
  EXPECT_EQ(h.wait(x.job_id).batch_size, 1u);
  EXPECT_EQ(h.wait(a.job_id).batch_size, 2u);
  EXPECT_EQ(h.wait(b.job_id).state, JobState::kCompleted);
}

TEST(Engine, SortByTypeKeepsTheLoadedCircuitTogether) {
  for (const bool sort : {false, true}) {
    EngineConfig c = Harness::base_config();
    c.sort_by_type = sort;
    Harness h(c);
    // A keeps a partition to hand out while the only worker is held in A/0: the four jobs
    // behind it all wait, and the order is the scheduler's, not their arrival's.
    const auto a = h.submit("A", "2,0 synthesis=A", Priority::kNormal, 1);
    ASSERT_TRUE(h.gates.wait_arrived("A/0"));
    std::vector<std::string> ids;
    ids.push_back(h.submit("Y1", "1,0", Priority::kNormal, 2).job_id);
    ids.push_back(h.submit("X2", "1,0", Priority::kNormal, 1).job_id);
    ids.push_back(h.submit("Y2", "1,0", Priority::kNormal, 2).job_id);
    ids.push_back(h.submit("X3", "1,0", Priority::kNormal, 1).job_id);
    h.gates.open_all();
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
  // A keeps a partition to hand out while the only worker is held in A/0, so B stays pending:
  // the preparer starts the next job once the one ahead has handed out its partitions.
  const auto a = h.submit("A", "2,0 synthesis=A");
  ASSERT_TRUE(h.gates.wait_arrived("A/0"));
  const auto b = h.submit("B", "1,0");
  const CancelResult c = h.engine->cancel(b.job_id);
  EXPECT_TRUE(c.found);
  EXPECT_FALSE(c.was_running);
  EXPECT_EQ(h.wait(b.job_id).state, JobState::kCancelled);
  h.gates.open_all();
  EXPECT_EQ(h.wait(a.job_id).state, JobState::kCompleted);
  EXPECT_EQ(h.first_partitions(), std::vector<std::string>{"A"});
  EXPECT_FALSE(h.engine->cancel("job-unknown").found);
  EXPECT_FALSE(h.engine->cancel(a.job_id).was_running);  // already final
}

TEST(Engine, CancelRunningJobStopsAtAPartitionBoundaryAndReturnsItsMemory) {
  EngineConfig c = Harness::base_config();
  c.memory_budget_bytes = 64ull << 20;
  Harness h(c);
  const auto a = h.submit("A", "8,0 synthesis=A");
  h.gates.open("A/0");
  ASSERT_TRUE(h.gates.wait_arrived("A/1"));  // A/0 done, the worker holds A/1
  const CancelResult cr = h.engine->cancel(a.job_id);
  EXPECT_TRUE(cr.found);
  EXPECT_TRUE(cr.was_running);
  const JobResult r = h.wait(a.job_id);
  EXPECT_EQ(r.state, JobState::kCancelled);
  EXPECT_TRUE(r.proof.empty());
  expect_phases_add_up(r);
  h.gates.open_all();
  // Once the worker lets go of A/1, only the (unreferenced) parameters and the queued-payload
  // share stay reserved.
  EXPECT_TRUE(wait_until([&] {
    const EngineStatus st = h.engine->status();
    return st.srs.size() == 1 && st.srs[0].ref_count == 0 &&
           st.memory_in_use_bytes == st.srs[0].size_bytes + c.memory_budget_bytes / 16;
  }));
  // No partition after the one under way when it was cancelled.
  EXPECT_EQ(h.log.entries(), (std::vector<std::string>{"A/0", "A/1"}));
  // The engine goes on serving.
  EXPECT_EQ(h.wait(h.submit("B", "1,0").job_id).state, JobState::kCompleted);
}

TEST(Engine, CancelDuringPreparationDropsTheJobCleanly) {
  Harness h;
  h.engine->preload_srs("fake-1");
  const auto a = h.submit("A", "2,0 prepare=A");  // held while parsing its payload
  ASSERT_TRUE(h.gates.wait_arrived("A"));
  const CancelResult c = h.engine->cancel(a.job_id);
  EXPECT_TRUE(c.was_running);
  EXPECT_EQ(h.wait(a.job_id).state, JobState::kCancelled);
  h.gates.open("A");
  EXPECT_TRUE(wait_until([&] {
    const EngineStatus st = h.engine->status();
    return st.srs.size() == 1 && st.srs[0].ref_count == 0 &&
           st.memory_in_use_bytes == st.srs[0].size_bytes;
  }));
  EXPECT_TRUE(h.log.entries().empty());  // no partition of it was synthesized
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
  const auto a = h.submit("A", "1,0 synthesis=A");
  EXPECT_FALSE(h.engine->await(a.job_id, 20ms).has_value());  // held: it cannot be done
  h.gates.open("A/0");
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
    ids.push_back(
        free_run.submit("f" + std::to_string(i), "2,0 synthesis=f" + std::to_string(i)).job_id);
  // Both workers inside f0's partitions at once (nothing held them apart), then let all go.
  EXPECT_TRUE(free_run.gates.wait_arrived("f0/0"));
  EXPECT_TRUE(free_run.gates.wait_arrived("f0/1"));
  free_run.gates.open_all();
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
  // The blocker keeps a partition to hand out while the only worker is held in its first, so
  // no job behind it starts (or reads its payload back) until the gates open.
  const auto blocker = h.submit("blocker", "2,0 synthesis=blocker");
  ASSERT_TRUE(h.gates.wait_arrived("blocker/0"));
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
  h.gates.open_all();
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
  const auto a = h.submit("a", "4,0 synthesis=a");
  ASSERT_TRUE(h.gates.wait_arrived("a/0"));
  const auto b = h.submit("b", "4,0");
  // The shutdown cancels both at once, then waits for the worker to let go of a/0.
  std::thread stopper([&] { h.engine->shutdown(true); });
  EXPECT_TRUE(wait_until([&] { return !h.engine->accepting(); }));
  EXPECT_EQ(h.engine->await(b.job_id, 1ms).value_or(JobResult{}).state, JobState::kCancelled);
  h.gates.open_all();
  stopper.join();
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
