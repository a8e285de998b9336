// ProvingService over a real engine with the engine tests' fake proof kind (small real proofs,
// milliseconds each; tests/engine/fake_handler.hpp), served by an in-process gRPC server: what
// each rpc answers, AwaitProof slices that notice a departed client while the job keeps running,
// idempotent resubmission (and ALREADY_EXISTS for a request_id reused by another request),
// NOT_FOUND for unknown job ids, ids past their bound refused unquoted, UNAVAILABLE while
// shutting down, status codes of the SRS calls. A job that must not finish during a check is
// held pending by the batch collector (PendingServiceTest), not made slow.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "fake_handler.hpp"
#include "server/proving_service.hpp"
#include "server/translate.hpp"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;
using engine::test::FakeHandler;
using engine::test::SynthesisLog;

class ServiceTest : public ::testing::Test {
 protected:
  // hold_pending: every job stays pending (a batch of 8 that waits an hour) until cancelled.
  explicit ServiceTest(bool hold_pending = false) {
    dir_ =
        std::filesystem::temp_directory_path() / ("cuzk-server-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    engine::EngineConfig config;
    config.backend = "cpu";
    config.threads = 1;
    config.memory_budget_bytes = 1ull << 30;
    config.pce_dir = dir_ / "pce";  // recorded circuits (the default lies beside param_cache)
    if (hold_pending) {
      config.max_batch_size = 8;
      config.max_batch_wait_ms = 3'600'000;
    }
    std::vector<std::shared_ptr<const engine::CircuitHandler>> handlers{
        std::make_shared<FakeHandler>(dir_, &log_)};
    engine_ = std::make_unique<engine::Engine>(config, handlers);

    ServiceOptions options;
    options.await_slice = 50ms;
    options.on_submitted = [this](const SubmitEvent& e) {
      std::lock_guard<std::mutex> lock(mu_);
      submitted_.push_back(e);
    };
    options.on_client_gone = [this](const std::string& id) {
      std::lock_guard<std::mutex> lock(mu_);
      gone_.push_back(id);
    };
    service_ = std::make_unique<ProvingService>(*engine_, options);
    grpc::ServerBuilder builder;
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    stub_ = v1::ProvingEngine::NewStub(server_->InProcessChannel(grpc::ChannelArguments()));
  }
  ~ServiceTest() override {
    server_->Shutdown(std::chrono::system_clock::now() + 1s);
    engine_->shutdown(true);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // A fake job: `partitions` partitions of `ms` milliseconds synthesis each.
  static v1::SubmitProofRequest fake(const std::string& request_id, const std::string& payload) {
    v1::SubmitProofRequest r;
    r.set_request_id(request_id);
    r.set_proof_kind(v1::WINNING_POST);
    r.set_sector_size(1);
    r.set_vanilla_proof(payload);
    return r;
  }

  // Waits for `done` (a hang guard of 60 s, not a speed bound).
  static void wait_until(const std::function<bool()>& done) {
    const auto give_up = std::chrono::steady_clock::now() + 60s;
    while (!done() && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(5ms);
  }

  grpc::Status submit(const v1::SubmitProofRequest& r, std::string* job_id) {
    grpc::ClientContext ctx;
    v1::SubmitProofResponse out;
    grpc::Status s = stub_->SubmitProof(&ctx, r, &out);
    *job_id = out.job_id();
    return s;
  }

  v1::AwaitProofResponse await(const std::string& job_id, uint64_t timeout_ms) {
    grpc::ClientContext ctx;
    v1::AwaitProofRequest r;
    r.set_job_id(job_id);
    r.set_timeout_ms(timeout_ms);
    v1::AwaitProofResponse out;
    EXPECT_TRUE(stub_->AwaitProof(&ctx, r, &out).ok());
    return out;
  }

  std::vector<std::string> gone() {
    std::lock_guard<std::mutex> lock(mu_);
    return gone_;
  }

  std::filesystem::path dir_;
  SynthesisLog log_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<ProvingService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::ProvingEngine::Stub> stub_;
  std::mutex mu_;
  std::vector<SubmitEvent> submitted_;
  std::vector<std::string> gone_;
};

class PendingServiceTest : public ServiceTest {
 protected:
  PendingServiceTest() : ServiceTest(true) {}
};

TEST_F(ServiceTest, SubmitAwaitAndProve) {
  std::string id;
  ASSERT_TRUE(submit(fake("a", "2,1"), &id).ok());
  const v1::AwaitProofResponse r = await(id, 60'000);
  EXPECT_EQ(r.job_id(), id);
  EXPECT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED) << r.error_message();
  EXPECT_EQ(r.proof().size(), 2u * 192);
  EXPECT_GE(r.total_ms(), r.queue_wait_ms());
  ASSERT_EQ(submitted_.size(), 1u);
  EXPECT_EQ(submitted_[0].request_id, "a");
  EXPECT_EQ(submitted_[0].kind, engine::ProofKind::kWinningPost);
  EXPECT_EQ(submitted_[0].input_bytes, 3u);
  EXPECT_EQ(submitted_[0].result.job_id, id);

  grpc::ClientContext ctx;
  v1::ProveRequest prove;
  *prove.mutable_submit() = fake("b", "1,1");
  v1::ProveResponse out;
  ASSERT_TRUE(stub_->Prove(&ctx, prove, &out).ok());
  EXPECT_EQ(out.result().status(), v1::AwaitProofResponse::COMPLETED);
  EXPECT_EQ(out.result().proof().size(), 192u);
  EXPECT_NE(out.result().job_id(), id);

  std::string forever;
  ASSERT_TRUE(submit(fake("c", "1,1"), &forever).ok());
  EXPECT_EQ(await(forever, UINT64_MAX).status(), v1::AwaitProofResponse::COMPLETED);

  grpc::ClientContext empty_ctx;
  const grpc::Status empty = stub_->Prove(&empty_ctx, v1::ProveRequest(), &out);
  EXPECT_EQ(empty.error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  grpc::ClientContext sctx;
  v1::GetStatusResponse st;
  ASSERT_TRUE(stub_->GetStatus(&sctx, v1::GetStatusRequest(), &st).ok());
  EXPECT_EQ(st.total_proofs_completed(), 3u);
  EXPECT_EQ(st.pinned_memory_limit_bytes(), 1ull << 30);
  grpc::ClientContext mctx;
  v1::GetMetricsResponse metrics;
  ASSERT_TRUE(stub_->GetMetrics(&mctx, v1::GetMetricsRequest(), &metrics).ok());
  EXPECT_NE(metrics.prometheus_text().find("cuzk_proofs_total"), std::string::npos);
}

TEST_F(ServiceTest, BadInputFailsTheJobNotTheCall) {
  std::string id;
  ASSERT_TRUE(submit(fake("bad", "bad"), &id).ok());
  const v1::AwaitProofResponse r = await(id, 60'000);
  EXPECT_EQ(r.status(), v1::AwaitProofResponse::FAILED);
  EXPECT_NE(r.error_message().find("malformed payload"), std::string::npos) << r.error_message();

  // A payload whose reason quotes bytes that are not UTF-8: the reason still arrives.
  ASSERT_TRUE(submit(fake("not-utf8", "bad\xff\xfe"), &id).ok());
  const v1::AwaitProofResponse quoted = await(id, 60'000);
  EXPECT_EQ(quoted.status(), v1::AwaitProofResponse::FAILED);
  EXPECT_NE(quoted.error_message().find("bad\\xff\\xfe"), std::string::npos)
      << quoted.error_message();
}

TEST_F(ServiceTest, RequestsNoKindCouldServeAreInvalidArgumentWithoutAJob) {
  std::vector<v1::SubmitProofRequest> refused(5, fake("r", "1,1"));
  refused[0] = v1::SubmitProofRequest{};  // empty
  refused[1].set_proof_kind(v1::PROOF_KIND_UNSPECIFIED);
  refused[2].set_proof_kind(static_cast<v1::ProofKind>(9));
  refused[3].set_priority(static_cast<v1::Priority>(2147483647));
  refused[4].clear_vanilla_proof();
  for (size_t i = 0; i < refused.size(); ++i) {
    std::string id = "unset";
    const grpc::Status s = submit(refused[i], &id);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << i << " " << s.error_message();
    EXPECT_TRUE(id.empty()) << i << ": given job " << id;
    grpc::ClientContext ctx;
    v1::ProveRequest prove;
    *prove.mutable_submit() = refused[i];
    v1::ProveResponse out;
    EXPECT_EQ(stub_->Prove(&ctx, prove, &out).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  }
  EXPECT_TRUE(submitted_.empty());
  const engine::EngineStatus st = engine_->status();
  EXPECT_EQ(st.failed + st.completed, 0u);
  std::string id;
  v1::SubmitProofRequest unspecified = fake("u", "1,1");
  unspecified.set_proof_kind(v1::PROOF_KIND_UNSPECIFIED);
  EXPECT_FALSE(submit(unspecified, &id).ok());

  // As CancelProof answers it (it was FAILED, a state no job had).
  grpc::ClientContext ctx;
  v1::AwaitProofRequest unknown;
  unknown.set_job_id("job-404");
  v1::AwaitProofResponse out;
  const grpc::Status s = stub_->AwaitProof(&ctx, unknown, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(s.error_message(), "unknown job id job-404");
}

// issue 29: a 16 MiB request_id was taken and logged twice; a 1 MiB id quoted in an error made
// the status too large to send (RESOURCE_EXHAUSTED). Past 256 bytes every id is refused, and
// only its length is said.
TEST_F(ServiceTest, IdsPastTheBoundAreRefusedUnquoted) {
  std::string id;
  ASSERT_TRUE(submit(fake(std::string(kMaxIdBytes, 'r'), "1,1"), &id).ok());
  const grpc::Status s = submit(fake(std::string(kMaxIdBytes + 1, 'r'), "1,1"), &id);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "request_id is 257 bytes; ids are at most 256");
  EXPECT_EQ(submitted_.size(), 1u);

  const std::string huge(1 << 20, 'j');
  grpc::ClientContext a;
  v1::AwaitProofRequest await_huge;
  await_huge.set_job_id(huge);
  v1::AwaitProofResponse aout;
  const grpc::Status sa = stub_->AwaitProof(&a, await_huge, &aout);
  grpc::ClientContext c;
  v1::CancelProofRequest cancel_huge;
  cancel_huge.set_job_id(huge);
  v1::CancelProofResponse cout;
  const grpc::Status sc = stub_->CancelProof(&c, cancel_huge, &cout);
  grpc::ClientContext p;
  v1::PreloadSrsRequest preload_huge;
  preload_huge.set_circuit_id(huge);
  v1::PreloadSrsResponse pout;
  const grpc::Status sp = stub_->PreloadSRS(&p, preload_huge, &pout);
  grpc::ClientContext e;
  v1::EvictSrsRequest evict_huge;
  evict_huge.set_circuit_id(huge);
  v1::EvictSrsResponse eout;
  const grpc::Status se = stub_->EvictSRS(&e, evict_huge, &eout);
  for (const auto& [status, field] : {std::pair{sa, "job_id"}, std::pair{sc, "job_id"},
                                      std::pair{sp, "circuit_id"}, std::pair{se, "circuit_id"}}) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << field;
    EXPECT_EQ(status.error_message(),
              std::string(field) + " is 1048576 bytes; ids are at most 256");
  }
}

// issue 29: the same request_id with another payload returned the first job's result (a
// WinningPoSt request got the WindowPoSt proof).
TEST_F(ServiceTest, ARequestIdOfAnotherRequestIsAlreadyExists) {
  std::string first, again;
  ASSERT_TRUE(submit(fake("same", "1,1"), &first).ok());
  v1::SubmitProofRequest other_priority = fake("same", "1,1");
  other_priority.set_priority(v1::HIGH);
  ASSERT_TRUE(submit(other_priority, &again).ok());
  EXPECT_EQ(again, first);
  EXPECT_TRUE(submitted_.back().result.duplicate);
  v1::SubmitProofRequest other_payload = fake("same", "1,2");
  v1::SubmitProofRequest other_kind = fake("same", "1,1");
  other_kind.set_proof_kind(v1::WINDOW_POST_PARTITION);
  for (const v1::SubmitProofRequest& r : {other_payload, other_kind}) {
    std::string id = "unset";
    const grpc::Status s = submit(r, &id);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS);
    EXPECT_NE(s.error_message().find("request_id \"same\" is taken by " + first), std::string::npos)
        << s.error_message();
    EXPECT_TRUE(id.empty());
  }
  EXPECT_EQ(await(first, 60'000).status(), v1::AwaitProofResponse::COMPLETED);
}

TEST_F(PendingServiceTest, AwaitTimeoutAndCancel) {
  std::string held, queued;
  ASSERT_TRUE(submit(fake("held", "1,1"), &held).ok());
  ASSERT_TRUE(submit(fake("queued", "1,1"), &queued).ok());
  const auto t0 = std::chrono::steady_clock::now();
  const v1::AwaitProofResponse r = await(held, 200);
  EXPECT_EQ(r.status(), v1::AwaitProofResponse::TIMEOUT);
  EXPECT_EQ(r.job_id(), held);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 200ms);  // the server's wait, at least

  grpc::ClientContext ctx;
  v1::CancelProofRequest c;
  c.set_job_id(queued);
  v1::CancelProofResponse out;
  ASSERT_TRUE(stub_->CancelProof(&ctx, c, &out).ok());
  EXPECT_FALSE(out.was_running());
  EXPECT_EQ(await(queued, 1000).status(), v1::AwaitProofResponse::CANCELLED);

  grpc::ClientContext ctx2;
  c.set_job_id("job-404");
  const grpc::Status s = stub_->CancelProof(&ctx2, c, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(s.error_message().find("job-404"), std::string::npos);
}

TEST_F(ServiceTest, DepartedClientFreesItsHandlerAndTheJobGoesOn) {
  v1::ProveRequest prove;
  *prove.mutable_submit() = fake("left", "1,1500");
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 300ms);
  v1::ProveResponse out;
  // 1.5 s of synthesis cannot end within the 300 ms deadline.
  EXPECT_EQ(stub_->Prove(&ctx, prove, &out).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  // The handler notices at the end of an await slice (50 ms here).
  wait_until([&] { return !gone().empty(); });
  ASSERT_EQ(gone().size(), 1u);

  std::string again;
  ASSERT_TRUE(submit(fake("left", "1,1500"), &again).ok());
  EXPECT_EQ(again, gone()[0]);  // the same job
  EXPECT_TRUE(submitted_.back().result.duplicate);
  const v1::AwaitProofResponse r = await(again, 60'000);
  EXPECT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED);
  EXPECT_GE(r.total_ms(), 1500u);
}

TEST_F(PendingServiceTest, CountsCallsInFlight) {
  std::string id;
  ASSERT_TRUE(submit(fake("count", "1,1"), &id).ok());
  EXPECT_EQ(service_->calls_in_flight(), 0u);
  std::thread waiter([&] { EXPECT_EQ(await(id, 0).status(), v1::AwaitProofResponse::CANCELLED); });
  wait_until([&] { return service_->calls_in_flight() == 1; });
  EXPECT_EQ(service_->calls_in_flight(), 1u);  // the waiter's AwaitProof: its job is held
  EXPECT_TRUE(engine_->cancel(id).found);
  waiter.join();
  EXPECT_EQ(service_->calls_in_flight(), 0u);
}

TEST_F(ServiceTest, SubmitWhileShuttingDownIsUnavailable) {
  engine_->shutdown(false);
  std::string id;
  const grpc::Status s = submit(fake("late", "1,1"), &id);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_NE(s.error_message().find("shutting down"), std::string::npos);
  grpc::ClientContext ctx;
  v1::ProveRequest prove;
  *prove.mutable_submit() = fake("late2", "1,1");
  v1::ProveResponse out;
  EXPECT_EQ(stub_->Prove(&ctx, prove, &out).error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(ServiceTest, SrsCalls) {
  grpc::ClientContext c1;
  v1::PreloadSrsRequest preload;
  preload.set_circuit_id("porep-7x");
  v1::PreloadSrsResponse pout;
  const grpc::Status s = stub_->PreloadSRS(&c1, preload, &pout);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("porep-7x"), std::string::npos);

  grpc::ClientContext c2;
  preload.set_circuit_id("fake-1");
  ASSERT_TRUE(stub_->PreloadSRS(&c2, preload, &pout).ok());
  EXPECT_FALSE(pout.already_loaded());
  grpc::ClientContext c3;
  ASSERT_TRUE(stub_->PreloadSRS(&c3, preload, &pout).ok());
  EXPECT_TRUE(pout.already_loaded());

  grpc::ClientContext c4;
  v1::EvictSrsRequest evict;
  evict.set_circuit_id("fake-1");
  v1::EvictSrsResponse eout;
  ASSERT_TRUE(stub_->EvictSRS(&c4, evict, &eout).ok());
  EXPECT_TRUE(eout.was_loaded());
  EXPECT_GT(eout.freed_bytes(), 0u);
  grpc::ClientContext c5;
  evict.set_circuit_id("nope");
  EXPECT_EQ(stub_->EvictSRS(&c5, evict, &eout).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace cuzk::server
