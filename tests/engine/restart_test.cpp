// An engine started on a spool directory that a previous engine left jobs in (it died with
// payloads queued on disk) resumes them: same job ids, request ids and order; a client that
// awaits the old id, or submits the same request_id again, gets that job and its proof; new jobs
// are numbered after them; an unreadable file is removed with an event. The files are written by
// PayloadSpool as the engine writes them (a real kill -9 of the daemon is
// tests/server/daemon_test.py's restart scenario).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>

#include "backend/backend_factory.hpp"
#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "engine/resources/payload_spool.hpp"
#include "fake_handler.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;
using cuzk::testing::TempDir;

ProofRequest fake_request(const std::string& request_id, const std::string& payload) {
  ProofRequest r;
  r.request_id = request_id;
  r.kind = ProofKind::kWinningPost;
  r.sector_size = 1;
  r.vanilla_proof.assign(payload.begin(), payload.end());
  return r;
}

TEST(EngineRestart, JobsLeftInTheSpoolAreResumedUnderTheirIdsAndRequestIds) {
  TempDir dir("engine-restart");
  const auto spool_dir = dir.path() / "spool";
  {  // what a daemon that died left: two queued jobs and a damaged file
    PayloadSpool left(spool_dir, 0);
    left.write("job-3", fake_request("curio-a", "2,0"));
    left.write("job-7", fake_request("curio-b", "1,0"));
  }
  std::ofstream(spool_dir / "job-9.payload") << "torn write";

  std::mutex mu;
  std::vector<std::pair<std::string, std::string>> events;
  SynthesisLog log;
  EngineConfig c;
  c.backend = "cpu";
  c.threads = 1;
  c.spool_dir = spool_dir;
  c.pce_dir = dir.path() / "pce";
  c.on_event = [&](const std::string& e, const std::string& m) {
    std::lock_guard lock(mu);
    events.emplace_back(e, m);
  };
  Engine engine(c, {std::make_shared<FakeHandler>(dir.path(), &log)});

  const auto a = engine.await("job-3", 60s);
  ASSERT_TRUE(a.has_value());
  ASSERT_EQ(a->state, JobState::kCompleted) << a->error_message;
  // The client resubmits after the restart: the same job, not a second one.
  const SubmitResult again = engine.submit(fake_request("curio-b", "1,0"));
  EXPECT_TRUE(again.duplicate);
  EXPECT_EQ(again.job_id, "job-7");
  const auto b = engine.await("job-7", 60s);
  ASSERT_TRUE(b.has_value());
  ASSERT_EQ(b->state, JobState::kCompleted) << b->error_message;
  const SubmitResult fresh = engine.submit(fake_request("curio-c", "1,0"));
  // This engine's own ids: none of the resumed ones, in its own series.
  EXPECT_TRUE(fresh.job_id.starts_with("job-") && fresh.job_id.ends_with("-1")) << fresh.job_id;
  EXPECT_NE(fresh.job_id, "job-3");
  EXPECT_NE(fresh.job_id, "job-7");
  EXPECT_EQ(engine.await(fresh.job_id, 60s)->state, JobState::kCompleted);

  // The resumed proofs verify under the circuit's key, for the payload the files held.
  ThreadPool pool(1);
  const testing::RandomCircuit circuit(kFakeConstraints, 2, kFakeCircuitSeed);
  const auto pvk = groth16::prepare_verifying_key(
      groth16::generate_parameters_insecure(
          circuit, groth16::ToxicWaste::insecure_from_seed("engine tests"), pool)
          .vk);
  const auto proofs = groth16::decode_proofs(a->proof);
  ASSERT_TRUE(proofs && proofs->size() == 2);
  for (const auto& p : *proofs)
    EXPECT_TRUE(groth16::verify_proof(pvk, p, circuit.public_inputs()));
  // Resumed in their order, the first job first.
  const auto synthesized = log.entries();
  ASSERT_FALSE(synthesized.empty());
  EXPECT_EQ(synthesized.front(), "curio-a/0");

  std::lock_guard lock(mu);
  int resumed = 0, unreadable = 0;
  for (const auto& [e, m] : events) {
    resumed += e == "job_resumed";
    if (e == "spool_unreadable") {
      ++unreadable;
      EXPECT_NE(m.find("job-9.payload"), std::string::npos) << m;
    }
  }
  EXPECT_EQ(resumed, 2);
  EXPECT_EQ(unreadable, 1);
  for (const auto& e : std::filesystem::directory_iterator(spool_dir))  // nothing left behind
    EXPECT_EQ(e.path().filename(), "cuzk-spool.lock");                  // but the engine's lock
  EXPECT_EQ(engine.status().spooled_jobs, 0u);
}

// A job that lived only in memory dies with its engine; the next engine must not give its id to
// another job, or a client still awaiting it would get that job's proof as its own.
TEST(EngineRestart, AnIdOfADeadEngineIsNeverGivenToAnotherJob) {
  TempDir dir("engine-ids");
  SynthesisLog log;
  EngineConfig c;
  c.backend = "cpu";
  c.threads = 1;
  c.pce_dir = dir.path() / "pce";
  std::string old_id;
  {
    Engine first(c, {std::make_shared<FakeHandler>(dir.path(), &log)});
    old_id = first.submit(fake_request("curio-a", "1,0")).job_id;
    ASSERT_EQ(first.await(old_id, 60s)->state, JobState::kCompleted);
  }
  Engine second(c, {std::make_shared<FakeHandler>(dir.path(), &log)});
  const std::string new_id = second.submit(fake_request("curio-b", "1,0")).job_id;
  EXPECT_NE(new_id, old_id);
  const auto late = second.await(old_id, 1s);  // the dead engine's client asks again
  ASSERT_TRUE(late.has_value());
  EXPECT_EQ(late->state, JobState::kFailed);
  EXPECT_NE(late->error_message.find(old_id), std::string::npos) << late->error_message;
  EXPECT_TRUE(late->proof.empty());
}

// backend = "gpu" on a machine with no usable device (this one in CI): the engine is built
// without provers instead of throwing, says why, refuses work with NotServingError, and leaves
// the spooled jobs on disk for an engine that can prove them.
TEST(EngineNoProver, BackendGpuWithoutADeviceRefusesWorkAndKeepsTheSpool) {
  if (groth16::plan_provers("auto", {}).front() != "cpu") GTEST_SKIP() << "a CUDA device is here";
  TempDir dir("engine-no-prover");
  const auto spool_dir = dir.path() / "spool";
  {
    PayloadSpool left(spool_dir, 0);
    left.write("job-4", fake_request("curio-a", "1,0"));
  }
  std::vector<std::pair<std::string, std::string>> events;
  EngineConfig c;
  c.backend = "gpu";
  c.threads = 1;
  c.spool_dir = spool_dir;
  c.pce_dir = dir.path() / "pce";
  c.on_event = [&](const std::string& e, const std::string& m) { events.emplace_back(e, m); };
  SynthesisLog log;
  Engine engine(c, {std::make_shared<FakeHandler>(dir.path(), &log)});

  const EngineStatus st = engine.status();
  EXPECT_NE(st.no_prover_reason.find("CUDA"), std::string::npos) << st.no_prover_reason;
  EXPECT_TRUE(st.gpus.empty());
  try {
    (void)engine.submit(fake_request("curio-b", "1,0"));
    ADD_FAILURE() << "a job was taken with no prover";
  } catch (const NotServingError& e) {
    EXPECT_NE(std::string(e.what()).find("no prover"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)engine.preload_srs("fake-1"), NotServingError);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].first, "no_prover");
  EXPECT_TRUE(std::filesystem::exists(spool_dir / "job-4.payload"));  // not resumed, not lost
  EXPECT_TRUE(log.entries().empty());
}

}  // namespace
}  // namespace cuzk::engine::test
