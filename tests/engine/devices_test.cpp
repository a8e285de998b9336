// The engine's choice of device, with fake devices (EngineConfig::fake_devices: CPU backends
// named gpu:0 and gpu:1, each able to be slowed or broken): partitions of one job and of several
// jobs spread over both; a device that keeps failing is taken out of rotation and its partitions
// are finished on the other, while the last device in rotation stays (the CPU fallback behind
// it); a CRITICAL job takes the first device that frees up; the SRS is HOT only while a device
// holds it. The oracle for every proof is the verifier under the fake circuit's own key.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "fake_handler.hpp"
#include "groth16/backend.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;
using cuzk::testing::TempDir;

// Which fake device ran how many prove attempts.
class DeviceLog {
 public:
  void add(const std::string& device) {
    std::lock_guard lock(mu_);
    ++attempts_[device];
  }
  int attempts(const std::string& device) const {
    std::lock_guard lock(mu_);
    const auto it = attempts_.find(device);
    return it == attempts_.end() ? 0 : it->second;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, int> attempts_;
};

// A device in name: the CPU backend, `delay` slower per partition, failing every prove while
// `broken` is set (as a device with a sticky CUDA error does).
class FakeDevice final : public groth16::ProverBackend {
 public:
  FakeDevice(std::string name, ThreadPool& pool, DeviceLog* log, std::chrono::milliseconds delay,
             const std::atomic<bool>* broken)
      : name_(std::move(name)), cpu_(pool), log_(log), delay_(delay), broken_(broken) {}
  std::string name() const override { return "fake " + name_; }
  groth16::Proof prove(const groth16::Parameters& params, const groth16::PartitionInput& in,
                       const groth16::ProofRandomness& rand,
                       groth16::ProverTiming* timing) override {
    log_->add(name_);
    if (broken_->load()) throw std::runtime_error(name_ + ": an illegal memory access (fake)");
    std::this_thread::sleep_for(delay_);
    return cpu_.prove(params, in, rand, timing);
  }
  std::vector<Fr> coset_ab_minus_c(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c,
                                   const EvaluationDomain& domain,
                                   QuotientTiming* timing) override {
    return cpu_.coset_ab_minus_c(std::move(a), std::move(b), std::move(c), domain, timing);
  }
  G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) override {
    return cpu_.msm_g1(bases, scalars);
  }
  G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) override {
    return cpu_.msm_g2(bases, scalars);
  }
  G1Jacobian msm_g1(std::span<const G1Affine> bases, const DensityTracker& density,
                    std::span<const Fr> scalars) override {
    return cpu_.msm_g1(bases, density, scalars);
  }
  G2Jacobian msm_g2(std::span<const G2Affine> bases, const DensityTracker& density,
                    std::span<const Fr> scalars) override {
    return cpu_.msm_g2(bases, density, scalars);
  }

 private:
  std::string name_;
  groth16::CpuBackend cpu_;
  DeviceLog* log_;
  std::chrono::milliseconds delay_;
  const std::atomic<bool>* broken_;
};

struct TwoDevices {
  TempDir dir{"engine-devices"};
  SynthesisLog synthesis;
  DeviceLog devices;
  std::atomic<bool> broken[2] = {false, false};
  std::mutex mu;
  std::vector<std::pair<std::string, std::string>> events;
  std::unique_ptr<Engine> engine;

  explicit TwoDevices(std::chrono::milliseconds delay0, std::chrono::milliseconds delay1) {
    EngineConfig c;
    c.threads = 1;
    c.synthesis_workers = 2;
    c.synthesis_lookahead = 2;
    c.pce_dir = dir.path() / "pce";
    c.fake_devices.names = {"gpu:0", "gpu:1"};
    c.fake_devices.make = [this, delay0, delay1](const std::string& name, ThreadPool& pool) {
      const int i = name == "gpu:0" ? 0 : 1;
      return std::make_unique<FakeDevice>(name, pool, &devices, i == 0 ? delay0 : delay1,
                                          &broken[i]);
    };
    c.on_event = [this](const std::string& e, const std::string& m) {
      std::lock_guard lock(mu);
      events.emplace_back(e, m);
    };
    engine = std::make_unique<Engine>(std::move(c),
                                      std::vector<std::shared_ptr<const CircuitHandler>>{
                                          std::make_shared<FakeHandler>(dir.path(), &synthesis)});
  }
  std::string submit(const std::string& tag, unsigned partitions,
                     Priority priority = Priority::kNormal, uint64_t circuit = 1) {
    ProofRequest r;
    r.request_id = tag;
    r.kind = ProofKind::kWinningPost;
    r.sector_size = circuit;
    r.priority = priority;
    const std::string payload = std::to_string(partitions) + ",0";
    r.vanilla_proof.assign(payload.begin(), payload.end());
    return engine->submit(std::move(r)).job_id;
  }
  JobResult wait(const std::string& id) {
    const auto r = engine->await(id, 120s);
    EXPECT_TRUE(r.has_value()) << id << " did not finish in 120 s";
    return r.value_or(JobResult{});
  }
  double metric(const std::string& series) const {
    return metric_value(engine->metrics_text(), series);
  }
  GpuInfo gpu(uint32_t ordinal) const {
    for (const GpuInfo& g : engine->status().gpus)
      if (g.ordinal == ordinal) return g;
    ADD_FAILURE() << "no gpu " << ordinal << " in the status";
    return {};
  }
};

TEST(EngineDevices, PartitionsOfOneJobAndOfSeveralJobsSpreadOverBothDevices) {
  TwoDevices h(60ms, 60ms);
  const std::string a = h.submit("a", 6), b = h.submit("b", 4);
  for (const std::string& id : {a, b}) {
    const JobResult r = h.wait(id);
    ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
    EXPECT_EQ(verifying_proofs(r), id == a ? 6u : 4u);
  }
  // Each device proved a share: with equal speed neither sits idle for a whole job.
  EXPECT_GE(h.devices.attempts("gpu:0"), 2);
  EXPECT_GE(h.devices.attempts("gpu:1"), 2);
  EXPECT_EQ(h.devices.attempts("gpu:0") + h.devices.attempts("gpu:1"), 10);
  EXPECT_GT(h.metric("cuzk_prover_busy_seconds_total{worker=\"gpu:0\"}"), 0);
  EXPECT_GT(h.metric("cuzk_prover_busy_seconds_total{worker=\"gpu:1\"}"), 0);
  EXPECT_EQ(h.metric("cuzk_prover_in_rotation{worker=\"gpu:1\"}"), 1);
}

TEST(EngineDevices, AFailingDeviceLeavesTheRotationAndTheOtherFinishesItsPartitions) {
  TwoDevices h(80ms, 0ms);
  h.broken[1] = true;
  // Jobs until gpu:1 has failed enough to be taken out (it usually is within the first job);
  // every one completes on gpu:0, each partition gpu:1 failed retried there.
  for (int i = 0; i < 5 && h.gpu(1).out_of_rotation.empty(); ++i) {
    const JobResult r = h.wait(h.submit("a" + std::to_string(i), 4));
    ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
    EXPECT_EQ(verifying_proofs(r), 4u);
  }
  const GpuInfo out = h.gpu(1);
  ASSERT_FALSE(out.out_of_rotation.empty());
  EXPECT_NE(out.out_of_rotation.find("illegal memory access"), std::string::npos)
      << out.out_of_rotation;
  EXPECT_TRUE(h.gpu(0).out_of_rotation.empty());
  // Two partitions, each tried twice on it (the same-device retry), then it was out.
  EXPECT_EQ(h.devices.attempts("gpu:1"), 4);
  EXPECT_EQ(h.metric("cuzk_prover_in_rotation{worker=\"gpu:1\"}"), 0);
  EXPECT_EQ(h.metric("cuzk_prover_in_rotation{worker=\"gpu:0\"}"), 1);
  {
    std::lock_guard lock(h.mu);
    EXPECT_EQ(std::count_if(h.events.begin(), h.events.end(),
                            [](const auto& e) { return e.first == "prover_out_of_rotation"; }),
              1);
  }
  // From now on gpu:1 gets nothing.
  const JobResult later = h.wait(h.submit("later", 4));
  ASSERT_EQ(later.state, JobState::kCompleted) << later.error_message;
  EXPECT_EQ(verifying_proofs(later), 4u);
  EXPECT_EQ(h.devices.attempts("gpu:1"), 4);
}

TEST(EngineDevices, TheLastDeviceInRotationStaysAndItsPartitionsFallBackToTheCpu) {
  TwoDevices h(0ms, 0ms);
  h.broken[0] = h.broken[1] = true;
  // Until one leaves the rotation a partition moved to the other device gets its last attempt
  // there and fails its job (same device once, then another device or the CPU, as configured).
  for (int i = 0; i < 6 && h.gpu(0).out_of_rotation.empty() && h.gpu(1).out_of_rotation.empty();
       ++i) {
    const JobResult r = h.wait(h.submit("a" + std::to_string(i), 3));
    ASSERT_TRUE(r.state == JobState::kCompleted || r.state == JobState::kFailed);
  }
  const bool out0 = !h.gpu(0).out_of_rotation.empty(), out1 = !h.gpu(1).out_of_rotation.empty();
  ASSERT_TRUE(out0 != out1) << "exactly one device left the rotation";
  // The one left fails every partition twice, and the CPU fallback proves it.
  for (int i = 0; i < 2; ++i) {
    const JobResult r = h.wait(h.submit("b" + std::to_string(i), 3));
    ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
    EXPECT_EQ(verifying_proofs(r), 3u);
  }
  EXPECT_EQ(!h.gpu(0).out_of_rotation.empty(), out0);
  EXPECT_EQ(!h.gpu(1).out_of_rotation.empty(), out1);
  EXPECT_GE(h.metric("cuzk_partition_retries_total{kind=\"winning\",reason=\"prove_error\","
                     "target=\"cpu\"}"),
            6);
}

TEST(EngineDevices, ACriticalJobTakesTheFirstDeviceThatFreesUp) {
  TwoDevices h(250ms, 250ms);
  const std::string bulk = h.submit("bulk", 16);  // ~2 s on the two devices
  // Both devices busy with the bulk job's partitions.
  for (int i = 0; i < 400 && (h.gpu(0).current_job_id.empty() || h.gpu(1).current_job_id.empty());
       ++i)
    std::this_thread::sleep_for(5ms);
  ASSERT_FALSE(h.gpu(0).current_job_id.empty());
  ASSERT_FALSE(h.gpu(1).current_job_id.empty());
  const auto t0 = std::chrono::steady_clock::now();
  const std::string urgent = h.submit("urgent", 1, Priority::kCritical);
  const JobResult r = h.wait(urgent);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 1u);
  // At most the rest of one partition on the first device to free up, plus its own partition
  // (250 ms each) and the synthesis: well under the bulk job's remaining ~1.7 s.
  EXPECT_LT(waited, 0.9) << "the critical job waited " << waited << " s";
  const auto bulk_now = h.engine->await(bulk, 1ms);  // (0 would wait for it)
  EXPECT_TRUE(!bulk_now.has_value() || bulk_now->state != JobState::kCompleted)
      << "the bulk job finished before the critical one";
  ASSERT_EQ(h.wait(bulk).state, JobState::kCompleted);
}

TEST(EngineDevices, AnSrsIsHotOnlyWhileADeviceHoldsIt) {
  TwoDevices h(0ms, 0ms);
  h.broken[1] = true;  // one device does the work: its circuit switch is the one observed
  const auto tier = [&](const std::string& id) {
    for (const SrsInfo& s : h.engine->status().srs)
      if (s.circuit_id == id) return s.tier;
    return SrsTier::kCold;
  };
  for (int i = 0; i < 6 && h.gpu(1).out_of_rotation.empty(); ++i)  // gpu:1 out of rotation
    ASSERT_EQ(h.wait(h.submit("warm" + std::to_string(i), 2)).state, JobState::kCompleted);
  ASSERT_FALSE(h.gpu(1).out_of_rotation.empty());
  ASSERT_EQ(h.wait(h.submit("one", 1, Priority::kNormal, 1)).state, JobState::kCompleted);
  EXPECT_EQ(tier("fake-1"), SrsTier::kHot);
  ASSERT_EQ(h.wait(h.submit("two", 1, Priority::kNormal, 2)).state, JobState::kCompleted);
  EXPECT_EQ(tier("fake-2"), SrsTier::kHot);
  // gpu:0 dropped fake-1's device copy to load fake-2's: fake-1 is only on the host now.
  EXPECT_EQ(tier("fake-1"), SrsTier::kWarm);
}

}  // namespace
}  // namespace cuzk::engine::test
