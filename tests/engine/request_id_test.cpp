// request_id idempotency compares the request: the same request again (at any priority) is the
// same job, another request under a taken id is RequestIdConflictError naming the job that has
// it (issue 29: a WinningPoSt request got a WindowPoSt job's proof); a job resumed from the
// spool is compared with the request it was spooled with. has_job tells known ids apart.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "engine/request_digest.hpp"
#include "engine/resources/payload_spool.hpp"
#include "fake_handler.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;
using cuzk::testing::TempDir;

ProofRequest fake_request(const std::string& request_id, const std::string& payload,
                          Priority priority = Priority::kNormal) {
  ProofRequest r;
  r.request_id = request_id;
  r.kind = ProofKind::kWinningPost;
  r.sector_size = 1;
  r.priority = priority;
  r.vanilla_proof.assign(payload.begin(), payload.end());
  return r;
}

EngineConfig cpu_config(const TempDir& dir) {
  EngineConfig c;
  c.backend = "cpu";
  c.threads = 1;
  c.pce_dir = dir.path() / "pce";
  return c;
}

// The conflict's message, or "" when the submission was taken.
std::string conflict_of(Engine& engine, const ProofRequest& r) {
  try {
    (void)engine.submit(r);
  } catch (const RequestIdConflictError& e) {
    return e.what();
  }
  return "";
}

TEST(RequestDigest, EveryFieldButThePriorityAndTheIdCounts) {
  const ProofRequest base = fake_request("a", "1,0");
  const RequestDigest d = request_digest(base);
  ProofRequest same = fake_request("b", "1,0", Priority::kCritical);
  EXPECT_EQ(request_digest(same), d);
  std::vector<ProofRequest> others(8, base);
  others[0].kind = ProofKind::kWindowPostPartition;
  others[1].sector_size = 2;
  others[2].registered_proof = 1;
  others[3].sector_number = 1;
  others[4].miner_id = 1;
  others[5].randomness = {0};
  others[6].vanilla_proof.push_back('0');
  others[7].vanilla_proofs = {{}};  // one empty vanilla proof is not none
  for (size_t i = 0; i < others.size(); ++i)
    EXPECT_NE(request_digest(others[i]), d) << i;
  // Lengths are part of it: moving a byte from one field to the next is another request.
  ProofRequest split = base, moved = base;
  split.comm_r_old = {1};
  moved.comm_r_new = {1};
  EXPECT_NE(request_digest(split), request_digest(moved));
}

TEST(EngineRequestId, AnotherRequestUnderATakenIdIsRefused) {
  TempDir dir("engine-request-id");
  SynthesisLog log;
  Engine engine(cpu_config(dir), {std::make_shared<FakeHandler>(dir.path(), &log)});
  const SubmitResult first = engine.submit(fake_request("same", "1,0"));
  const SubmitResult again = engine.submit(fake_request("same", "1,0", Priority::kHigh));
  EXPECT_TRUE(again.duplicate);
  EXPECT_EQ(again.job_id, first.job_id);
  EXPECT_EQ(conflict_of(engine, fake_request("same", "1,1")),
            "request_id \"same\" is taken by " + first.job_id +
                " (a winning job) whose request differs from this one (another payload or "
                "field); a new request needs a new request_id");
  ProofRequest window = fake_request("same", "1,0");
  window.kind = ProofKind::kWindowPostPartition;
  EXPECT_NE(conflict_of(engine, window).find("(another proof kind)"), std::string::npos);
  ASSERT_EQ(engine.await(first.job_id, 60s)->state, JobState::kCompleted);
  EXPECT_NE(conflict_of(engine, fake_request("same", "2,0")), "");  // after completion too
  EXPECT_EQ(engine.status().completed, 1u);
  EXPECT_TRUE(engine.has_job(first.job_id));
  EXPECT_FALSE(engine.has_job("job-404"));
}

TEST(EngineRequestId, AResumedJobIsComparedWithItsSpooledRequest) {
  TempDir dir("engine-request-id-resumed");
  const auto spool_dir = dir.path() / "spool";
  {
    PayloadSpool left(spool_dir, 0);
    left.write("job-3", fake_request("curio-a", "1,0"));
  }
  EngineConfig c = cpu_config(dir);
  c.spool_dir = spool_dir;
  SynthesisLog log;
  Engine engine(c, {std::make_shared<FakeHandler>(dir.path(), &log)});
  EXPECT_TRUE(conflict_of(engine, fake_request("curio-a", "2,0"))
                  .starts_with("request_id \"curio-a\" is taken by job-3 "));
  const SubmitResult same = engine.submit(fake_request("curio-a", "1,0"));
  EXPECT_TRUE(same.duplicate);
  EXPECT_EQ(same.job_id, "job-3");
  EXPECT_EQ(engine.await("job-3", 60s)->state, JobState::kCompleted);
}

}  // namespace
}  // namespace cuzk::engine::test
