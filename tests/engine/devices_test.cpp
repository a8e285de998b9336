// The engine's choice of device, with fake devices (EngineConfig::fake_devices: CPU backends
// named gpu:0 and gpu:1, each able to be slowed or broken): partitions of one job and of several
// jobs spread over both; a device that keeps failing is taken out of rotation and its partitions
// are finished on the other, while the last device in rotation stays (the CPU fallback behind
// it); a CRITICAL job takes the first device that frees up; the SRS is HOT only while a device
// holds it, and not on a device that streams part of it at each proof. The oracle for every proof
// is the verifier under the fake circuit's own key.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "engine_harness.hpp"
#include "fake_device.hpp"
#include "fake_handler.hpp"
#include "groth16/backend.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;
using cuzk::testing::TempDir;

struct TwoDevices {
  TempDir dir{"engine-devices"};
  SynthesisLog synthesis;
  DeviceLog devices;
  std::atomic<bool> broken[2] = {false, false};
  ProvePermits permits[2];
  std::mutex mu;
  std::vector<std::pair<std::string, std::string>> events;
  // What each device reports of its H MSM (FakeDevice::msm_h_report; zero: no split).
  groth16::ProverTiming msm_h;
  std::unique_ptr<Engine> engine;

  // `held`: each prove waits for a permit of its device (permits[0], permits[1]).
  // `keeps_sets`: each device holds that many sets across circuit switches (FakeDevice).
  explicit TwoDevices(std::chrono::milliseconds delay0, std::chrono::milliseconds delay1,
                      bool held = false, size_t keeps_sets = 0) {
    EngineConfig c;
    c.threads = 1;
    c.synthesis_workers = 2;
    c.synthesis_lookahead = 2;
    c.pce_dir = dir.path() / "pce";
    c.fake_devices.names = {"gpu:0", "gpu:1"};
    c.fake_devices.make = [this, delay0, delay1, held, keeps_sets](const std::string& name,
                                                                   ThreadPool& pool) {
      const int i = name == "gpu:0" ? 0 : 1;
      auto d = std::make_unique<FakeDevice>(name, pool, &devices, i == 0 ? delay0 : delay1,
                                            &broken[i], held ? &permits[i] : nullptr);
      d->keeps_sets = keeps_sets;
      d->msm_h_report = &msm_h;
      return d;
    };
    c.on_event = [this](const std::string& e, const std::string& m) {
      std::lock_guard lock(mu);
      events.emplace_back(e, m);
    };
    engine = std::make_unique<Engine>(std::move(c),
                                      std::vector<std::shared_ptr<const CircuitHandler>>{
                                          std::make_shared<FakeHandler>(dir.path(), &synthesis)});
  }
  ~TwoDevices() {
    permits[0].open();
    permits[1].open();
    engine.reset();
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
  SrsTier tier(const std::string& circuit_id) const {
    for (const SrsInfo& s : engine->status().srs)
      if (s.circuit_id == circuit_id) return s.tier;
    return SrsTier::kCold;
  }
  // Breaks gpu:1 and proves until it leaves the rotation: gpu:0 alone does the work after.
  void leave_gpu0_alone() {
    broken[1] = true;
    for (int i = 0; i < 6 && gpu(1).out_of_rotation.empty(); ++i)
      ASSERT_EQ(wait(submit("warm" + std::to_string(i), 2)).state, JobState::kCompleted);
    ASSERT_FALSE(gpu(1).out_of_rotation.empty());
  }
};

TEST(EngineDevices, PartitionsOfOneJobAndOfSeveralJobsSpreadOverBothDevices) {
  TwoDevices h(0ms, 0ms, /*held=*/true);
  const std::string a = h.submit("a", 6), b = h.submit("b", 4);
  // Two proves each, then each device holds its third partition: both take from the queue.
  h.permits[0].grant(2);
  h.permits[1].grant(2);
  EXPECT_TRUE(wait_until(
      [&] { return h.devices.attempts("gpu:0") == 2 && h.devices.attempts("gpu:1") == 2; }));
  h.permits[0].open();
  h.permits[1].open();
  for (const std::string& id : {a, b}) {
    const JobResult r = h.wait(id);
    ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
    EXPECT_EQ(verifying_proofs(r), id == a ? 6u : 4u);
  }
  // Each device proved a share.
  EXPECT_GE(h.devices.attempts("gpu:0"), 2);
  EXPECT_GE(h.devices.attempts("gpu:1"), 2);
  EXPECT_EQ(h.devices.attempts("gpu:0") + h.devices.attempts("gpu:1"), 10);
  EXPECT_GT(h.metric("cuzk_prover_busy_seconds_total{worker=\"gpu:0\"}"), 0);
  EXPECT_GT(h.metric("cuzk_prover_busy_seconds_total{worker=\"gpu:1\"}"), 0);
  EXPECT_EQ(h.metric("cuzk_prover_in_rotation{worker=\"gpu:1\"}"), 1);
}

TEST(EngineDevices, ADevicesSplitOfTheHMsmAddsUpToItAndItsAllocationTimeStandsApart) {
  TwoDevices h(0ms, 0ms);
  // Binary fractions, so that the sums are exact: the event parts leave 5/16 s of the 1 s.
  h.msm_h.msm_h_s = 1.0;
  h.msm_h.msm_h_parts = {
      .sort_s = 0.125, .accumulate_s = 0.5, .reduce_s = 0.0625, .allocate_s = 0.25};
  h.msm_h.batch_allocate_s = 0.03125;
  const JobResult r = h.wait(h.submit("a", 4));
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  const auto part = [&](const char* name, const char* stat) {
    return h.metric(std::string("cuzk_partition_msm_h_seconds_") + stat +
                    "{kind=\"winning\",part=\"" + name + "\"}");
  };
  EXPECT_EQ(part("other", "count"), 4);
  EXPECT_DOUBLE_EQ(part("sort", "sum"), 4 * 0.125);
  EXPECT_DOUBLE_EQ(part("accumulate", "sum"), 4 * 0.5);
  EXPECT_DOUBLE_EQ(part("reduce", "sum"), 4 * 0.0625);
  EXPECT_DOUBLE_EQ(part("other", "sum"), 4 * 0.3125);
  EXPECT_EQ(part("allocate", "sum"), -1);  // not a part
  EXPECT_DOUBLE_EQ(
      h.metric("cuzk_partition_allocation_seconds_sum{kind=\"winning\",phase=\"msm_h\"}"),
      4 * 0.25);
  // A batch's allocation time beside msm_h's, a partition's share each.
  EXPECT_DOUBLE_EQ(
      h.metric("cuzk_partition_allocation_seconds_sum{kind=\"winning\",phase=\"batch\"}"),
      4 * 0.03125);
  EXPECT_DOUBLE_EQ(h.metric("cuzk_partition_phase_seconds_sum{kind=\"winning\",phase=\"msm_h\"}"),
                   4.0);
}

TEST(EngineDevices, ABackendThatDoesNotSplitTheHMsmHasNoPartsMetered) {
  TwoDevices h(0ms, 0ms);
  ASSERT_EQ(h.wait(h.submit("a", 2)).state, JobState::kCompleted);
  const std::string m = h.engine->metrics_text();
  EXPECT_EQ(m.find("cuzk_partition_msm_h_seconds_count{"), std::string::npos);
  EXPECT_EQ(m.find("cuzk_partition_allocation_seconds_count{"), std::string::npos);
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
  TwoDevices h(0ms, 0ms, /*held=*/true);
  const std::string bulk = h.submit("bulk", 16);
  // Both devices hold a bulk partition; the prover queue fills to its lookahead (2 queued + one
  // per synthesis worker) behind them.
  ASSERT_TRUE(h.permits[0].wait_waiting(1));
  ASSERT_TRUE(h.permits[1].wait_waiting(1));
  const auto queued = [&] { return h.engine->activity(1).prover_queue_partitions; };
  ASSERT_TRUE(wait_until([&] { return queued() == 4; }));
  const std::string urgent = h.submit("urgent", 1, Priority::kCritical);
  ASSERT_TRUE(wait_until([&] { return queued() == 5; }));  // synthesized at once, queued
  // gpu:0 frees up: its bulk partition, then the next one it takes, which must be the urgent
  // one (the queue's four bulk partitions came first).
  h.permits[0].grant(2);
  const JobResult r = h.wait(urgent);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 1u);
  EXPECT_EQ(h.devices.attempts("gpu:0"), 2);
  EXPECT_EQ(h.devices.attempts("gpu:1"), 0);  // still held in its first
  EXPECT_FALSE(h.engine->await(bulk, 1ms).has_value()) << "the bulk job finished first";
  h.permits[0].open();
  h.permits[1].open();
  const JobResult b = h.wait(bulk);
  ASSERT_EQ(b.state, JobState::kCompleted) << b.error_message;
  EXPECT_EQ(verifying_proofs(b), 16u);
}

TEST(EngineDevices, AnSrsIsHotOnlyWhileADeviceHoldsIt) {
  TwoDevices h(0ms, 0ms);
  // One device does the work: its circuit switch is the one observed.
  ASSERT_NO_FATAL_FAILURE(h.leave_gpu0_alone());
  ASSERT_EQ(h.wait(h.submit("one", 1, Priority::kNormal, 1)).state, JobState::kCompleted);
  EXPECT_EQ(h.tier("fake-1"), SrsTier::kHot);
  ASSERT_EQ(h.wait(h.submit("two", 1, Priority::kNormal, 2)).state, JobState::kCompleted);
  EXPECT_EQ(h.tier("fake-2"), SrsTier::kHot);
  // gpu:0 dropped fake-1's device copy to load fake-2's: fake-1 is only on the host now.
  EXPECT_EQ(h.tier("fake-1"), SrsTier::kWarm);
}

// A device with room for two sets (GpuBackend when both fit: a WinningPoSt's beside PoRep's on
// the H200) keeps the last circuit's set across a switch: it stays HOT. A third circuit's proof
// pushes the oldest out (the backend's plan needed the room): that one is WARM.
TEST(EngineDevices, ASetTheDeviceKeepsAcrossACircuitSwitchStaysHot) {
  TwoDevices h(0ms, 0ms, false, 2);
  ASSERT_NO_FATAL_FAILURE(h.leave_gpu0_alone());
  ASSERT_EQ(h.wait(h.submit("one", 1, Priority::kNormal, 1)).state, JobState::kCompleted);
  ASSERT_EQ(h.wait(h.submit("two", 1, Priority::kNormal, 2)).state, JobState::kCompleted);
  EXPECT_EQ(h.tier("fake-2"), SrsTier::kHot);
  EXPECT_EQ(h.tier("fake-1"), SrsTier::kHot);
  ASSERT_EQ(h.wait(h.submit("three", 1, Priority::kNormal, 3)).state, JobState::kCompleted);
  EXPECT_EQ(h.tier("fake-3"), SrsTier::kHot);
  EXPECT_EQ(h.tier("fake-2"), SrsTier::kHot);
  EXPECT_EQ(h.tier("fake-1"), SrsTier::kWarm);
}

// One fake device, gpu:0, whose backend says `holding` after each proof, keeps `keeps_pinned`
// host bytes from its first proof on and page-locks `lock_bytes` when asked; proves a
// 2-partition job.
struct OneDevice {
  TempDir dir{"engine-one-device"};
  SynthesisLog synthesis;
  DeviceLog devices;
  std::atomic<bool> broken{false};
  std::atomic<int> lock_calls{0}, unlocked{0};
  std::unique_ptr<Engine> engine;

  OneDevice(groth16::DeviceHolding holding, uint64_t keeps_pinned, uint64_t budget = 0,
            uint64_t lock_bytes = 0) {
    EngineConfig c;
    c.threads = 1;
    c.synthesis_workers = 1;
    c.memory_budget_bytes = budget;
    c.pce_dir = dir.path() / "pce";
    c.fake_devices.names = {"gpu:0"};
    c.fake_devices.make = [this, holding, keeps_pinned, lock_bytes](const std::string& name,
                                                                    ThreadPool& pool) {
      auto d = std::make_unique<FakeDevice>(name, pool, &devices, 0ms, &broken);
      d->holding = holding;
      d->keeps_pinned = keeps_pinned;
      d->lock_bytes = lock_bytes;
      d->lock_calls = &lock_calls;
      d->unlocked = &unlocked;
      return d;
    };
    engine = std::make_unique<Engine>(std::move(c),
                                      std::vector<std::shared_ptr<const CircuitHandler>>{
                                          std::make_shared<FakeHandler>(dir.path(), &synthesis)});
  }
  // Proves the job; false (with the reason added to the test's failures) when it did not.
  bool prove() {
    ProofRequest r;
    r.kind = ProofKind::kWinningPost;
    r.sector_size = 1;
    const std::string payload = "2,0";
    r.vanilla_proof.assign(payload.begin(), payload.end());
    const auto result = engine->await(engine->submit(std::move(r)).job_id, 120s);
    EXPECT_TRUE(result.has_value() && result->state == JobState::kCompleted)
        << (result ? result->error_message : "no result");
    return result.has_value() && result->state == JobState::kCompleted;
  }
  // The device's line on the status page.
  DeviceUse device() const {
    const EngineActivity a = engine->activity(60);
    EXPECT_EQ(a.devices.size(), 1u);
    return a.devices.empty() ? DeviceUse{} : a.devices[0];
  }
};

// A capped card keeps part of the set and streams the rest from the host at each proof: the set
// is not on the device, so it stays WARM (the host copy serves every proof), and the device's
// meter shows the part the backend says it keeps. A device that keeps the whole set makes it HOT.
TEST(EngineDevices, AStreamingDeviceLeavesTheSrsWarmAndItsMeterShowsThePartItKeeps) {
  for (const bool streams : {true, false}) {
    SCOPED_TRACE(streams ? "streams" : "keeps the set");
    constexpr uint64_t kKept = 123456, kPinned = 654321;
    OneDevice h(groth16::DeviceHolding{kKept, streams, 0}, streams ? kPinned : 0);
    ASSERT_TRUE(h.prove());
    const std::vector<SrsInfo> srs = h.engine->status().srs;
    ASSERT_EQ(srs.size(), 1u);
    EXPECT_EQ(srs[0].tier, streams ? SrsTier::kWarm : SrsTier::kHot);
    const DeviceUse d = h.device();
    EXPECT_EQ(d.srs_bytes, kKept);
    EXPECT_EQ(d.srs_streams, streams);
    EXPECT_EQ(d.pinned_host_bytes, streams ? kPinned : 0);
  }
}

// A capped device streams the set's points at every proof: the engine has its backend lock
// them in place once per load (the next jobs find them locked), shows the bytes with the set,
// and unlocks them when the set is evicted, before its points go (SrsManager::unload); loaded
// anew, the set is locked anew. A device that streams nothing is asked once per load too.
TEST(EngineDevices, AStreamingDevicesPointsArePageLockedOncePerLoadUntilTheSetGoes) {
  for (const uint64_t lock_bytes : {uint64_t{4096}, uint64_t{0}}) {
    SCOPED_TRACE(lock_bytes != 0 ? "streams" : "streams nothing");
    OneDevice h(groth16::DeviceHolding{1, lock_bytes != 0, 0}, 0, 0, lock_bytes);
    ASSERT_TRUE(h.prove());
    ASSERT_TRUE(h.prove());
    EXPECT_EQ(h.lock_calls.load(), 1);
    std::vector<SrsInfo> srs = h.engine->status().srs;
    ASSERT_EQ(srs.size(), 1u);
    EXPECT_EQ(srs[0].page_locked_bytes, lock_bytes);
    EXPECT_EQ(h.unlocked.load(), 0);
    EXPECT_TRUE(h.engine->evict_srs(srs[0].circuit_id).was_loaded);
    EXPECT_EQ(h.unlocked.load(), lock_bytes != 0 ? 1 : 0);
    srs = h.engine->status().srs;
    ASSERT_EQ(srs.size(), 1u);
    EXPECT_EQ(srs[0].page_locked_bytes, 0u);
    ASSERT_TRUE(h.prove());
    EXPECT_EQ(h.lock_calls.load(), 2);
    EXPECT_EQ(h.engine->status().srs[0].page_locked_bytes, lock_bytes);
  }
}

// The page-locked copy a capped device keeps between proofs comes out of the engine's memory
// budget (issue 30: "counted in the memory budget"): admitted, the budget's use grows by it and
// the status page shows it; with no room for it the device does without (GpuBackend stages the
// matrices instead) and the job still completes.
TEST(EngineDevices, ThePinnedCopyADeviceKeepsComesOutOfTheMemoryBudget) {
  constexpr uint64_t kBudget = 64ull << 20, kPinned = 1ull << 20;
  struct Run {
    uint64_t in_use = 0, pinned = 0;
  };
  const auto run = [&](uint64_t keeps) {
    OneDevice h(groth16::DeviceHolding{1, true, 0}, keeps, kBudget);
    Run out;
    if (!h.prove()) return out;
    out.in_use = h.engine->status().memory_in_use_bytes;
    out.pinned = h.device().pinned_host_bytes;
    return out;
  };
  const Run none = run(0);
  EXPECT_EQ(none.pinned, 0u);
  const Run kept = run(kPinned);  // fits beside the parameters and the payload share
  EXPECT_EQ(kept.pinned, kPinned);
  EXPECT_EQ(kept.in_use, none.in_use + kPinned);
  const Run refused = run(kBudget);  // can never fit: the device does without it
  EXPECT_EQ(refused.pinned, 0u);
  EXPECT_EQ(refused.in_use, none.in_use);
}

}  // namespace
}  // namespace cuzk::engine::test
