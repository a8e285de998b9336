// cuzk.v1 messages <-> engine structs: every SubmitProofRequest field (binary bytes intact, enums
// by number, unknown numbers passed on), each final state and the five timings of
// AwaitProofResponse, TIMEOUT, and GetStatus with memory as pinned_memory_*.
#include <gtest/gtest.h>

#include "server/translate.hpp"

namespace cuzk::server {
namespace {

std::vector<uint8_t> bytes(const std::string& s) {
  return {s.begin(), s.end()};
}

TEST(Translate, SubmitRequestEveryField) {
  const std::string binary("\x00\x01\xff{json}\x00", 9);
  v1::SubmitProofRequest m;
  m.set_request_id("req-1");
  m.set_proof_kind(v1::SNAP_DEALS_UPDATE);
  m.set_sector_size(34359738368);
  m.set_registered_proof(8);
  m.set_priority(v1::CRITICAL);
  m.set_vanilla_proof(binary);
  m.add_vanilla_proofs("p0");
  m.add_vanilla_proofs(binary);
  m.set_sector_number(42);
  m.set_miner_id(1000);
  m.set_randomness(std::string(32, '\x07'));
  m.set_partition_index(3);
  m.set_comm_r_old("old");
  m.set_comm_r_new("new");
  m.set_comm_d_new("dnew");

  const engine::ProofRequest r = to_engine(m);
  EXPECT_EQ(r.request_id, "req-1");
  EXPECT_EQ(r.kind, engine::ProofKind::kSnapDealsUpdate);
  EXPECT_EQ(r.sector_size, 34359738368u);
  EXPECT_EQ(r.registered_proof, 8u);
  EXPECT_EQ(r.priority, engine::Priority::kCritical);
  EXPECT_EQ(r.vanilla_proof, bytes(binary));
  ASSERT_EQ(r.vanilla_proofs.size(), 2u);
  EXPECT_EQ(r.vanilla_proofs[0], bytes("p0"));
  EXPECT_EQ(r.vanilla_proofs[1], bytes(binary));
  EXPECT_EQ(r.sector_number, 42u);
  EXPECT_EQ(r.miner_id, 1000u);
  EXPECT_EQ(r.randomness, std::vector<uint8_t>(32, 7));
  EXPECT_EQ(r.partition_index, 3u);
  EXPECT_EQ(r.comm_r_old, bytes("old"));
  EXPECT_EQ(r.comm_r_new, bytes("new"));
  EXPECT_EQ(r.comm_d_new, bytes("dnew"));
}

TEST(Translate, EnumsByNumberAndWhatNoKindCouldServe) {
  for (int kind = 1; kind <= 4; ++kind) {
    v1::SubmitProofRequest m;
    m.set_proof_kind(static_cast<v1::ProofKind>(kind));
    m.set_vanilla_proof("x");
    EXPECT_EQ(request_problem(m), "") << kind;
    EXPECT_EQ(static_cast<int>(to_engine(m).kind), kind);
    for (int priority = 0; priority <= 4; ++priority) {
      m.set_priority(static_cast<v1::Priority>(priority));
      EXPECT_EQ(request_problem(m), "") << priority;
      EXPECT_EQ(static_cast<int>(to_engine(m).priority), priority);
    }
  }
  v1::SubmitProofRequest ok;
  ok.set_proof_kind(v1::WINDOW_POST_PARTITION);
  ok.add_vanilla_proofs("sector 1");  // PoSt carries one per sector
  EXPECT_EQ(request_problem(ok), "");
  // Refused with the reason (before: given a job id; priority 2^31 - 1 ranked above CRITICAL).
  EXPECT_NE(request_problem(v1::SubmitProofRequest{}).find("PROOF_KIND_UNSPECIFIED"),
            std::string::npos);
  v1::SubmitProofRequest m = ok;
  m.set_proof_kind(static_cast<v1::ProofKind>(7));  // proto3 keeps unknown enum numbers
  EXPECT_NE(request_problem(m).find("proof_kind 7 (unknown)"), std::string::npos);
  m = ok;
  m.set_proof_kind(static_cast<v1::ProofKind>(-3));
  EXPECT_NE(request_problem(m).find("proof_kind -3"), std::string::npos);
  for (int priority : {5, 2147483647, -1, -2147483647 - 1}) {
    m = ok;
    m.set_priority(static_cast<v1::Priority>(priority));
    EXPECT_NE(request_problem(m).find("priority " + std::to_string(priority)), std::string::npos);
  }
  m = ok;
  m.clear_vanilla_proofs();
  EXPECT_NE(request_problem(m).find("no vanilla_proof"), std::string::npos);
}

TEST(Translate, ErrorMessagesBecomeValidUtf8) {
  engine::JobResult r;
  r.state = engine::JobState::kFailed;
  r.error_message = "malformed C1 output: last read: '\"\xff\xfe'";
  const v1::AwaitProofResponse m = to_proto(r);
  EXPECT_EQ(m.error_message(), "malformed C1 output: last read: '\"\\xff\\xfe'");
  std::string wire;
  EXPECT_TRUE(m.SerializeToString(&wire));
  v1::AwaitProofResponse back;
  EXPECT_TRUE(back.ParseFromString(wire));  // what the client does: fails on invalid UTF-8
  EXPECT_EQ(back.error_message(), m.error_message());
}

TEST(Translate, SubmitResponse) {
  const v1::SubmitProofResponse m = to_proto(engine::SubmitResult{"job-9", 4, "gpu:1", true});
  EXPECT_EQ(m.job_id(), "job-9");
  EXPECT_EQ(m.queue_position(), 4u);
  EXPECT_EQ(m.assigned_gpu(), "gpu:1");
}

TEST(Translate, AwaitResponseStatesAndTimings) {
  engine::JobResult r;
  r.job_id = "job-3";
  r.state = engine::JobState::kCompleted;
  r.proof = std::vector<uint8_t>(384, 0xab);
  r.proof[0] = 0;
  r.timings = {11, 22, 33, 44, 155};
  r.batch_size = 2;
  v1::AwaitProofResponse m = to_proto(r);
  EXPECT_EQ(m.job_id(), "job-3");
  EXPECT_EQ(m.status(), v1::AwaitProofResponse::COMPLETED);
  EXPECT_EQ(m.proof(), std::string(r.proof.begin(), r.proof.end()));
  EXPECT_EQ(m.error_message(), "");
  EXPECT_EQ(m.queue_wait_ms(), 11u);
  EXPECT_EQ(m.srs_load_ms(), 22u);
  EXPECT_EQ(m.synthesis_ms(), 33u);
  EXPECT_EQ(m.gpu_compute_ms(), 44u);
  EXPECT_EQ(m.total_ms(), 155u);

  r.proof.clear();
  r.state = engine::JobState::kFailed;
  r.error_message = "malformed C1 output: x";
  m = to_proto(r);
  EXPECT_EQ(m.status(), v1::AwaitProofResponse::FAILED);
  EXPECT_EQ(m.error_message(), "malformed C1 output: x");
  EXPECT_TRUE(m.proof().empty());

  r.state = engine::JobState::kCancelled;
  EXPECT_EQ(to_proto(r).status(), v1::AwaitProofResponse::CANCELLED);
  r.state = engine::JobState::kRunning;  // never final: the engine does not return it
  EXPECT_EQ(to_proto(r).status(), v1::AwaitProofResponse::UNKNOWN);

  m = timeout_response("job-5");
  EXPECT_EQ(m.job_id(), "job-5");
  EXPECT_EQ(m.status(), v1::AwaitProofResponse::TIMEOUT);
  EXPECT_EQ(m.total_ms(), 0u);
}

TEST(Translate, StatusResponse) {
  engine::EngineStatus s;
  s.gpus.push_back({1, "NVIDIA H200", 141ull << 30, 100ull << 30, "job-2", "porep", ""});
  s.srs.push_back({"porep-32g", engine::SrsTier::kHot, 47ull << 30, 2});
  s.srs.push_back({"porep-2k", engine::SrsTier::kWarm, 1 << 20, 0});
  s.srs.push_back({"porep-8m", engine::SrsTier::kCold, 0, 0});
  s.queues.push_back({"porep", 5, 1});
  s.completed = 10;
  s.failed = 2;
  s.cancelled = 3;
  s.uptime_seconds = 99;
  s.memory_in_use_bytes = 123;
  s.memory_budget_bytes = 456;

  const v1::GetStatusResponse m = to_proto(s);
  ASSERT_EQ(m.gpus_size(), 1);
  EXPECT_EQ(m.gpus(0).ordinal(), 1u);
  EXPECT_EQ(m.gpus(0).name(), "NVIDIA H200");
  EXPECT_EQ(m.gpus(0).vram_total_bytes(), 141ull << 30);
  EXPECT_EQ(m.gpus(0).vram_free_bytes(), 100ull << 30);
  EXPECT_EQ(m.gpus(0).current_job_id(), "job-2");
  EXPECT_EQ(m.gpus(0).current_proof_kind(), "porep");
  ASSERT_EQ(m.loaded_srs_size(), 3);
  EXPECT_EQ(m.loaded_srs(0).circuit_id(), "porep-32g");
  EXPECT_EQ(m.loaded_srs(0).tier(), v1::SRSStatus::HOT);
  EXPECT_EQ(m.loaded_srs(0).size_bytes(), 47ull << 30);
  EXPECT_EQ(m.loaded_srs(0).ref_count(), 2u);
  EXPECT_EQ(m.loaded_srs(1).tier(), v1::SRSStatus::WARM);
  EXPECT_EQ(m.loaded_srs(2).tier(), v1::SRSStatus::COLD);
  ASSERT_EQ(m.queues_size(), 1);
  EXPECT_EQ(m.queues(0).proof_kind(), "porep");
  EXPECT_EQ(m.queues(0).pending(), 5u);
  EXPECT_EQ(m.queues(0).in_progress(), 1u);
  EXPECT_EQ(m.total_proofs_completed(), 10u);
  EXPECT_EQ(m.total_proofs_failed(), 2u);
  EXPECT_EQ(m.uptime_seconds(), 99u);
  EXPECT_EQ(m.pinned_memory_bytes(), 123u);
  EXPECT_EQ(m.pinned_memory_limit_bytes(), 456u);
}

}  // namespace
}  // namespace cuzk::server
