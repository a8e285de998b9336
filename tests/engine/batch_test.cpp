// The prover's batches (groth16::ProverBackend::batch_limit > 1, as a capped GPU): a fake device
// that proves in batches over the CPU backend's halves. A multi-partition job proves in batches
// of the limit and gives the same bytes as a device that proves one partition at a time (fixed
// r, s), every partition verifying under the fake circuit's own key for its own witness; a
// CRITICAL job submitted while a batch is in its aux sections is proved before the batch's next
// section; a section that fails sends every partition of the batch to its retries alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "fake_handler.hpp"
#include "groth16/backend.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;
using cuzk::testing::TempDir;

// What the device was asked, in order: "prove", "front", "l:<k>" (a section over k partitions).
class CallLog {
 public:
  void add(const std::string& call) {
    std::lock_guard lock(mu_);
    calls_.push_back(call);
    cv_.notify_all();
  }
  std::vector<std::string> calls() const {
    std::lock_guard lock(mu_);
    return calls_;
  }
  void wait_for(const std::string& call) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return std::find(calls_.begin(), calls_.end(), call) != calls_.end(); });
  }
  // The first section call is held until open() (a test's event, not a time).
  void hold_first_section() { hold_ = true; }
  void wait_if_held() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !hold_; });
  }
  void open() {
    std::lock_guard lock(mu_);
    hold_ = false;
    cv_.notify_all();
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> calls_;
  bool hold_ = false;
};

class BatchingDevice final : public groth16::ProverBackend {
 public:
  BatchingDevice(ThreadPool& pool, size_t limit, CallLog* log, bool fail_sections)
      : cpu_(pool), limit_(limit), log_(log), fail_sections_(fail_sections) {}
  std::string name() const override { return "fake batching device"; }
  groth16::Proof prove(const groth16::Parameters& params, const groth16::PartitionInput& in,
                       const groth16::ProofRandomness& rand,
                       groth16::ProverTiming* timing) override {
    log_->add("prove");
    return cpu_.prove(params, in, rand, timing);
  }
  size_t batch_limit(const groth16::Parameters&, const groth16::PartitionInput&) override {
    return limit_;
  }
  groth16::MsmSums prove_front(const groth16::Parameters& params, const groth16::PartitionInput& in,
                               groth16::ProverTiming* timing) override {
    log_->add("front");
    return cpu_.prove_front(params, in, timing);
  }
  void aux_msm(const groth16::Parameters& params, groth16::AuxSection section,
               std::span<const groth16::PartitionInput> inputs, std::span<groth16::MsmSums> sums,
               std::span<groth16::ProverTiming> timings) override {
    log_->add(std::string(groth16::aux_section_name(section)) + ":" +
              std::to_string(inputs.size()));
    log_->wait_if_held();
    if (fail_sections_) throw std::runtime_error("an illegal memory access (fake section)");
    cpu_.aux_msm(params, section, inputs, sums, timings);
  }
  std::vector<Fr> coset_ab_minus_c(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c,
                                   const EvaluationDomain& domain,
                                   QuotientTiming* timing) override {
    return cpu_.coset_ab_minus_c(std::move(a), std::move(b), std::move(c), domain, timing);
  }
  G1Jacobian msm_g1(std::span<const G1Affine> b, std::span<const Fr> s) override {
    return cpu_.msm_g1(b, s);
  }
  G2Jacobian msm_g2(std::span<const G2Affine> b, std::span<const Fr> s) override {
    return cpu_.msm_g2(b, s);
  }
  G1Jacobian msm_g1(std::span<const G1Affine> b, const DensityTracker& d,
                    std::span<const Fr> s) override {
    return cpu_.msm_g1(b, d, s);
  }
  G2Jacobian msm_g2(std::span<const G2Affine> b, const DensityTracker& d,
                    std::span<const Fr> s) override {
    return cpu_.msm_g2(b, d, s);
  }

 private:
  groth16::CpuBackend cpu_;
  size_t limit_;
  CallLog* log_;
  bool fail_sections_;
};

// r, s from the request id and partition: the same for both engines of a comparison.
groth16::ProofRandomness fixed(const std::string& request_id, unsigned k) {
  std::seed_seq seq(request_id.begin(), request_id.end());
  std::mt19937_64 rng(seq);
  rng.discard(2 * k);
  return {Fr::random(rng), Fr::random(rng)};
}

struct Harness {
  TempDir dir{"engine-batch"};
  SynthesisLog synthesis;
  CallLog calls;
  std::unique_ptr<Engine> engine;

  explicit Harness(size_t limit, bool fail_sections = false) {
    EngineConfig c;
    c.threads = 1;
    c.synthesis_workers = 2;
    c.synthesis_lookahead = 2;
    c.pce_dir = dir.path() / "pce";
    c.test_randomness = fixed;
    c.fake_devices.names = {"gpu:0"};
    c.fake_devices.make = [this, limit, fail_sections](const std::string&, ThreadPool& pool) {
      return std::make_unique<BatchingDevice>(pool, limit, &calls, fail_sections);
    };
    engine = std::make_unique<Engine>(std::move(c),
                                      std::vector<std::shared_ptr<const CircuitHandler>>{
                                          std::make_shared<FakeHandler>(dir.path(), &synthesis)});
  }
  std::string submit(const std::string& tag, unsigned partitions,
                     Priority priority = Priority::kNormal) {
    ProofRequest r;
    r.request_id = tag;
    r.kind = ProofKind::kWinningPost;
    r.sector_size = 1;
    r.priority = priority;
    const std::string payload = std::to_string(partitions) + ",0,0,1";
    r.vanilla_proof.assign(payload.begin(), payload.end());
    return engine->submit(std::move(r)).job_id;
  }
  JobResult wait(const std::string& id) {
    const auto r = engine->await(id, 300s);
    EXPECT_TRUE(r.has_value()) << id << " did not finish";
    return r.value_or(JobResult{});
  }
  size_t count(const std::string& call) const {
    const auto c = calls.calls();
    return static_cast<size_t>(std::count(c.begin(), c.end(), call));
  }
};

TEST(EngineBatches, AJobProvesInBatchesWithTheBytesOfOneAtATime) {
  Harness batched(4), alone(1);
  const JobResult b = batched.wait(batched.submit("six", 6));
  const JobResult a = alone.wait(alone.submit("six", 6));
  ASSERT_EQ(b.state, JobState::kCompleted) << b.error_message;
  ASSERT_EQ(a.state, JobState::kCompleted) << a.error_message;
  EXPECT_EQ(verifying_proofs(b, true), 6u);
  EXPECT_EQ(b.proof, a.proof);
  // Six fronts, then sections over batches of four and two; no partition proved alone.
  EXPECT_EQ(batched.count("front"), 6u);
  EXPECT_EQ(batched.count("prove"), 0u);
  for (const char* s : {"l", "a", "b_g1", "b_g2"}) {
    EXPECT_EQ(batched.count(std::string(s) + ":4"), 1u) << s;
    EXPECT_EQ(batched.count(std::string(s) + ":2"), 1u) << s;
  }
  EXPECT_EQ(alone.count("prove"), 6u);
  EXPECT_EQ(alone.count("front"), 0u);
}

TEST(EngineBatches, ACriticalJobIsProvedBetweenTwoSectionsOfABatch) {
  Harness h(8);
  h.calls.hold_first_section();
  const std::string slow = h.submit("normal", 3);
  h.calls.wait_for("l:3");  // the batch is in its first section, held there
  const std::string critical = h.submit("critical", 1, Priority::kCritical);
  // The critical partition synthesized and queued for the prover (an event of the engine).
  while (h.engine->activity(60).prover_queue_partitions == 0) {
    const auto r = h.engine->await(critical, 1ms);
    ASSERT_FALSE(r.has_value()) << "finished while the device was held";
  }
  h.calls.open();
  const JobResult c = h.wait(critical), n = h.wait(slow);
  ASSERT_EQ(c.state, JobState::kCompleted) << c.error_message;
  ASSERT_EQ(n.state, JobState::kCompleted) << n.error_message;
  EXPECT_EQ(verifying_proofs(n, true), 3u);
  EXPECT_EQ(verifying_proofs(c, true), 1u);
  const auto calls = h.calls.calls();
  const auto at = [&](const std::string& call) {
    return std::find(calls.begin(), calls.end(), call) - calls.begin();
  };
  EXPECT_LT(at("l:3"), at("prove"));
  EXPECT_LT(at("prove"), at("a:3")) << "the critical partition waited for the whole batch";
}

TEST(EngineBatches, AFailedSectionSendsEveryPartitionToItsRetriesAlone) {
  Harness h(4, /*fail_sections=*/true);
  const JobResult r = h.wait(h.submit("three", 3));
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r, true), 3u);
  EXPECT_EQ(h.count("l:3"), 1u);
  EXPECT_EQ(h.count("prove"), 3u);  // each alone, on the same device (prove() has no sections)
  EXPECT_EQ(metric_value(h.engine->metrics_text(),
                         "cuzk_partition_retries_total{kind=\"winning\",reason=\"prove_error\","
                         "target=\"alone\"}"),
            3);
}

}  // namespace
}  // namespace cuzk::engine::test
